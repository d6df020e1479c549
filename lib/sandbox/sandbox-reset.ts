// A sandbox reset (POST …/sandbox/reset): the site's payments, bills, captures, refunds, payment tokens
// (issued by its payments) and notifications with their attempts, the dashboard's audit entries about
// them, and its clock's offset, all in one transaction. Its tokens, its notification URL and secret,
// and the audit of its settings stay.
//
// Concurrent writes of the site (a payment, a capture, a token, a delivery's attempt) are either wholly
// deleted or wholly kept: the reset reads one snapshot (REPEATABLE READ), so a payment committed after it
// began stays with its notification, and one it tries to delete that a write touched since (a capture
// added, its row updated) makes it fail with a serialization error (or, for a row it cannot see that
// refers to one it deletes, a foreign key violation) and start again from the beginning.
import { db, isRetryable } from '../db/client'
import { Prisma } from '../generated/prisma/client'

export interface ResetCounts {
  payments: number
  bills: number
  captures: number
  refunds: number
  notifications: number
}

/** the audit entries about the data a reset deletes (lib/dashboard/dashboard-actions.ts, dashboard-bills.ts, notification resends) */
const DATA_ACTIONS = ['capture', 'refund', 'bill', 'resend']

/** a reset that lost a race to a concurrent write of the site: started again, up to this many times */
const ATTEMPTS = 10

/** a row committed after the reset's snapshot refers to one it deletes (a capture of a payment, an attempt of a notification) */
const isForeignKeyViolation = (e: unknown) =>
  (e as { code?: string })?.code === 'P2003' || /foreign key constraint|violates foreign key/i.test(String((e as Error)?.message ?? ''))

export async function resetSandbox(siteId: string): Promise<ResetCounts> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await resetOnce(siteId)
    } catch (e) {
      if (attempt >= ATTEMPTS || !(isRetryable(e) || isForeignKeyViolation(e))) throw e
    }
  }
}

function resetOnce(siteId: string): Promise<ResetCounts> {
  return db().$transaction(
    async (tx) => {
      // the site's row first (a concurrent reset waits), then its bills: a payment being written on one
      // of them finishes before the reset goes on (and one committed since its snapshot makes it start
      // again), and one that starts after waits for the reset and finds no bill
      await tx.$queryRaw`SELECT id FROM "Site" WHERE id = ${siteId} FOR UPDATE`
      await tx.$queryRaw`SELECT id FROM "Bill" WHERE "siteId" = ${siteId} FOR UPDATE`
      await tx.$executeRaw`DELETE FROM "NotificationAttempt" a USING "Notification" n WHERE a."notificationRef" = n.id AND n."siteId" = ${siteId}`
      const notifications = await tx.$executeRaw`DELETE FROM "Notification" WHERE "siteId" = ${siteId}`
      const captures = await tx.$executeRaw`DELETE FROM "Capture" WHERE "siteId" = ${siteId}`
      const refunds = await tx.$executeRaw`DELETE FROM "Refund" WHERE "siteId" = ${siteId}`
      await tx.$executeRaw`DELETE FROM "PaymentToken" WHERE "siteId" = ${siteId}`
      const payments = await tx.$executeRaw`DELETE FROM "Payment" WHERE "siteId" = ${siteId}`
      // a payment (and its implicit bill) committed after the snapshot is not the reset's to delete
      const bills = await tx.$executeRaw`DELETE FROM "Bill" b WHERE b."siteId" = ${siteId} AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p."billRef" = b.id)`
      await tx.$executeRaw`DELETE FROM "AuditEntry" WHERE "siteId" = ${siteId} AND action = ANY(${DATA_ACTIONS}::text[])`
      await tx.$executeRaw`UPDATE "Site" SET "clockOffsetMs" = 0 WHERE id = ${siteId}`
      return { payments, bills, captures, refunds, notifications }
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
  )
}
