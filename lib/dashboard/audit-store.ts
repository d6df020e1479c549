// The dashboard's audit log: the one module of the AuditEntry table (its entries written with what they
// record, read by the dashboard's pages, the data ones deleted by a sandbox reset).
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

/** the site's latest `take` entries of the site's own (no payment's) of these actions, newest first */
export async function latestSiteAudit(siteId: string, actions: string[], take: number) {
  return db().auditEntry.findMany({
    where: { siteId, paymentRef: null, action: { in: actions } },
    orderBy: { at: 'desc' },
    take,
    select: { at: true, actor: true, action: true, subject: true, outcome: true, detail: true },
  })
}

/** the site's entries of one action on one subject (a bill id, a notification's id), oldest first */
export async function auditOf(siteId: string, action: string, subject: string) {
  return db().auditEntry.findMany({
    where: { siteId, action, subject },
    orderBy: { at: 'asc' },
  })
}

/** the site's entries of a bill, oldest first (what the bill's page shows of each) */
export async function billAudit(siteId: string, billId: string) {
  return db().auditEntry.findMany({
    where: { siteId, action: 'bill', subject: billId },
    orderBy: { at: 'asc' },
    select: { at: true, actor: true, action: true, outcome: true },
  })
}

/** the entries of the site's payment (of row `paymentRef`), oldest first */
export async function paymentAudit(siteId: string, paymentRef: string) {
  return db().auditEntry.findMany({ where: { siteId, paymentRef }, orderBy: { at: 'asc' } })
}

/** a sandbox reset's part here: the site's entries of these (data) actions (the statement the reset makes) */
export async function deleteSiteData(tx: Tx, siteId: string, actions: string[]): Promise<void> {
  await tx.$executeRaw`DELETE FROM "AuditEntry" WHERE "siteId" = ${siteId} AND action = ANY(${actions}::text[])`
}
