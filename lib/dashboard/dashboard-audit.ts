// The dashboard's audit log: who (the session's token hint) did what to which subject, how it ended and
// when. Payment actions are shown on the payment's page; settings actions on the settings page.
import { db, type Tx } from '../db/client'
import type { DashboardSession } from './dashboard-session'

export type AuditRecord = {
  action: string
  /** what was acted on: a payment id, a bill id, a token's hint, "notification URL", … */
  subject: string
  /** the payment's row, for actions shown on its page */
  paymentRef?: string | null
  outcome: string
  detail?: Record<string, string>
}

/** writes the entry; with `tx`, in that transaction (so the entry and what it records stand or fall together) */
export async function recordAudit(session: DashboardSession, r: AuditRecord, tx: Tx = db()): Promise<void> {
  await tx.auditEntry.create({
    data: { siteId: session.siteId, actor: session.tokenHint, action: r.action, subject: r.subject, paymentRef: r.paymentRef ?? null, outcome: r.outcome, detail: r.detail ?? {} },
  })
}
