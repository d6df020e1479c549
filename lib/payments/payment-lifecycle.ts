// How a payment leaves WAITING: approved (the bill permitting), or declined, as its flow (lib/payments/flows)
// decides. Time-driven changes — each flow's due change: a 3-D Secure challenge left for 15 minutes, the emulated
// mobile operator's answer — are stored as the payment's `dueAt`: the scheduler (lib/scheduler) applies them at that
// time on whichever instance gets there first, and a request that touches the payment after it applies them too, so
// every reader sees the same final state, dated when it fell due. The caller holds the payment's row lock.
import { billState, markBillPaid } from '../settlement/bill-for-payment'
import type { DeclineReason } from '../acquirer/sandbox-acquirer'
import { notFound } from '../http/api-error'
import { notifyPayment, notifyPayments } from './payment-notify'
import { dueAfterMs, dueChangeOf } from './flows'
import { isOneStep } from './payment-rules'
import {
  completePaymentRow,
  declinePayment,
  declinePayments,
  lockBillOfPayment,
  lockDuePaymentsOfBill,
  lockPaymentRow,
  type Payment,
  type Tx,
} from './payment-store'
import { recordToken } from './payment-tokens'
import { confirmHold, holdIsDue } from './hold-expiry'

/**
 * Locks the site's payment for the rest of the transaction and brings it up to date at `now`, its site's time (404 when
 * there is none).
 */
export async function lockPayment(tx: Tx, siteId: string, paymentId: string, now: Date): Promise<Payment> {
  const row = await lockPaymentRow(tx, siteId, paymentId)
  if (!row) throw notFound('Payment')
  return settle(tx, row, now)
}

/** what an approval captures: the whole amount of a one-step payment, nothing of a two-step one */
export const capturedOnApproval = (p: Pick<Payment, 'flags' | 'methodType' | 'amountMinor'>) =>
  isOneStep(p) ? p.amountMinor : 0n

/** when a new WAITING payment of this flow changes by itself, if it does (its flow says after how long) */
export function dueAtFor(authFlow: string | null, now: Date): Date | null {
  const after = dueAfterMs(authFlow)
  return after === null ? null : new Date(now.getTime() + after)
}

/** whether a WAITING payment's flow's change fell due */
const flowChangeIsDue = (p: Pick<Payment, 'status' | 'dueAt'>, now: Date) =>
  p.status === 'WAITING' && p.dueAt !== null && p.dueAt.getTime() <= now.getTime()

/** whether a change of the payment fell due: its flow's, or its hold's end (hold-expiry.ts) */
export const isDue = (p: Pick<Payment, 'status' | 'dueAt' | 'holdDueAt'>, now: Date) =>
  flowChangeIsDue(p, now) || holdIsDue(p, now)

/**
 * Settles the bill's WAITING payments whose change fell due before `before` (except `except`), earliest
 * first, so that the bill is judged as any reader would see it: an operator's answer due earlier comes
 * first (it may pay the bill), whether or not the scheduler has applied it yet, whoever asks first. The
 * payments are locked before the bill, as a payment's own transaction locks it; the rare opposite order
 * (two payments of one bill settled at once, each waiting for the other) is a deadlock that PostgreSQL
 * breaks and withRetry repeats.
 */
export async function settleDueOnBill(
  tx: Tx,
  bill: { ref: string } | { siteId: string; billId: string },
  before: Date,
  except: string | null = null,
): Promise<void> {
  const due = await lockDuePaymentsOfBill(tx, bill, before, except)
  // each is settled at its own due time (strictly earlier: the recursion through approve ends)
  for (const p of due) await settle(tx, p, before)
}

/**
 * applies the change that fell due (its flow's: lib/payments/flows), then its hold's end if that came too (an approval
 * long ago), each dated when it fell due
 */
export async function settle(tx: Tx, p: Payment, now: Date): Promise<Payment> {
  const settled = flowChangeIsDue(p, now) ? await applyFlowChange(tx, p) : p
  return holdIsDue(settled, now) ? confirmHold(tx, settled) : settled
}

function applyFlowChange(tx: Tx, p: Payment): Promise<Payment> {
  const due = p.dueAt!
  const change = dueChangeOf(p)
  return change.kind === 'decline' ? decline(tx, p, change.reason, due) : approve(tx, p, due)
}

export async function decline(tx: Tx, p: Payment, reason: DeclineReason, at: Date): Promise<Payment> {
  const declined = await declinePayment(tx, p.id, reason, at)
  await notifyPayment(tx, declined)
  return declined
}

/**
 * The reason a WAITING payment's flow declines it with now that its change fell due (a 3-D Secure challenge left too
 * long), or null: its change is not due, or it is an approval (which judges the payment's bill: settle).
 */
export function dueDecline(p: Payment, now: Date): DeclineReason | null {
  if (!flowChangeIsDue(p, now)) return null
  const change = dueChangeOf(p)
  return change.kind === 'decline' ? change.reason : null
}

/**
 * Declines several payments at once, each as decline does, dated when its change fell due (dueDecline said it
 * does): one statement for the payments and one for their notifications, however many. The caller holds their
 * locks, and no other payment of their bills changes in the transaction before them.
 */
export async function declineDue(tx: Tx, due: { p: Payment; reason: DeclineReason }[]): Promise<void> {
  if (!due.length) return
  const declined = await declinePayments(
    tx,
    due.map(({ p, reason }) => ({ id: p.id, reason, at: p.dueAt! })),
  )
  await notifyPayments(tx, declined)
}

/** Completes a payment whose payer (or operator) said yes, unless its bill was paid or expired meanwhile. */
export async function approve(tx: Tx, p: Payment, at: Date): Promise<Payment> {
  await settleDueOnBill(tx, { ref: p.billRef }, at, p.id)
  const bill = await lockBillOfPayment(tx, p.billRef)
  const state = billState(bill, at)
  if (state === 'PAID') return decline(tx, p, 'BILL_ALREADY_PAID', at)
  if (state === 'EXPIRED') return decline(tx, p, 'BILL_EXPIRED', at)
  const done = await completePaymentRow(tx, p.id, capturedOnApproval(p), at)
  await markBillPaid(tx, p.billRef, at)
  await recordToken(tx, done)
  await notifyPayment(tx, done)
  return done
}
