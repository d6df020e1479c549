// Captures of authorised (two-step) payments (endpoint 4 and its read).
import { captureOfPayment, findCapture, hasCompletedCapture, insertCapture, type Capture } from './capture-store'
import { fieldError, incorrectInvocation, notFound, requestConflict, type ApiError } from '../http/api-error'
import { notifyCapture } from './payment-notify'
import { fingerprint } from '../security/keyed-hash'
import type { AmountInput } from '../wire/common-schemas'
import { siteWrite } from '../sandbox/site-write'
import { lockPayment } from './payment-lifecycle'
import { currencyMismatch, decideCapture, totalsOf } from './payment-rules'
import { setCapturedMinor, type Tx } from './payment-store'
import { renderCapture } from './payment-wire'
import { splitsOf } from '../splits/split-schema'
import { chequeOf } from '../receipts/cheque-schema'

/**
 * `alsoWrite`: what the caller records with a new capture, in its transaction (the dashboard's audit entry); not on a
 * replay
 */
export async function capturePayment(
  siteId: string,
  paymentId: string,
  captureId: string,
  amount: AmountInput | undefined,
  callbackUrl?: string,
  alsoWrite?: (tx: Tx, capture: Capture) => Promise<unknown>,
  { refuseDecline }: { refuseDecline?: (reason: string, o: { wholeOnly: boolean }) => ApiError } = {},
) {
  // on the site's sandbox clock, a sandbox reset of the site waiting for this write (or this write for it)
  const capture = await siteWrite(siteId, async (tx, clock) => {
    const now = clock.now()
    const p = await lockPayment(tx, siteId, paymentId, now)
    const print = fingerprint('capture', { payment: p.id, amount: amount ?? null, callbackUrl })
    const existing = await findCapture(tx, siteId, captureId)
    if (existing) {
      if (existing.fingerprint !== print) throw requestConflict(`Capture ${captureId}`)
      return existing
    }
    // one successful capture per payment: a new one after it is refused, as production does
    if (await hasCompletedCapture(tx, p.id))
      throw incorrectInvocation('Successful capture already done for this payment')
    const mismatch = currencyMismatch(amount, p)
    if (mismatch) throw fieldError('amount.currency', mismatch)
    // a payment's splits and cheque add up to all it holds: a capture of less would leave them describing money never
    // taken, so such a payment is captured in full (a partial reversal naming refundSplits takes a part off first)
    const wholeOnly = Boolean(splitsOf(p.splits) || chequeOf(p.cheque))
    const d = decideCapture(totalsOf(p), amount?.value ?? null, wholeOnly)
    // a caller that offers only what can work (the dashboard) has a capture that would be declined refused instead:
    // nothing recorded, no notification; told when the amount is wrong because only all of the hold can be captured
    if (!d.ok && refuseDecline) throw refuseDecline(d.reason, { wholeOnly })
    if (d.ok) await setCapturedMinor(tx, p.id, d.amountMinor)
    const capture = await insertCapture(tx, {
      siteId,
      captureId,
      callbackUrl,
      paymentRef: p.id,
      fingerprint: print,
      currency: p.currency,
      amountMinor: d.ok ? d.amountMinor : (amount?.value ?? p.amountMinor),
      status: d.ok ? 'COMPLETED' : 'DECLINED',
      statusReason: d.ok ? null : d.reason,
      statusChangedAt: now,
      createdAt: now,
    })
    await notifyCapture(tx, capture, p)
    await alsoWrite?.(tx, capture)
    return capture
  })
  return renderCapture(capture)
}

export async function readCapture(siteId: string, paymentId: string, captureId: string) {
  const c = await captureOfPayment(siteId, paymentId, captureId)
  if (!c) throw notFound('Capture')
  return renderCapture(c)
}
