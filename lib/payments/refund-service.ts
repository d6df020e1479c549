// Refunds of completed payments, partial or whole, and reversals of uncaptured holds (endpoints 5, 6
// and the refund list).
import { randomUUID } from 'node:crypto'
import type { DeclineReason } from '../acquirer/sandbox-acquirer'
import {
  fieldError,
  incorrectInvocation,
  notFound,
  requestConflict,
  validationError,
  type ApiError,
} from '../http/api-error'
import { refundsPostponed, siteClock } from '../sites/site-store'
import { notifyRefund, refundNotificationInsert } from './payment-notify'
import { fingerprint } from '../security/keyed-hash'
import type { AmountInput } from '../wire/common-schemas'
import { siteWrite } from '../sandbox/site-write'
import { lockPayment } from './payment-lifecycle'
import { currencyMismatch, decideRefund, totalsOf } from './payment-rules'
import { lockPaymentByRef, refundTotalsUpdate, settlePendingRefund, type Tx } from './payment-store'
import { nextRefundProcessing } from './refund-schedule'
import { renderRefund } from './payment-wire'
import { splitsOf, type Split } from '../splits/split-schema'
import { refundSplitProblems } from '../splits/split-rules'
import type { Cheque } from '../receipts/cheque-schema'
import { chargedCardOf } from './charged-card'
import {
  findRefund,
  finishRefund,
  insertRefund,
  lockRefundById,
  lockRefundOfPayment,
  refundOfPayment,
  refundsOfPaymentId,
  splitsRefunded,
  type Refund,
} from './refund-store'

/** the reason of a postponed refund the merchant declined */
const DECLINED_BY_MERCHANT: DeclineReason = 'REFUND_DECLINED_BY_MERCHANT'

/**
 * `alsoWrite`: what the caller records with a new refund, in its transaction (the dashboard's audit entry); not on a
 * replay. `refundSplits`: what it takes back of each of a split payment's splits (their sum is the amount's value);
 * `cheque`: its 54-FZ receipt data (a card payment's only). `refuseDecline`: the error thrown instead of recording a
 * refund that would be declined.
 */
export async function refundPayment(
  siteId: string,
  paymentId: string,
  refundId: string,
  amount: AmountInput,
  callbackUrl?: string,
  alsoWrite?: (tx: Tx, refund: Refund) => Promise<unknown>,
  {
    refundSplits,
    cheque,
    refuseDecline,
  }: { refundSplits?: Split[]; cheque?: Cheque; refuseDecline?: (reason: string) => ApiError } = {},
) {
  // on the site's sandbox clock, a sandbox reset of the site waiting for this write (or this write for it)
  const refund = await siteWrite(siteId, async (tx, clock) => {
    const now = clock.now()
    const p = await lockPayment(tx, siteId, paymentId, now)
    const print = fingerprint('refund', { payment: p.id, amount, callbackUrl, refundSplits, cheque })
    const existing = await findRefund(tx, siteId, refundId)
    if (existing) {
      if (existing.fingerprint !== print) throw requestConflict(`Refund ${refundId}`)
      return existing
    }
    const mismatch = currencyMismatch(amount, p)
    if (mismatch) throw fieldError('amount.currency', mismatch)
    // what remains of each split, after the refunds that count: read with the payment locked, so refunds queue
    const paymentSplits = splitsOf(p.splits)
    const splitProblems =
      refundSplits || paymentSplits
        ? refundSplitProblems(refundSplits, paymentSplits, await splitsRefunded(tx, p.id))
        : null
    if (splitProblems) throw validationError(splitProblems)
    // production issues receipts for card payments alone
    if (cheque && !chargedCardOf(p)) throw fieldError('cheque', 'is for refunds of payments that charged a card')
    const d = decideRefund(totalsOf(p), amount.value)
    // a caller that offers only what can work (the dashboard) has a refund that would be declined refused instead
    if (!d.ok && refuseDecline) throw refuseDecline(d.reason)
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
      splits: refundSplits ?? null,
      cheque: cheque ?? null,
    }
    // the payment's totals (a waiting refund counts against what can be refunded), the refund and its notification
    // (once final) in one statement (the payment is locked)
    const totals = d.ok ? refundTotalsUpdate(p.id, row.amountMinor, d.reversal, d.releases, postponed) : null
    const refund = await insertRefund(tx, row, totals, postponed ? null : refundNotificationInsert(row, p))
    await alsoWrite?.(tx, refund)
    return refund
  })
  // a replay of a postponed refund whose time has come: processed first (after this transaction: refund, then
  // payment, as the scheduler locks them)
  const [now] = await upToDate(siteId, [refund])
  return renderRefund(now)
}

/**
 * POST …/refunds/{refundId}/decline: a postponed refund not yet processed is DECLINED REFUND_DECLINED_BY_MERCHANT and
 * no longer counts against the captured amount; a refund already final (or whose processing time has come) is a 409.
 * The refund is locked before its payment, as the scheduler locks them.
 */
export async function declineRefund(siteId: string, paymentId: string, refundId: string) {
  const refund = await siteWrite(siteId, async (tx, clock) => {
    const now = clock.now()
    const found = await lockRefundOfPayment(tx, siteId, paymentId, refundId)
    const p = await lockPayment(tx, siteId, paymentId, now)
    if (!found) throw notFound('Refund')
    // processed at its time, whether or not the scheduler has come by yet
    const r = await settleDue(tx, found, now)
    if (r.status !== 'WAITING')
      return { refused: `The refund is ${r.status}: only a postponed refund not yet processed can be declined` }
    await settlePendingRefund(tx, p.id, r.amountMinor, false)
    const declined = await finishRefund(tx, r.id, 'DECLINED', DECLINED_BY_MERCHANT, now)
    await notifyRefund(tx, declined, p)
    return declined
  })
  // the refusal after the commit: a refund processed just now stays processed
  if ('refused' in refund) throw incorrectInvocation(refund.refused)
  return renderRefund(refund)
}

/** the refund (locked) processed if its time has come by `now`, dated then; the refund as it is */
const settleDue = (tx: Tx, r: Refund, now: Date): Promise<Refund> =>
  r.status === 'WAITING' && r.dueAt && r.dueAt.getTime() <= now.getTime()
    ? processDueRefund(tx, r, r.dueAt)
    : Promise.resolve(r)

/** a postponed refund processed at its time: its payment locked (after the refund), its totals, its notification */
export async function processDueRefund(tx: Tx, r: Refund, at: Date): Promise<Refund> {
  const p = await lockPaymentByRef(tx, r.paymentRef)
  await settlePendingRefund(tx, r.paymentRef, r.amountMinor, true)
  const done = await finishRefund(tx, r.id, 'COMPLETED', null, at)
  if (p) await notifyRefund(tx, done, p)
  return done
}

/** refunds as a reader sees them: a postponed one whose time has come is processed first (as the scheduler would) */
async function upToDate(siteId: string, refunds: Refund[]): Promise<Refund[]> {
  if (!refunds.some((r) => r.status === 'WAITING')) return refunds
  const now = (await siteClock(siteId)).now()
  return Promise.all(
    refunds.map((r) =>
      r.status === 'WAITING' && r.dueAt && r.dueAt.getTime() <= now.getTime()
        ? siteWrite(siteId, async (tx, clock) => {
            const locked = await lockRefundById(tx, r.id)
            return locked ? settleDue(tx, locked, clock.now()) : r
          })
        : r,
    ),
  )
}

export async function readRefund(siteId: string, paymentId: string, refundId: string) {
  const r = await refundOfPayment(siteId, paymentId, refundId)
  if (!r) throw notFound('Refund')
  const [now] = await upToDate(siteId, [r])
  return renderRefund(now)
}

export async function listRefunds(siteId: string, paymentId: string) {
  const refunds = await refundsOfPaymentId(siteId, paymentId)
  if (!refunds) throw notFound('Payment')
  return (await upToDate(siteId, refunds)).map(renderRefund)
}
