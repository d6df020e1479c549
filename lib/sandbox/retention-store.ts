// The statements of a site's retention sweep (lib/sandbox/retention-sweep.ts): which of its old bills are finished,
// locked, and which notifications and audit entries go alone. What hangs on a bill is deleted by the sandbox reset's
// batch (lib/sandbox/sandbox-reset.ts deleteBatch). Every statement names the site.
import { Prisma } from '../generated/prisma/client'
import type { PlacedRow } from './reset-store'
import type { Tx } from './site-write'

/** the time limits of one sweep of a site */
export interface Horizon {
  siteId: string
  /** the site's time now (its clock) */
  siteNow: Date
  /** what is older than this on the site's clock may go */
  cutoff: Date
  /** the same age on real time, for what is dated on real time (the dashboard's audit entries) */
  realCutoff: Date
}

/**
 * The condition that the bill `b` is finished and older than the horizon, with every payment on it: the bill created
 * and changed before the cutoff and not open (CREATED before its deadline), and no payment of it that a merchant may
 * still act on or hear of — WAITING, changed or created since the cutoff, with something to refund (captured less
 * refunded, an open hold, a postponed refund), a capture or refund WAITING or changed since the cutoff, a
 * notification still PENDING (its own, its captures', its refunds'), a payment token it issued (the token's charges
 * need it), a recurrent series not yet expired or with a charge on another bill (the charges read their first
 * payment). The refundable amount is lib/payments/payment-rules.ts refundableMinor's, in SQL.
 */
function finished(h: Horizon): Prisma.Sql {
  const today = h.siteNow.toISOString().slice(0, 10)
  return Prisma.sql`b."createdAt" < ${h.cutoff} AND b."statusChangedAt" < ${h.cutoff}
    AND NOT (b.status = 'CREATED' AND b."expiresAt" > ${h.siteNow})
    AND NOT EXISTS (
      SELECT 1 FROM "Payment" p WHERE p."billRef" = b.id AND p."siteId" = ${h.siteId} AND (
        p.status = 'WAITING' OR p."createdAt" >= ${h.cutoff} OR p."statusChangedAt" >= ${h.cutoff}
        OR p."pendingRefundMinor" > 0 OR p."holdDueAt" IS NOT NULL
        OR (p.status = 'COMPLETED' AND NOT p.reversed AND (CASE
              WHEN NOT ('SALE' = ANY(p.flags)) AND p."capturedMinor" = 0 THEN p."amountMinor" - p."reversedMinor"
              ELSE p."capturedMinor" - (p."refundedMinor" - p."reversedMinor") END) > 0)
        OR (p."recurrentExpiry" IS NOT NULL AND p."recurrentExpiry" >= ${today})
        OR EXISTS (SELECT 1 FROM "PaymentToken" t WHERE t."paymentRef" = p.id)
        OR EXISTS (SELECT 1 FROM "Payment" ch
                   WHERE ch."seriesRef" = p.id AND ch."siteId" = ${h.siteId} AND ch."billRef" <> b.id)
        OR EXISTS (SELECT 1 FROM "Capture" c
                   WHERE c."paymentRef" = p.id AND (c.status = 'WAITING' OR c."statusChangedAt" >= ${h.cutoff}))
        OR EXISTS (SELECT 1 FROM "Refund" r
                   WHERE r."paymentRef" = p.id AND (r.status = 'WAITING' OR r."statusChangedAt" >= ${h.cutoff}))
        OR EXISTS (SELECT 1 FROM "Notification" n
                   WHERE n."siteId" = ${h.siteId} AND n.state = 'PENDING' AND (n."resourceRef" = p.id
                     OR n."resourceRef" IN (SELECT c.id FROM "Capture" c WHERE c."paymentRef" = p.id)
                     OR n."resourceRef" IN (SELECT r.id FROM "Refund" r WHERE r."paymentRef" = p.id)))))`
}

/** a place in the bills' order of creation: after this bill */
export interface BillPlace {
  createdAt: Date
  id: string
}

/**
 * The site's next `limit` bills created before the cutoff, after `from` in the order of creation (the index on
 * ("siteId", "createdAt", id)): what one batch looks at, finished or not
 */
export async function billsToLookAt(tx: Tx, h: Horizon, from: BillPlace | null, limit: number): Promise<BillPlace[]> {
  const after = from ? Prisma.sql` AND (b."createdAt", b.id) > (${from.createdAt}, ${from.id}::uuid)` : Prisma.empty
  return tx.$queryRaw<BillPlace[]>`
    SELECT b."createdAt", b.id::text AS id FROM "Bill" b
    WHERE b."siteId" = ${h.siteId} AND b."createdAt" < ${h.cutoff}${after}
    ORDER BY b."createdAt", b.id LIMIT ${limit}`
}

/**
 * Of these bills, the finished ones (finished), locked: those a write holds are passed over (the next sweep looks at
 * them again). Then their payments are locked, which a capture or a refund locks first, and the bills are judged again
 * in a statement of their own (READ COMMITTED: a new snapshot, taken once no write of them can be under way): the bills
 * to delete, each with its place in its table (which holds while they are locked).
 */
export async function lockFinishedBills(tx: Tx, h: Horizon, billRefs: string[]): Promise<PlacedRow[]> {
  if (!billRefs.length) return []
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT b.id::text AS id FROM "Bill" b
    WHERE b."siteId" = ${h.siteId} AND b.id = ANY(${billRefs}::uuid[]) AND ${finished(h)}
    FOR UPDATE OF b SKIP LOCKED`
  if (!locked.length) return []
  const ids = locked.map((r) => r.id)
  await tx.$queryRaw`SELECT id FROM "Payment" WHERE "siteId" = ${h.siteId} AND "billRef" = ANY(${ids}::uuid[]) FOR UPDATE`
  return tx.$queryRaw<PlacedRow[]>`
    SELECT b.id::text AS id, b.ctid::text AS at FROM "Bill" b
    WHERE b."siteId" = ${h.siteId} AND b.id = ANY(${ids}::uuid[]) AND ${finished(h)}`
}

/**
 * The site's notifications created before the cutoff that were delivered or failed for good, at most `limit`, with
 * their attempts, deleted whatever became of their resources (a PENDING one stays: it is still being delivered);
 * how many.
 */
export async function deleteOldNotifications(tx: Tx, h: Horizon, limit: number): Promise<number> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT n.id::text AS id FROM "Notification" n
    WHERE n."siteId" = ${h.siteId} AND n."createdAt" < ${h.cutoff} AND n.state IN ('DELIVERED', 'FAILED')
    ORDER BY n."createdAt", n.id LIMIT ${limit} FOR UPDATE SKIP LOCKED`
  if (!rows.length) return 0
  const ids = rows.map((r) => r.id)
  await tx.$executeRaw`
    DELETE FROM "NotificationAttempt" a USING "Notification" n
    WHERE a."notificationRef" = n.id AND n."siteId" = ${h.siteId} AND n.id = ANY(${ids}::uuid[])`
  return tx.$executeRaw`DELETE FROM "Notification" WHERE "siteId" = ${h.siteId} AND id = ANY(${ids}::uuid[])`
}

/**
 * The site's audit entries of these (data) actions dated before the real-time cutoff, at most `limit`, deleted (the
 * entries of its settings stay, as in a reset); how many.
 */
export async function deleteOldAuditEntries(tx: Tx, h: Horizon, actions: string[], limit: number): Promise<number> {
  return tx.$executeRaw`
    DELETE FROM "AuditEntry" WHERE "siteId" = ${h.siteId} AND id IN (
      SELECT id FROM "AuditEntry"
      WHERE "siteId" = ${h.siteId} AND action = ANY(${actions}::text[]) AND at < ${h.realCutoff} LIMIT ${limit})`
}
