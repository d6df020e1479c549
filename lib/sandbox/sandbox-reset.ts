// A sandbox reset (POST …/sandbox/reset): the site's payments, bills, captures, refunds, payment tokens
// (issued by its payments) and notifications with their attempts, the dashboard's audit entries about
// them, and its clock's offset, all in one transaction. Its tokens, its notification URL and secret,
// and the audit of its settings stay.
//
// Concurrent writes of the site (a payment, a capture, a refund, a completion, a due change, a bill, a
// delivery's attempt) are either wholly deleted or wholly kept, and none is dated on the clock the reset
// took away: every such write runs behind the site's gate (lib/sandbox/site-write.ts siteWrite), which
// the reset takes exclusively first of all. It waits for the writes under way, then deletes at READ
// COMMITTED (each statement sees all of them), and a write that starts meanwhile waits for the reset (the
// gate's queue is fair: the reset is not kept out by writes that start after it asked), then runs on the
// clock it left, finding the data it deleted gone (a capture of a deleted payment is 404). The scheduler
// passes over a site being reset. What is left to race is a deadlock with a write outside the gate that
// PostgreSQL breaks (or a foreign key such a write broke): the reset starts again, after a short pause.
import { setTimeout as sleep } from 'node:timers/promises'
import { isRetryable } from '../db/client'
import { serviceUnavailable } from '../http/api-error'
import { CLOCK_MOVE_LOCK_WAIT, isLockTimeout, siteClockMove } from './site-write'

export interface ResetCounts {
  payments: number
  bills: number
  captures: number
  refunds: number
  notifications: number
}

/**
 * the audit entries about the data a reset deletes (lib/dashboard/dashboard-actions.ts, dashboard-bills.ts,
 * notification resends)
 */
const DATA_ACTIONS = ['capture', 'refund', 'bill', 'resend']

/** a reset that lost a race to a concurrent write of the site: started again, up to this many times */
const ATTEMPTS = 10

/** a row a write committed refers to one the reset deletes (a write outside the rules above) */
const isForeignKeyViolation = (e: unknown) =>
  (e as { code?: string })?.code === 'P2003' ||
  /foreign key constraint|violates foreign key/i.test(String((e as Error)?.message ?? ''))

// A reset that waited for the site's gate in vain (lib/sandbox/site-write.ts CLOCK_MOVE_LOCK_WAIT) lets the
// site run for a moment and asks again; at the last a 503 says nothing was deleted (not a 500, nor a request
// that hangs for as long as the write does). The writes queued behind it meanwhile go on.

export async function resetSandbox(siteId: string): Promise<ResetCounts> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await resetOnce(siteId)
    } catch (e) {
      const lockTimeout = isLockTimeout(e)
      if (!(lockTimeout || isRetryable(e) || isForeignKeyViolation(e))) throw e
      if (attempt >= (lockTimeout ? 3 : ATTEMPTS))
        throw serviceUnavailable(
          "The site's writes kept the reset waiting; nothing was deleted: try again when they pause",
        )
      await sleep(Math.random() * 20 * attempt)
    }
  }
}

function resetOnce(siteId: string): Promise<ResetCounts> {
  // the site's gate first: the writes of the site under way finish, those that start wait (and a
  // concurrent reset or clock advance too); then its bills, which the scheduler's expiry passes over from now on
  return siteClockMove(
    siteId,
    async (tx) => {
      await tx.$queryRaw`SELECT id FROM "Bill" WHERE "siteId" = ${siteId} FOR UPDATE`
      await tx.$executeRaw`DELETE FROM "NotificationAttempt" a USING "Notification" n WHERE a."notificationRef" = n.id AND n."siteId" = ${siteId}`
      const notifications = await tx.$executeRaw`DELETE FROM "Notification" WHERE "siteId" = ${siteId}`
      const captures = await tx.$executeRaw`DELETE FROM "Capture" WHERE "siteId" = ${siteId}`
      const refunds = await tx.$executeRaw`DELETE FROM "Refund" WHERE "siteId" = ${siteId}`
      await tx.$executeRaw`DELETE FROM "PaymentToken" WHERE "siteId" = ${siteId}`
      const payments = await tx.$executeRaw`DELETE FROM "Payment" WHERE "siteId" = ${siteId}`
      const bills = await tx.$executeRaw`DELETE FROM "Bill" WHERE "siteId" = ${siteId}`
      await tx.$executeRaw`DELETE FROM "AuditEntry" WHERE "siteId" = ${siteId} AND action = ANY(${DATA_ACTIONS}::text[])`
      await tx.$executeRaw`UPDATE "Site" SET "clockOffsetMs" = 0 WHERE id = ${siteId}`
      return { payments, bills, captures, refunds, notifications }
    },
    { lockWait: CLOCK_MOVE_LOCK_WAIT },
  )
}
