// The statements of a sandbox reset's batches (lib/sandbox/sandbox-reset.ts): the next rows of a part of the site,
// locked, and each batch's deletion, all that hangs on its rows in one statement. Every statement names the site or
// rows of it.
//
// The next rows are taken in the order they lie in their table (a TID range scan from where the last batch ended):
// a look from the start would pass, batch after batch, the dead rows the batches before left there (a million
// bills: a thousand looks over up to a million dead rows), and a batch's rows are neighbours, so it writes few pages.
// The place is only a hint: the reset looks from the start again before it takes a part for done.
//
// A batch is one statement of data-modifying WITH parts: they share one snapshot, taken once the batch's rows are
// locked, and the foreign keys are checked at its end, when the rows that referred to a deleted one are gone too.
// One statement instead of a dozen: at a million payments the round trips and the per-statement work were about a
// fifth of the reset's time (issue 32).
import { Prisma } from '../generated/prisma/client'
import type { Tx } from './site-write'

/** where in its table a row lies, '(page,item)': a batch's last, the next look's start */
export type TablePlace = string

/**
 * the parts of a site a reset takes a batch at a time: its bills, card verifications, QR codes never paid, and audit
 * entries of the data (`actions`) about no payment kept (their payment gone, or none)
 */
export type BatchPart = 'bills' | 'cardChecks' | 'unpaidQrCodes' | 'auditLeft'

const PART_ROWS: Record<BatchPart, { table: string; where: (actions: string[]) => Prisma.Sql }> = {
  bills: { table: 'Bill', where: () => Prisma.empty },
  cardChecks: { table: 'CardCheck', where: () => Prisma.empty },
  unpaidQrCodes: { table: 'SbpQrCode', where: () => Prisma.sql` AND x."paymentRef" IS NULL` },
  auditLeft: {
    table: 'AuditEntry',
    where: (actions) => Prisma.sql` AND x.action = ANY(${actions}::text[])
      AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p.id = x."paymentRef")`,
  },
}

/** a row a batch may delete: its id and place */
export interface PlacedRow {
  id: string
  at: TablePlace
}

/** the latest place of these rows (null: none) */
export const lastPlace = (rows: PlacedRow[]): TablePlace | null =>
  rows.length ? rows.map((r) => r.at).reduce(later) : null

/** the later of two places */
function later(a: TablePlace, b: TablePlace): TablePlace {
  const [pa, ia] = a.slice(1, -1).split(',').map(Number)
  const [pb, ib] = b.slice(1, -1).split(',').map(Number)
  return pa > pb || (pa === pb && ia > ib) ? a : b
}

/**
 * The site's next rows of `part`, at most `limit`, locked (FOR UPDATE: the scheduler's expiries of bills and QR
 * codes, which take rows SKIP LOCKED, pass over them): those after `after` in their table, or from its start
 */
export async function lockNextRows(
  tx: Tx,
  q: { part: BatchPart; siteId: string; limit: number; after: TablePlace | null; actions: string[] },
): Promise<PlacedRow[]> {
  const { table, where } = PART_ROWS[q.part]
  return tx.$queryRaw<PlacedRow[]>`
    SELECT x.id::text AS id, x.ctid::text AS at FROM ${Prisma.raw(`"${table}"`)} x
    WHERE x."siteId" = ${q.siteId}${q.after ? Prisma.sql` AND x.ctid > ${q.after}::tid` : Prisma.empty}${where(q.actions)}
    LIMIT ${q.limit} FOR UPDATE OF x`
}

/** the counts a batch of bills answers */
export interface BillBatchCounts {
  payments: number
  bills: number
  captures: number
  refunds: number
  notifications: number
}

/**
 * These bills of the site (locked by the caller, so their places hold) deleted, with their payments and all that
 * refers to those: captures, refunds, the site's notifications of the payments, captures and refunds with their
 * attempts, payment tokens the payments issued, QR codes they paid with the FPS tokens bound, and the site's audit
 * entries of `actions` about the payments
 */
export async function deleteBillsWhole(
  tx: Tx,
  siteId: string,
  bills: PlacedRow[],
  actions: string[],
): Promise<BillBatchCounts> {
  const ids = bills.map((b) => b.id)
  const places = bills.map((b) => b.at)
  // The payments, bills and notifications, the most rows, are deleted by their places (a TID scan) rather than found
  // again by id, a descent of the primary key's index per row: a third of a batch's time at a million payments. The
  // payments and notifications are locked as they are found, which keeps their places until the transaction ends.
  // A notification updated after the statement began (the delivery worker's claim runs outside the site's gate) is
  // locked in its latest version, which the statement's snapshot cannot see, so the delete by place misses it: the
  // statement answers those (`missed`), deleted by id in a statement of its own. Payments have no such writer (every
  // write of one takes the site's gate); one missed would keep its bill, and the bill's foreign key fails the batch.
  const [row] = await tx.$queryRaw<(BillBatchCounts & { missed: string[] })[]>`
    WITH p AS MATERIALIZED (SELECT id, ctid FROM "Payment" WHERE "billRef" = ANY(${ids}::uuid[]) FOR UPDATE),
      c AS (DELETE FROM "Capture" WHERE "paymentRef" = ANY(ARRAY(SELECT id FROM p)) RETURNING id),
      r AS (DELETE FROM "Refund" WHERE "paymentRef" = ANY(ARRAY(SELECT id FROM p)) RETURNING id),
      n AS MATERIALIZED (SELECT id, ctid FROM "Notification" WHERE "siteId" = ${siteId}
        AND "resourceRef" = ANY(ARRAY(SELECT id FROM p UNION ALL SELECT id FROM c UNION ALL SELECT id FROM r))
        FOR UPDATE),
      na AS (DELETE FROM "NotificationAttempt" WHERE "notificationRef" = ANY(ARRAY(SELECT id FROM n))),
      nd AS (DELETE FROM "Notification" WHERE ctid = ANY(ARRAY(SELECT ctid FROM n)) RETURNING id),
      t AS (DELETE FROM "PaymentToken" WHERE "paymentRef" = ANY(ARRAY(SELECT id FROM p))),
      q AS (DELETE FROM "SbpQrCode" WHERE "paymentRef" = ANY(ARRAY(SELECT id FROM p)) RETURNING id),
      qt AS (DELETE FROM "SbpToken" WHERE "qrRef" = ANY(ARRAY(SELECT id FROM q))),
      a AS (DELETE FROM "AuditEntry" WHERE "siteId" = ${siteId} AND "paymentRef" = ANY(ARRAY(SELECT id FROM p))
        AND action = ANY(${actions}::text[])),
      pd AS (DELETE FROM "Payment" WHERE ctid = ANY(ARRAY(SELECT ctid FROM p)) RETURNING 1),
      bd AS (DELETE FROM "Bill" WHERE ctid = ANY(${places}::tid[]) AND id = ANY(${ids}::uuid[]) RETURNING 1)
    SELECT (SELECT count(*) FROM pd)::int AS payments, (SELECT count(*) FROM bd)::int AS bills,
      (SELECT count(*) FROM c)::int AS captures, (SELECT count(*) FROM r)::int AS refunds,
      (SELECT count(*) FROM nd)::int AS notifications,
      ARRAY(SELECT id::text FROM n EXCEPT SELECT id::text FROM nd) AS missed`
  const { missed, ...counts } = row
  if (missed.length)
    counts.notifications += await tx.$executeRaw`
      DELETE FROM "Notification" WHERE "siteId" = ${siteId} AND id = ANY(${missed}::uuid[])`
  return counts
}

/** these card verifications of the site deleted, with the tokens they issued and their notifications (how many) */
export async function deleteChecksWhole(tx: Tx, siteId: string, checks: string[]): Promise<number> {
  const [row] = await tx.$queryRaw<{ notifications: number }[]>`
    WITH n AS MATERIALIZED (SELECT id FROM "Notification" WHERE "siteId" = ${siteId}
        AND "resourceRef" = ANY(${checks}::uuid[])),
      na AS (DELETE FROM "NotificationAttempt" WHERE "notificationRef" = ANY(ARRAY(SELECT id FROM n))),
      nd AS (DELETE FROM "Notification" WHERE id = ANY(ARRAY(SELECT id FROM n)) RETURNING 1),
      t AS (DELETE FROM "PaymentToken" WHERE "checkRef" = ANY(${checks}::uuid[])),
      cd AS (DELETE FROM "CardCheck" WHERE id = ANY(${checks}::uuid[]))
    SELECT (SELECT count(*) FROM nd)::int AS notifications`
  return row.notifications
}

/** these QR codes deleted, with the FPS tokens they bound */
export async function deleteQrCodesWhole(tx: Tx, codes: string[]): Promise<void> {
  await tx.$executeRaw`
    WITH t AS (DELETE FROM "SbpToken" WHERE "qrRef" = ANY(${codes}::uuid[]))
    DELETE FROM "SbpQrCode" WHERE id = ANY(${codes}::uuid[])`
}

/** these audit entries deleted */
export async function deleteAuditEntries(tx: Tx, entries: string[]): Promise<void> {
  await tx.$executeRaw`DELETE FROM "AuditEntry" WHERE id = ANY(${entries}::uuid[])`
}
