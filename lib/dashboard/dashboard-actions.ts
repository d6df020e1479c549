// What a merchant does to a payment in the dashboard: capture and refund, through the very services the
// API uses (the same limits, the same errors, the same notifications), each recorded in the audit log
// with who did it (the session's token hint), what, and how it ended, in the same transaction. The form sends a key
// made when it
// was shown: it becomes the capture's or refund's id, so a form sent twice (a double click, a retry after
// a lost answer) captures or refunds once, as an API replay does.
import { ApiError, incorrectInvocation, notFound } from '../http/api-error'
import { capturePayment } from '../payments/capture-service'
import { findPayment } from '../payments/payment-service'
import type { Tx } from '../payments/payment-store'
import { refundPayment } from '../payments/refund-service'
import { recordAudit } from './dashboard-audit'
import { siteClock } from '../sites/site-store'
import type { DashboardSession } from './dashboard-session'

export type ActionOutcome = { status: string; reason?: string }

type Kind = 'capture' | 'refund'

/**
 * The dashboard offers only what can work, so what the API would record as declined (a form left open while the
 * payment moved on in another tab, an amount above what is left) is refused instead: no declined capture or refund,
 * no notification to the shop; the refusal has its audit entry. Its words (lib/i18n/.../codes.ts messages).
 */
const refusalOf =
  (kind: Kind) =>
  (reason: string, o: { wholeOnly?: boolean } = {}) =>
    incorrectInvocation(
      reason === 'INVALID_STATE'
        ? `Nothing is left to ${kind} on this payment`
        : reason === 'INVALID_AMOUNT' && o.wholeOnly
          ? 'A payment with splits or a receipt is captured in full only'
          : reason === 'INVALID_AMOUNT'
            ? `The amount is more than is left to ${kind}`
            : `Not made: it would be declined with ${reason}`,
    )

export async function actOnPayment(
  session: DashboardSession,
  kind: Kind,
  paymentId: string,
  key: string,
  amountMinor: number,
): Promise<ActionOutcome> {
  const payment = await findPayment(session.siteId, paymentId, await siteClock(session.siteId)).catch((e) => {
    throw e instanceof ApiError && e.status === 404 ? notFound('Payment') : e
  })
  const id = `dashboard-${key}`
  const amount = { value: amountMinor, currency: payment.currency }
  const detail = { id, amountMinor: String(amountMinor), currency: payment.currency }
  // the entry is written in the action's own transaction: no capture or refund without its entry, and a
  // replay of the same key (a form sent twice) adds none
  const record = (tx: Tx, row: { status: string; statusReason: string | null }) =>
    recordAudit(
      session,
      {
        action: kind,
        subject: paymentId,
        paymentRef: payment.id,
        outcome: row.statusReason ? `${row.status} (${row.statusReason})` : row.status,
        detail,
      },
      tx,
    )
  let outcome: ActionOutcome
  try {
    const answer =
      kind === 'capture'
        ? await capturePayment(session.siteId, paymentId, id, amount, undefined, record, {
            refuseDecline: refusalOf(kind),
          })
        : await refundPayment(session.siteId, paymentId, id, amount, undefined, record, {
            refuseDecline: refusalOf(kind),
          })
    outcome = { status: answer.status.value, ...(answer.status.reason ? { reason: answer.status.reason } : {}) }
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    // a refusal changed nothing: its entry is written on its own
    await recordAudit(session, {
      action: kind,
      subject: paymentId,
      paymentRef: payment.id,
      outcome: `refused: ${e.description}`,
      detail,
    })
    throw e
  }
  return outcome
}
