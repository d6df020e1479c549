// Refunds of completed payments, partial or whole, and reversals of uncaptured holds (endpoints 5, 6
// and the refund list).
import { randomUUID } from 'node:crypto'
import type { DeclineReason } from '../acquirer/sandbox-acquirer'
import { fieldError, incorrectInvocation, notFound, requestConflict } from '../http/api-error'
import { refundsPostponed } from '../sites/site-store'
import { notifyRefund, refundNotificationInsert } from './payment-notify'
import { fingerprint } from '../security/keyed-hash'
import type { AmountInput } from '../wire/common-schemas'
import { siteWrite } from '../sandbox/site-write'
import { lockPayment } from './payment-lifecycle'
import { currencyMismatch, decideRefund, totalsOf } from './payment-rules'
import { lockPaymentByRef, refundTotalsUpdate, unrefund, type Tx } from './payment-store'
import { nextRefundProcessing } from './refund-schedule'
import { renderRefund } from './payment-wire'
import {
  findRefund,
  finishRefund,
  insertRefund,
  lockRefund,
  refundOfPayment,
  refundsOfPaymentId,
  type Refund,
} from './refund-store'

/** the reason of a postponed refund the merchant declined */
const DECLINED_BY_MERCHANT: DeclineReason = 'REFUND_DECLINED_BY_MERCHANT'

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
    // the postponed scheme: a refund waits for the next processing time (a reversal, whole or partial, releases what
    // it names of a hold at once)
    const postponed = d.ok && !d.reversal && (await refundsPostponed(tx, siteId))
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
      status: postponed ? 'WAITING' : d.ok ? 'COMPLETED' : 'DECLINED',
      statusReason: d.ok ? null : d.reason,
      statusChangedAt: now,
      createdAt: now,
      dueAt: postponed ? nextRefundProcessing(now) : null,
    }
    // the payment's totals (a waiting refund counts against what can be refunded), the refund and its notification
    // (once final) in one statement (the payment is locked)
    const totals = d.ok ? refundTotalsUpdate(p.id, row.amountMinor, d.reversal, d.releases) : null
    const refund = await insertRefund(tx, row, totals, postponed ? null : refundNotificationInsert(row, p))
    await alsoWrite?.(tx, refund)
    return refund
  })
  return renderRefund(refund)
}

/**
 * POST …/refunds/{refundId}/decline: a postponed refund not yet processed is DECLINED REFUND_DECLINED_BY_MERCHANT and
 * no longer counts against the captured amount; a refund already final is a 409.
 */
export async function declineRefund(siteId: string, paymentId: string, refundId: string) {
  const refund = await siteWrite(siteId, async (tx, clock) => {
    const now = clock.now()
    const p = await lockPayment(tx, siteId, paymentId, now)
    const r = await lockRefund(tx, p.id, refundId)
    if (!r) throw notFound('Refund')
    if (r.status !== 'WAITING')
      throw incorrectInvocation(`The refund is ${r.status}: only a postponed refund not yet processed can be declined`)
    await unrefund(tx, p.id, r.amountMinor)
    const declined = await finishRefund(tx, r.id, 'DECLINED', DECLINED_BY_MERCHANT, now)
    await notifyRefund(tx, declined, p)
    return declined
  })
  return renderRefund(refund)
}

/** the scheduler's part: a postponed refund processed at its time (the payment it refunds locked first) */
export async function processDueRefund(tx: Tx, r: Refund, at: Date): Promise<Refund> {
  const p = await lockPaymentByRef(tx, r.paymentRef)
  const done = await finishRefund(tx, r.id, 'COMPLETED', null, at)
  if (p) await notifyRefund(tx, done, p)
  return done
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
