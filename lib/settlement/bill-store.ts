// The Bill table's one module: a bill created (by one statement, or behind the site's gate), read alone, with
// its site's clock offset or with its payments, locked and settled by the payment written on it, expired by the
// scheduler, deleted by a sandbox reset. Here, below bills and payments (lib/settlement/), since payments reach
// their bill through it; the rules (deadlines, states, idempotency) stay with the services.
import { db, jsonParam, withRetry, type Tx } from '../db/client'
import { Prisma, type Bill, type Payment } from '../generated/prisma/client'
import { gateIsOpen, gateOpenFor, statementGate, stillOnClock } from '../sandbox/site-write'
import type { SiteClock } from '../sandbox/site-clock'

export type { Bill, Payment }
/** the transaction of a write of the site (lib/sandbox/site-write.ts siteWrite) its statements run in */
export type { Tx }
// a creation that lost a race to another (a unique key taken, a serialization failure) is made again
export { withRetry }
/** a JSON column's value as read */
export type JsonValue = Prisma.JsonValue

/** what a new bill's row holds beside its ids, times and state */
export interface NewBill {
  fingerprint: string
  currency: string
  amountMinor: number | bigint | null
  comment: string | null
  flags: string[]
  /** the methods its payment page may offer; empty: all */
  paymentMethods: string[]
  successUrl: string | null
  failedUrl: string | null
  customer: unknown
  recurrent: unknown
  receipt: unknown
  /** the merchants' shares (lib/splits), copied to its payments that give none */
  splits: unknown
  /** its 54-FZ receipt data (lib/receipts), copied to its payments that give none */
  cheque: unknown
  customFields: unknown
  /** the customFields a link's bill shows on its page (lib/form-links); absent for every other bill */
  formFields?: unknown
  expiresAt: Date
}

/**
 * Writes the bill at `now` by one statement, unless a bill of that id exists (ON CONFLICT DO NOTHING) or, unless the
 * clock is `held` by a write of the site (`tx` of siteWrite), the site's clock is no longer `siteTime` (real time) or
 * the statement did not get the site's gate; the bill written, if any.
 */
export async function insertBill(
  tx: Tx | undefined,
  siteId: string,
  billId: string,
  b: NewBill,
  now: Date,
  siteTime: SiteClock,
  o: { held?: boolean; ids: [string, string] },
): Promise<Bill | undefined> {
  const client = tx ?? db()
  const onClock = o.held ? Prisma.empty : Prisma.sql`${stillOnClock('s."clockOffsetMs"', siteTime)}${gateIsOpen}`
  const [created] = await client.$queryRaw<Bill[]>`${o.held ? Prisma.empty : Prisma.sql`WITH ${statementGate(siteId)}`}
    INSERT INTO "Bill" (id, "siteId", "billId", "invoiceUid", fingerprint, currency, "amountMinor", comment, flags, "paymentMethods",
      "successUrl", "failedUrl", customer, recurrent, receipt, "customFields", status, "statusChangedAt", "createdAt", "expiresAt",
      splits, cheque, "formFields")
    SELECT ${o.ids[0]}::uuid, ${siteId}::text, ${billId}::text, ${o.ids[1]}::uuid, ${b.fingerprint}::text, ${b.currency}::text, ${b.amountMinor}::bigint,
      ${b.comment}::text, ${b.flags}::text[], ${b.paymentMethods}::text[], ${b.successUrl}::text, ${b.failedUrl}::text, ${jsonParam(b.customer)}::jsonb,
      ${jsonParam(b.recurrent)}::jsonb, ${jsonParam(b.receipt)}::jsonb, ${jsonParam(b.customFields)}::jsonb, 'CREATED', ${now}::timestamptz, ${now}::timestamptz,
      ${b.expiresAt}::timestamptz, ${jsonParam(b.splits)}::jsonb, ${jsonParam(b.cheque)}::jsonb,
      ${jsonParam(b.formFields)}::jsonb
    FROM "Site" s WHERE s.id = ${siteId}${onClock}
    ON CONFLICT ("siteId", "billId") DO NOTHING
    RETURNING *`
  return created
}

/** the site's bill of that id, in the write `tx` */
export async function findBill(tx: Tx, siteId: string, billId: string): Promise<Bill | undefined> {
  const [there] = await tx.$queryRaw<Bill[]>`SELECT * FROM "Bill" WHERE "siteId" = ${siteId} AND "billId" = ${billId}`
  return there
}

/**
 * The bill (with its site's clock offset) and its payments, oldest first, as of one moment (one snapshot:
 * REPEATABLE READ, read only); no row when there is no such bill.
 */
export async function readBillWithPayments(
  where: { siteId: string; billId: string } | { invoiceUid: string },
): Promise<[(Bill & { siteOffsetMs: bigint })[], Payment[]]> {
  const billWhere =
    'invoiceUid' in where
      ? Prisma.sql`b."invoiceUid" = ${where.invoiceUid}::uuid`
      : Prisma.sql`b."siteId" = ${where.siteId} AND b."billId" = ${where.billId}`
  return db().$transaction(
    [
      db().$queryRaw<(Bill & { siteOffsetMs: bigint })[]>`
          SELECT b.*, s."clockOffsetMs" AS "siteOffsetMs" FROM "Bill" b LEFT JOIN "Site" s ON s.id = b."siteId" WHERE ${billWhere}`,
      db().$queryRaw<Payment[]>`
          SELECT p.* FROM "Payment" p WHERE p."billRef" = (SELECT b.id FROM "Bill" b WHERE ${billWhere}) ORDER BY p."createdAt", p."paymentId"`,
    ],
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
  )
}

/** the bill of the page (by its invoiceUid), with its site's clock offset */
export async function billByInvoiceUid(invoiceUid: string): Promise<(Bill & { siteOffsetMs: bigint }) | undefined> {
  const [row] = await db().$queryRaw<(Bill & { siteOffsetMs: bigint })[]>`
    SELECT b.*, s."clockOffsetMs" AS "siteOffsetMs" FROM "Bill" b LEFT JOIN "Site" s ON s.id = b."siteId" WHERE b."invoiceUid" = ${invoiceUid}::uuid`
  return row
}

/** the bill's state and deadline now, with its site's clock offset */
export async function billStatusNow(
  billRef: string,
): Promise<{ status: string; expiresAt: Date; siteOffsetMs: bigint } | undefined> {
  const [now] = await db().$queryRaw<{ status: string; expiresAt: Date; siteOffsetMs: bigint }[]>`
    SELECT b.status, b."expiresAt", s."clockOffsetMs" AS "siteOffsetMs" FROM "Bill" b LEFT JOIN "Site" s ON s.id = b."siteId" WHERE b.id = ${billRef}::uuid`
  return now
}

/** the paymentId of the page's attempt (its key's hash) on the bill; null when there is none */
export async function pageAttemptPayment(billRef: string, keyHash: string): Promise<{ paymentId: string } | null> {
  return db().payment.findFirst({
    where: { billRef, pageAttemptKey: keyHash },
    select: { paymentId: true },
  })
}

/** the state and creation time of the bill's last `count` page attempts, newest first (in the attempt's `tx`) */
export async function lastPageAttempts(tx: Tx, billRef: string, count: number) {
  return tx.$queryRaw<{ status: string; createdAt: Date }[]>`
    SELECT status, "createdAt" FROM "Payment"
    WHERE "billRef" = ${billRef}::uuid AND "pageAttemptKey" IS NOT NULL
    ORDER BY "createdAt" DESC LIMIT ${count}`
}

/**
 * The site's bills, newest first, `limit` of them after `cursor` (a row's creation time and id: the dashboard's list)
 */
export async function listSiteBills(siteId: string, cursor: { createdAt: Date; id: string } | null, limit: number) {
  const where: Prisma.Sql[] = [Prisma.sql`"siteId" = ${siteId}`]
  if (cursor) where.push(Prisma.sql`("createdAt", "id") < (${cursor.createdAt}, ${cursor.id}::uuid)`)
  return db().$queryRaw<
    Pick<Bill, 'id' | 'billId' | 'createdAt' | 'amountMinor' | 'currency' | 'status' | 'expiresAt'>[]
  >`
    SELECT id, "billId", "createdAt", "amountMinor", currency, status, "expiresAt"
    FROM "Bill" WHERE ${Prisma.join(where, ' AND ')}
    ORDER BY "createdAt" DESC, id DESC LIMIT ${limit}`
}

// ---- the bill a payment is on (lib/settlement/bill-for-payment.ts)

/** what a payment tells of the bill it goes on */
export interface PaymentOnBill {
  billId?: string
  amountMinor: number
  currency: string
  flags: string[]
  comment?: string
  customer?: object
}

/** The identifiers and lifetime of an implicit bill, chosen before it is written. */
export interface ImplicitBill {
  id: string
  billId: string
  invoiceUid: string
  expiresAt: Date
}

/** the site's bill of that id, locked until the transaction ends */
export async function lockBill(tx: Tx, siteId: string, billId: string) {
  const rows = await tx.$queryRaw<
    {
      id: string
      currency: string
      amountMinor: bigint | null
      status: string
      expiresAt: Date
      customFields: Prisma.JsonValue
      splits: Prisma.JsonValue
      cheque: Prisma.JsonValue
    }[]
  >`
    SELECT id, currency, "amountMinor", status, "expiresAt", "customFields", splits, cheque FROM "Bill" WHERE "siteId" = ${siteId} AND "billId" = ${billId} FOR UPDATE`
  return rows[0]
}

/**
 * The INSERT of an implicit bill, as a statement of its own or a part of a larger one; with `gated`, a
 * part that writes only through the CTE `gate` (see DeferredAuth in lib/http/api-route.ts).
 */
export function implicitBillInsert(
  siteId: string,
  p: PaymentOnBill,
  b: ImplicitBill,
  paid: boolean,
  now: Date,
  gated = false,
): Prisma.Sql {
  const values = Prisma.sql`${b.id}::uuid, ${siteId}, ${b.billId}, ${b.invoiceUid}::uuid, ${p.currency}, ${p.amountMinor}, ${p.comment ?? null}, ${p.flags}::text[],
            ${jsonParam(p.customer)}::jsonb, ${paid ? 'PAID' : 'CREATED'}, ${now}, ${now}, ${b.expiresAt}`
  return Prisma.sql`
    INSERT INTO "Bill" (id, "siteId", "billId", "invoiceUid", currency, "amountMinor", comment, flags, customer, status, "statusChangedAt", "createdAt", "expiresAt")
    ${gated ? Prisma.sql`SELECT ${values} FROM gate` : Prisma.sql`VALUES (${values})`}`
}

/** an implicit bill written by a statement of its own */
export async function insertImplicitBill(
  tx: Tx,
  siteId: string,
  p: PaymentOnBill,
  b: ImplicitBill,
  paid: boolean,
  now: Date,
): Promise<void> {
  await tx.$executeRaw(implicitBillInsert(siteId, p, b, paid, now))
}

export async function markBillPaid(tx: Tx, billRef: string, now: Date): Promise<void> {
  await tx.bill.update({ where: { id: billRef }, data: { status: 'PAID', statusChangedAt: now }, select: { id: true } })
}

// ---- the scheduler's expiry (lib/scheduler/time-driven-changes.ts expireDueBills)

/** the changes of one site only (a clock advance's pass), or of every site */
const ofSite = (alias: string, siteId?: string) =>
  siteId ? Prisma.sql` AND ${Prisma.raw(`"${alias}"`)}."siteId" = ${siteId}` : Prisma.empty

/** the condition on "Site" ahead: a site whose clock is ahead (every one, or the one site asked for) */
const isAhead = (siteId?: string) =>
  Prisma.sql`ahead."clockOffsetMs" > 0${siteId ? Prisma.sql` AND ahead.id = ${siteId}` : Prisma.empty}`

/**
 * Writes EXPIRED, dated at the deadline, on up to `batch` unpaid bills past their deadline — due on real time, or
 * `onSiteClock` of each site whose clock is ahead, due by its own time — none with a payment whose change fell due
 * before the deadline (it may pay the bill); how many. Behind the site's gate as every write of the site
 * (gateOpenFor, tried for each due bill): the bills of a site being reset or advanced are passed over.
 */
export async function expireBillBatch(now: Date, batch: number, onSiteClock: boolean, siteId?: string) {
  const notPaying = Prisma.sql`NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p."billRef" = b.id AND p.status = 'WAITING' AND p."dueAt" <= b."expiresAt")`
  const due = onSiteClock
    ? Prisma.sql`
    SELECT b.id FROM "Site" ahead CROSS JOIN LATERAL (
      SELECT b.id FROM "Bill" b
      WHERE b."siteId" = ahead.id AND b.status = 'CREATED' AND b."expiresAt" > ${now}::timestamptz
        AND b."expiresAt" <= ${now}::timestamptz + ahead."clockOffsetMs" * interval '1 millisecond' AND ${notPaying}${gateOpenFor('b."siteId"')}
      ORDER BY b."expiresAt" LIMIT ${batch} FOR UPDATE OF b SKIP LOCKED) b
    WHERE ${isAhead(siteId)} LIMIT ${batch}`
    : Prisma.sql`
    SELECT b.id FROM "Bill" b
    WHERE b."expiresAt" <= ${now}::timestamptz AND b.status = 'CREATED' AND ${notPaying}${ofSite('b', siteId)}${gateOpenFor('b."siteId"')}
    ORDER BY b."expiresAt" LIMIT ${batch} FOR UPDATE OF b SKIP LOCKED`
  return db().$executeRaw`
        UPDATE "Bill" SET status = 'EXPIRED', "statusChangedAt" = "expiresAt" WHERE id IN (${due}) AND status = 'CREATED'`
}

// ---- sandbox reset

/** a sandbox reset's first statement here: the site's bills locked (the statement the reset makes) */
export async function lockSiteBills(tx: Tx, siteId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Bill" WHERE "siteId" = ${siteId} FOR UPDATE`
}

/** a sandbox reset's delete here (after the payments'); how many bills went */
export async function deleteSiteData(tx: Tx, siteId: string): Promise<number> {
  return tx.$executeRaw`DELETE FROM "Bill" WHERE "siteId" = ${siteId}`
}
