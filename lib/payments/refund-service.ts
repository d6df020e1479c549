// Refunds of completed payments, partial or whole, and reversals of uncaptured holds (endpoints 5, 6
// and the refund list).
import { randomUUID } from 'node:crypto'
import { fieldError, notFound, requestConflict } from '../http/api-error'
import { refundNotificationInsert } from './payment-notify'
import { fingerprint } from '../security/keyed-hash'
import type { AmountInput } from '../wire/common-schemas'
import { siteWrite } from '../sandbox/site-write'
import { lockPayment } from './payment-lifecycle'
import { currencyMismatch, decideRefund, totalsOf } from './payment-rules'
import { refundTotalsUpdate, type Tx } from './payment-store'
import { renderRefund } from './payment-wire'
import { findRefund, insertRefund, refundOfPayment, refundsOfPaymentId, type Refund } from './refund-store'

/**
 * `alsoWrite`: what the caller records with a new refund, in its transaction (the dashboard's audit entry); not on a
 * replay
 */
export async function refundPayment(
  siteId: string,
  paymentId: string,
  refundId: string,
  amount: AmountInput,
  callbackUrl?: string,
  alsoWrite?: (tx: Tx, refund: Refund) => Promise<unknown>,
) {
  // on the site's sandbox clock, a sandbox reset of the site waiting for this write (or this write for it)
  const refund = await siteWrite(siteId, async (tx, clock) => {
    const now = clock.now()
    const p = await lockPayment(tx, siteId, paymentId, now)
    const print = fingerprint('refund', { payment: p.id, amount, callbackUrl })
    const existing = await findRefund(tx, siteId, refundId)
    if (existing) {
      if (existing.fingerprint !== print) throw requestConflict(`Refund ${refundId}`)
      return existing
    }
    const mismatch = currencyMismatch(amount, p)
    if (mismatch) throw fieldError('amount.currency', mismatch)
    const d = decideRefund(totalsOf(p), amount.value)
    const row: Refund = {
      id: randomUUID(),
      siteId,
      refundId,
      callbackUrl: callbackUrl ?? null,
      paymentRef: p.id,
      fingerprint: print,
      currency: p.currency,
      amountMinor: BigInt(amount.value),
      flags: d.ok && d.reversal ? ['REVERSAL'] : [],
      status: d.ok ? 'COMPLETED' : 'DECLINED',
      statusReason: d.ok ? null : d.reason,
      statusChangedAt: now,
      createdAt: now,
    }
    // the payment's totals, the refund and its notifications in one statement (the payment is locked)
    const totals = d.ok ? refundTotalsUpdate(p.id, row.amountMinor, d.reversal) : null
    const refund = await insertRefund(tx, row, totals, refundNotificationInsert(row, p))
    await alsoWrite?.(tx, refund)
    return refund
  })
  return renderRefund(refund)
}

export async function readRefund(siteId: string, paymentId: string, refundId: string) {
  const r = await refundOfPayment(siteId, paymentId, refundId)
  if (!r) throw notFound('Refund')
  return renderRefund(r)
}

export async function listRefunds(siteId: string, paymentId: string) {
  const refunds = await refundsOfPaymentId(siteId, paymentId)
  if (!refunds) throw notFound('Payment')
  return refunds.map(renderRefund)
}
