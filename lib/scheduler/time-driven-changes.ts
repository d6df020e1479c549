// The scheduler of time-driven changes: the emulated mobile operator's answer and the 3-D Secure expiry
// (a WAITING payment's `dueAt`), and bill expiry (a CREATED bill's `expiresAt`). Every instance runs it;
// each pass takes the due rows with FOR UPDATE SKIP LOCKED, so each change is applied once, by
// whichever instance gets it, in the transaction that writes its notification. Nothing lives in memory:
// a change whose instance dies before commit is still due and is taken by the next pass anywhere.
// Changes are dated when they fell due, as a read at or after that time (which applies them too) sees them.
import { settings } from '../config'
import { db, withRetry } from '../db/client'
import type { Payment } from '../generated/prisma/client'
import { settle } from '../payments/payment-lifecycle'

/** how many rows one transaction takes */
const BATCH = 50

/** Applies the due changes of up to BATCH waiting payments; how many were taken. */
export async function settleDuePayments(now = new Date()): Promise<number> {
  return withRetry(() =>
    db().$transaction(async (tx) => {
      const due = await tx.$queryRaw<Payment[]>`
        SELECT * FROM "Payment" WHERE "dueAt" <= ${now} AND status = 'WAITING'
        ORDER BY "dueAt" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`
      for (const p of due) await settle(tx, p, now)
      return due.length
    }),
  )
}

/**
 * Writes EXPIRED on up to BATCH unpaid bills past their deadline, dated at the deadline. A bill with a
 * payment whose change fell due before the deadline waits for that payment to be settled first (it may
 * pay the bill).
 */
export async function expireDueBills(now = new Date()): Promise<number> {
  return db().$executeRaw`
    UPDATE "Bill" SET status = 'EXPIRED', "statusChangedAt" = "expiresAt"
    WHERE id IN (
      SELECT b.id FROM "Bill" b
      WHERE b.status = 'CREATED' AND b."expiresAt" <= ${now}
        AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p."billRef" = b.id AND p.status = 'WAITING' AND p."dueAt" <= b."expiresAt")
      ORDER BY b."expiresAt" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
      AND status = 'CREATED'`
}

/** One pass: every change due now; the number applied. */
export async function applyDueChanges(): Promise<number> {
  let applied = 0
  for (let n; (n = await settleDuePayments()) > 0; ) applied += n
  for (let n; (n = await expireDueBills()) > 0; ) applied += n
  return applied
}

/** this instance's scheduler: a pass every SCHEDULER_POLL_MS; the returned function stops it */
export function startScheduler(pollMs = settings().schedulerPollMs): () => void {
  let stopped = false
  ;(async () => {
    while (!stopped) {
      try {
        await applyDueChanges()
      } catch (e) {
        process.stderr.write(`scheduler: ${(e as Error)?.message ?? e}\n`)
      }
      await new Promise((r) => setTimeout(r, pollMs).unref?.())
    }
  })()
  return () => {
    stopped = true
  }
}
