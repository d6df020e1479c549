// A sandbox reset (POST …/sandbox/reset): the site's payments, bills, captures, refunds, payment tokens
// (issued by its payments) and notifications with their attempts, the dashboard's audit entries about
// them, and its clock's offset, all in one transaction. Its tokens, its notification URL and secret,
// and the audit of its settings stay.
import { db, withRetry } from '../db/client'

export interface ResetCounts {
  payments: number
  bills: number
  captures: number
  refunds: number
  notifications: number
}

/** the audit entries about the data a reset deletes (lib/dashboard/dashboard-actions.ts, dashboard-bills.ts, notification resends) */
const DATA_ACTIONS = ['capture', 'refund', 'bill', 'resend']

export async function resetSandbox(siteId: string): Promise<ResetCounts> {
  return withRetry(() =>
    db().$transaction(async (tx) => {
      // the site's row first (a concurrent reset waits), then its bills: a payment being written on one
      // of them finishes before its bill is deleted, and one that starts after finds no bill
      await tx.$queryRaw`SELECT id FROM "Site" WHERE id = ${siteId} FOR UPDATE`
      await tx.$queryRaw`SELECT id FROM "Bill" WHERE "siteId" = ${siteId} FOR UPDATE`
      await tx.$executeRaw`DELETE FROM "NotificationAttempt" a USING "Notification" n WHERE a."notificationRef" = n.id AND n."siteId" = ${siteId}`
      const notifications = await tx.$executeRaw`DELETE FROM "Notification" WHERE "siteId" = ${siteId}`
      const captures = await tx.$executeRaw`DELETE FROM "Capture" WHERE "siteId" = ${siteId}`
      const refunds = await tx.$executeRaw`DELETE FROM "Refund" WHERE "siteId" = ${siteId}`
      await tx.$executeRaw`DELETE FROM "PaymentToken" WHERE "siteId" = ${siteId}`
      const payments = await tx.$executeRaw`DELETE FROM "Payment" WHERE "siteId" = ${siteId}`
      // a payment (and its implicit bill) made while the reset ran is not the reset's to delete
      const bills = await tx.$executeRaw`DELETE FROM "Bill" b WHERE b."siteId" = ${siteId} AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p."billRef" = b.id)`
      await tx.$executeRaw`DELETE FROM "AuditEntry" WHERE "siteId" = ${siteId} AND action = ANY(${DATA_ACTIONS}::text[])`
      await tx.$executeRaw`UPDATE "Site" SET "clockOffsetMs" = 0 WHERE id = ${siteId}`
      return { payments, bills, captures, refunds, notifications }
    }),
  )
}
