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
    data: {
      siteId: session.siteId,
      actor: session.tokenHint,
      action: r.action,
      subject: r.subject,
      paymentRef: r.paymentRef ?? null,
      outcome: r.outcome,
      detail: r.detail ?? {},
    },
  })
}

/**
 * A URL as the audit log may keep it: any user name or password taken out (`https://…@shop.example/`),
 * parsed as browsers parse it (a password may hold an `@`); what does not parse as a URL is not kept.
 */
export function auditableUrl(input: string): string {
  try {
    const url = new URL(input.trim())
    if (!url.host) return '(not a URL)'
    const hadCredentials = url.username !== '' || url.password !== ''
    url.username = ''
    url.password = ''
    const shown = url.toString()
    return (hadCredentials ? shown.replace('://', '://…@') : shown).slice(0, 300)
  } catch {
    return '(not a URL)'
  }
}
