// What a merchant does to a payment in the dashboard: capture and refund, through the very services the
// API uses (the same limits, the same errors, the same notifications), each recorded in the audit log
// with who did it (the session's token hint), what, and how it ended. The form sends a key made when it
// was shown: it becomes the capture's or refund's id, so a form sent twice (a double click, a retry after
// a lost answer) captures or refunds once, as an API replay does.
import { ApiError, notFound } from '../http/api-error'
import { capturePayment } from '../payments/capture-service'
import { findPayment } from '../payments/payment-service'
import { refundPayment } from '../payments/refund-service'
import { recordAudit } from './dashboard-audit'
import type { DashboardSession } from './dashboard-session'

export type ActionOutcome = { status: string; reason?: string }

type Kind = 'capture' | 'refund'

export async function actOnPayment(session: DashboardSession, kind: Kind, paymentId: string, key: string, amountMinor: number): Promise<ActionOutcome> {
  const payment = await findPayment(session.siteId, paymentId).catch((e) => {
    throw e instanceof ApiError && e.status === 404 ? notFound('Payment') : e
  })
  const id = `dashboard-${key}`
  const amount = { value: amountMinor, currency: payment.currency }
  let outcome: ActionOutcome
  try {
    const answer = kind === 'capture' ? await capturePayment(session.siteId, paymentId, id, amount) : await refundPayment(session.siteId, paymentId, id, amount)
    outcome = { status: answer.status.value, ...(answer.status.reason ? { reason: answer.status.reason } : {}) }
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    await recordAudit(session, { action: kind, subject: paymentId, paymentRef: payment.id, outcome: `refused: ${e.description}`, detail: { id, amountMinor: String(amountMinor), currency: payment.currency } })
    throw e
  }
  await recordAudit(session, {
    action: kind,
    subject: paymentId,
    paymentRef: payment.id,
    outcome: outcome.reason ? `${outcome.status} (${outcome.reason})` : outcome.status,
    detail: { id, amountMinor: String(amountMinor), currency: payment.currency },
  })
  return outcome
}
