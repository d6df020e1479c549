// The refunds' table ("Refund"): every statement that reads or writes it, the refund's one statement (the payment's
// totals, the refund and its notification) included. The refund service decides and calls these in the transaction
// it got from siteWrite.
import { db, jsonParam, type Tx } from '../db/client'
import { Prisma, type Refund } from '../generated/prisma/client'
import { lockDue, type DueTake } from '../sandbox/site-write'

export type { Refund } from '../generated/prisma/client'

/** the site's refund by its id, or null */
export const findRefund = (tx: Tx, siteId: string, refundId: string) =>
  tx.refund.findUnique({ where: { siteId_refundId: { siteId, refundId } } })

/**
 * Writes the refund `row` in one statement with the payment's totals (`totals`: payment-store.ts refundTotalsUpdate,
 * none for a declined refund) and its notification (`notification`: its INSERT); the refund as stored.
 */
export async function insertRefund(
  tx: Tx,
  row: Refund,
  totals: Prisma.Sql | null,
  notification: Prisma.Sql | null,
): Promise<Refund> {
  const [refund] = await tx.$queryRaw<Refund[]>`
      WITH ${totals ?? Prisma.empty}
        refund AS (
          INSERT INTO "Refund" (id, "siteId", "refundId", "callbackUrl", "paymentRef", fingerprint, currency, "amountMinor", flags, status, "statusReason", "statusChangedAt", "createdAt", "dueAt", splits, cheque)
          VALUES (${row.id}::uuid, ${row.siteId}, ${row.refundId}, ${row.callbackUrl}, ${row.paymentRef}::uuid, ${row.fingerprint}, ${row.currency}, ${row.amountMinor}, ${row.flags}::text[],
                  ${row.status}, ${row.statusReason}, ${row.statusChangedAt}, ${row.createdAt}, ${row.dueAt}, ${jsonParam(row.splits)}::jsonb,
                  ${jsonParam(row.cheque)}::jsonb)
          RETURNING *)
        ${notification ? Prisma.sql`, notification AS (${notification})` : Prisma.empty}
      SELECT * FROM refund`
  return refund
}

/** the site's payment's refund, locked for the rest of the transaction (before its payment); undefined if none */
export async function lockRefundOfPayment(
  tx: Tx,
  siteId: string,
  paymentId: string,
  refundId: string,
): Promise<Refund | undefined> {
  const [row] = await tx.$queryRaw<Refund[]>`
    SELECT r.* FROM "Refund" r JOIN "Payment" p ON p.id = r."paymentRef"
    WHERE p."siteId" = ${siteId} AND p."paymentId" = ${paymentId} AND r."siteId" = ${siteId} AND r."refundId" = ${refundId}
    FOR UPDATE OF r`
  return row
}

/** a refund by its internal id, locked for the rest of the transaction */
export async function lockRefundById(tx: Tx, id: string): Promise<Refund | undefined> {
  const [row] = await tx.$queryRaw<Refund[]>`SELECT * FROM "Refund" WHERE id = ${id}::uuid FOR UPDATE`
  return row
}

/** a postponed refund made final: COMPLETED (processed) or DECLINED with its reason, at `at`; the row as stored */
export const finishRefund = (tx: Tx, id: string, status: 'COMPLETED' | 'DECLINED', reason: string | null, at: Date) =>
  tx.refund.update({ where: { id }, data: { status, statusReason: reason, statusChangedAt: at, dueAt: null } })

/**
 * Locks the WAITING refunds due first (a batch, as `take` says), with their sites' offsets, behind their sites' gates
 * (as lib/sandbox/site-write.ts lockDue says).
 */
export const lockDueRefunds = (tx: Tx, now: Date, take: DueTake, siteId?: string) =>
  lockDue<Refund>(tx, {
    table: 'Refund',
    column: 'dueAt',
    where: Prisma.sql`x.status = 'WAITING'`,
    now,
    take,
    siteId,
  })

/**
 * the `refundSplits` of the payment's refunds that count against its splits (COMPLETED, and postponed ones still
 * WAITING), oldest first; read in the refund's transaction, its payment locked
 */
export async function splitsRefunded<S>(tx: Tx, paymentRef: string): Promise<S[][]> {
  const rows = await tx.$queryRaw<{ splits: S[] }[]>`
    SELECT splits FROM "Refund" WHERE "paymentRef" = ${paymentRef}::uuid AND status IN ('COMPLETED', 'WAITING')
      AND splits IS NOT NULL ORDER BY "createdAt", id`
  return rows.map((r) => r.splits)
}

/** the site's refund of the site's payment, or null */
export const refundOfPayment = (siteId: string, paymentId: string, refundId: string) =>
  db().refund.findFirst({ where: { siteId, refundId, payment: { paymentId } } })

/** the site's payment's refunds, oldest first (by id within a time); null when there is no such payment */
export async function refundsOfPaymentId(siteId: string, paymentId: string): Promise<Refund[] | null> {
  const p = await db().payment.findUnique({
    where: { siteId_paymentId: { siteId, paymentId } },
    select: { refunds: { orderBy: [{ createdAt: 'asc' }, { refundId: 'asc' }] } },
  })
  return p ? p.refunds : null
}

/** the payment's refunds (by its internal id), oldest first */
export const refundsOfPayment = (paymentRef: string) =>
  db().refund.findMany({ where: { paymentRef }, orderBy: { createdAt: 'asc' } })

/** A sandbox reset's statement for this table: the site's refunds deleted; how many. */
export const deleteSiteData = (tx: Tx, siteId: string): Promise<number> =>
  tx.$executeRaw`DELETE FROM "Refund" WHERE "siteId" = ${siteId}`
