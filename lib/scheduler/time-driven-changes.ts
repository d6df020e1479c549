// The scheduler of time-driven changes: the emulated mobile operator's answer and the 3-D Secure expiry
// (a WAITING payment's `dueAt`), and bill expiry (a CREATED bill's `expiresAt`). Every instance runs it;
// each change is taken with FOR UPDATE SKIP LOCKED, so it is applied once, by whichever instance gets
// it, in a short transaction of its own that also writes its notification. Nothing lives in memory: a
// change whose instance dies before commit is still due and is taken by the next pass anywhere.
// Changes are dated when they fell due, as a read at or after that time (which applies them too) sees them.
// Due times are on the site's sandbox clock (lib/sandbox/site-clock.ts): a change is due once the site's
// time has reached it, so an advance of the clock makes changes due at once (the advance runs a pass for
// its site before it answers; every instance's pass would find them anyway).
import { settings } from '../config'
import { db, withRetry } from '../db/client'
import { Prisma, type Payment } from '../generated/prisma/client'
import { settle } from '../payments/payment-lifecycle'
import { clockOf, dueOnSiteClock, siteOffset } from '../sandbox/site-clock'

/** how many bills one statement expires */
const BILL_BATCH = 100

/** a payment whose change could not be applied (its transaction rolled back) */
class SettleFailure extends Error {
  constructor(
    readonly paymentRef: string,
    readonly reason: unknown,
  ) {
    super(`payment ${paymentRef}: ${(reason as Error)?.message ?? reason}`)
  }
}

/** the changes of one site only (a clock advance's pass), or of every site */
const ofSite = (alias: string, siteId?: string) => (siteId ? Prisma.sql` AND ${Prisma.raw(`"${alias}"`)}."siteId" = ${siteId}` : Prisma.empty)

/**
 * Applies the due change of one waiting payment (at `now`, real time, on its site's clock), not one of
 * `skip`; its id, or null when none is due (or every due one is being applied elsewhere).
 */
export async function settleOneDuePayment(now: Date, skip: string[] = [], siteId?: string): Promise<string | null> {
  let taken: string | null = null
  try {
    return await withRetry(() =>
      db().$transaction(async (tx) => {
        taken = null
        // the candidates through the due-time indexes, then each on its own site's time
        const candidates = dueOnSiteClock('Payment', 'dueAt', Prisma.sql`${now}::timestamptz`, Prisma.sql`x.status = 'WAITING' AND NOT (x.id = ANY(${skip}::uuid[]))${ofSite('x', siteId)}`)
        const [row] = await tx.$queryRaw<(Payment & { siteOffsetMs: bigint })[]>`
          SELECT p.*, s."clockOffsetMs" AS "siteOffsetMs" FROM "Payment" p LEFT JOIN "Site" s ON s.id = p."siteId"
          WHERE p.id IN (${candidates}) AND p."dueAt" <= ${now}::timestamptz + ${siteOffset('s')} AND p.status = 'WAITING'
          ORDER BY p."dueAt" LIMIT 1 FOR UPDATE OF p SKIP LOCKED`
        if (!row) return null
        const { siteOffsetMs, ...p } = row
        taken = p.id
        await settle(tx, p, new Date(now.getTime() + clockOf(siteOffsetMs).offsetMs))
        return p.id
      }),
    )
  } catch (e) {
    // a change that cannot be applied, even after retries, must not hold up the ones behind it
    if (taken) throw new SettleFailure(taken, e)
    throw e
  }
}

/** Every payment change due now (of one site, or all); how many were applied. One that fails is logged and left for the next pass. */
export async function settleDuePayments(now = new Date(), siteId?: string): Promise<number> {
  const failed: string[] = []
  let applied = 0
  for (;;) {
    try {
      if (!(await settleOneDuePayment(now, failed, siteId))) return applied
      applied++
    } catch (e) {
      if (!(e instanceof SettleFailure)) throw e
      process.stderr.write(`scheduler: ${e.message}\n`)
      failed.push(e.paymentRef)
    }
  }
}

/**
 * Writes EXPIRED on the unpaid bills past their deadline, dated at the deadline; how many. A bill with a
 * payment whose change fell due before the deadline waits for that payment to be settled first (it may
 * pay the bill).
 */
export async function expireDueBills(now = new Date(), siteId?: string): Promise<number> {
  let expired = 0
  for (;;) {
    const n = await db().$executeRaw`
      UPDATE "Bill" SET status = 'EXPIRED', "statusChangedAt" = "expiresAt"
      WHERE id IN (
        SELECT b.id FROM "Bill" b LEFT JOIN "Site" s ON s.id = b."siteId"
        WHERE b.id IN (${dueOnSiteClock('Bill', 'expiresAt', Prisma.sql`${now}::timestamptz`, Prisma.sql`x.status = 'CREATED'${ofSite('x', siteId)}`)})
          AND b.status = 'CREATED' AND b."expiresAt" <= ${now}::timestamptz + ${siteOffset('s')}
          AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p."billRef" = b.id AND p.status = 'WAITING' AND p."dueAt" <= b."expiresAt")
        ORDER BY b."expiresAt" LIMIT ${BILL_BATCH} FOR UPDATE OF b SKIP LOCKED)
        AND status = 'CREATED'`
    expired += n
    if (n < BILL_BATCH) return expired
  }
}

const logError = (what: string) => (e: unknown) => {
  process.stderr.write(`scheduler: ${what}: ${(e as Error)?.message ?? e}\n`)
  return 0
}

/** One pass: every change due now, of one site or all (payments first: they may pay a bill before it expires); the number applied. */
export async function applyDueChanges(siteId?: string): Promise<number> {
  const payments = await settleDuePayments(new Date(), siteId).catch(logError('payments'))
  const bills = await expireDueBills(new Date(), siteId).catch(logError('bills'))
  return payments + bills
}

/** this instance's scheduler: a pass every SCHEDULER_POLL_MS; the returned function stops it */
export function startScheduler(pollMs = settings().schedulerPollMs): () => void {
  let stopped = false
  ;(async () => {
    while (!stopped) {
      await applyDueChanges()
      await new Promise((r) => setTimeout(r, pollMs).unref?.())
    }
  })()
  return () => {
    stopped = true
  }
}
