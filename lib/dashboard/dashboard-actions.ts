// What a merchant does to a payment in the dashboard: capture and refund, through the very services the
// API uses (the same limits, the same errors, the same notifications), each recorded in the audit log
// with who did it (the session's token hint), what, and how it ended. The form sends a key made when it
// was shown: it becomes the capture's or refund's id, so a form sent twice (a double click, a retry after
// a lost answer) captures or refunds once, as an API replay does.
import { db } from '../db/client'
import { ApiError, notFound } from '../http/api-error'
import { capturePayment } from '../payments/capture-service'
import { findPayment } from '../payments/payment-service'
import { refundPayment } from '../payments/refund-service'
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
    await audit(session, kind, paymentId, payment.id, `refused: ${e.description}`, { id, amountMinor: String(amountMinor), currency: payment.currency })
    throw e
  }
  await audit(session, kind, paymentId, payment.id, outcome.reason ? `${outcome.status} (${outcome.reason})` : outcome.status, {
    id,
    amountMinor: String(amountMinor),
    currency: payment.currency,
  })
  return outcome
}

async function audit(session: DashboardSession, action: string, subject: string, paymentRef: string | null, outcome: string, detail: Record<string, string>) {
  await db().auditEntry.create({ data: { siteId: session.siteId, actor: session.tokenHint, action, subject, paymentRef, outcome, detail } })
}
