// The payments' table ("Payment"): every statement that reads or writes it, and the fragments of larger
// statements that write it (the one-statement card payment, a refund's totals). Services decide and call these,
// passing the transaction they got from siteWrite; nothing else imports the database client for payments.
import { db, jsonParam, sqlRows, type Tx } from '../db/client'
import { localMidnight } from '../db/hour-stats'
import { Prisma, type Payment } from '../generated/prisma/client'
import { dueLimit, gateOpenFor, lockDue, type DueRow, type DueTake } from '../sandbox/site-write'

export type { Payment } from '../generated/prisma/client'
export type { Tx } from '../db/client'
// a write that lost a race (its id taken by a concurrent twin) is told apart and made again by the service
export { isUniqueViolation, withRetry } from '../db/client'
/** a statement or a fragment of one, its values parameters (built by a store) */
export type Sql = Prisma.Sql
/** a JSON column's value */
export type JsonValue = Prisma.JsonValue

/**
 * A payment row's columns by name, for the prepared (named) statements: `*` in a prepared statement
 * changes its result type when a migration adds a column, and PostgreSQL then refuses the statement on
 * every connection of instances still running the older code ("cached plan must not change result type").
 */
const PAYMENT_COLUMNS = Prisma.raw(
  Object.values(Prisma.PaymentScalarFieldEnum)
    .map((c) => `"${c}"`)
    .join(', '),
)

/** the site's payment's row, as a statement (alone, or preloaded with the token check) */
export const paymentRowSql = (siteId: string, paymentId: string) =>
  Prisma.sql`SELECT ${PAYMENT_COLUMNS} FROM "Payment" WHERE "siteId" = ${siteId} AND "paymentId" = ${paymentId}`

/** the site's payment's row (paymentRowSql), read on the pool as a prepared statement: the hot read path */
export async function readPaymentRow(siteId: string, paymentId: string): Promise<Payment | undefined> {
  // a plain prepared statement on the pool: the hot read path (the query builder's findUnique costs about
  // twice a $queryRaw, which costs more than pg alone)
  return (await sqlRows<Payment>(paymentRowSql(siteId, paymentId)))[0]
}

/** the fingerprint of the site's payment's request, or null when there is no such payment */
export const paymentFingerprint = (siteId: string, paymentId: string) =>
  db().payment.findUnique({
    where: { siteId_paymentId: { siteId, paymentId } },
    select: { fingerprint: true },
  })

/** whether a payment is an open hold: authorised (COMPLETED without SALE) and nothing of it captured or released */
const isOpenHold = (p: Pick<Payment, 'status' | 'flags' | 'capturedMinor' | 'reversed'>) =>
  p.status === 'COMPLETED' && !p.flags.includes('SALE') && p.capturedMinor === 0n && !p.reversed

/**
 * A new payment's `holdDueAt`: an open hold's is its authorisation plus the site's hold period, read in the statement
 * (the site's setting now), else none.
 */
const holdDueAtOf = (p: Payment): Prisma.Sql =>
  isOpenHold(p)
    ? // a change of the period takes the site's gate exclusively: it waits for this write, then reschedules it
      Prisma.sql`${p.statusChangedAt}::timestamptz + (SELECT "holdHours" FROM "Site" WHERE id = ${p.siteId}) * interval '1 hour'`
    : Prisma.sql`${p.holdDueAt}::timestamptz`

/** The INSERT of a new payment's row (RETURNING is the caller's); with `gated`, written only through the CTE `gate`. */
function paymentInsert(p: Payment, gated = false): Prisma.Sql {
  const values = Prisma.sql`${p.id}::uuid, ${p.siteId}, ${p.paymentId}, ${p.billRef}::uuid, ${p.billId}, ${p.fingerprint}, ${p.methodType}, ${p.maskedPan}, ${p.flags}::text[], ${p.currency},
      ${p.amountMinor}, ${p.capturedMinor}, ${p.refundedMinor}, ${p.reversed}, ${p.status}, ${p.statusReason}, ${p.statusChangedAt}, ${p.createdAt}, ${p.comment}, ${jsonParam(p.customer)}::jsonb,
      ${jsonParam(p.receipt)}::jsonb, ${jsonParam(p.requirements)}::jsonb, ${p.authFlow}, ${p.otpAttempts}, ${p.dueAt}, ${jsonParam(p.cardProfile)}::jsonb, ${p.recurrentMinAuthDay}, ${p.recurrentExpiry},
      ${p.seriesRef}::uuid, ${p.callbackUrl}, ${jsonParam(p.customFields)}::jsonb, ${p.pageAttemptKey}, ${jsonParam(p.methodData)}::jsonb,
      ${p.cardHolder}, ${jsonParam(p.deviceData)}::jsonb, ${p.reversedMinor}, ${holdDueAtOf(p)}, ${jsonParam(p.splits)}::jsonb,
      ${jsonParam(p.cheque)}::jsonb`
  return Prisma.sql`
    INSERT INTO "Payment" (id, "siteId", "paymentId", "billRef", "billId", fingerprint, "methodType", "maskedPan", flags, currency,
      "amountMinor", "capturedMinor", "refundedMinor", reversed, status, "statusReason", "statusChangedAt", "createdAt", comment, customer,
      receipt, requirements, "authFlow", "otpAttempts", "dueAt", "cardProfile", "recurrentMinAuthDay", "recurrentExpiry",
      "seriesRef", "callbackUrl", "customFields", "pageAttemptKey", "methodData", "cardHolder", "deviceData",
      "reversedMinor", "holdDueAt", splits, cheque)
    ${gated ? Prisma.sql`SELECT ${values} FROM gate` : Prisma.sql`VALUES (${values})`}`
}

/**
 * The CTEs of the one statement that writes a card or phone payment naming no bill (behind the token check's
 * gate): its implicit bill (`billInsert`), the payment `row` (returned, by its columns' names) and its
 * notification, if any.
 */
export const directPaymentCtes = (billInsert: Prisma.Sql, row: Payment, notification: Prisma.Sql | null) =>
  Prisma.sql`
          bill AS (${billInsert}),
          payment AS (${paymentInsert(row, true)} RETURNING ${PAYMENT_COLUMNS})
          ${notification ? Prisma.sql`, notification AS (${notification})` : Prisma.empty}`

/** writes the new payment's row in the transaction; the row as stored */
export async function insertPaymentRow(tx: Tx, row: Payment): Promise<Payment> {
  const [payment] = await tx.$queryRaw<Payment[]>`${paymentInsert(row)} RETURNING *`
  return payment
}

/** the site's payment, locked for the rest of the transaction; undefined when there is none */
export async function lockPaymentRow(tx: Tx, siteId: string, paymentId: string): Promise<Payment | undefined> {
  const rows = await tx.$queryRaw<
    Payment[]
  >`SELECT * FROM "Payment" WHERE "siteId" = ${siteId} AND "paymentId" = ${paymentId} FOR UPDATE`
  return rows[0]
}

/**
 * The bill's WAITING payments whose change fell due before `before` (except `except`), earliest first, locked for
 * the rest of the transaction.
 */
export async function lockDuePaymentsOfBill(
  tx: Tx,
  bill: { ref: string } | { siteId: string; billId: string },
  before: Date,
  except: string | null,
): Promise<Payment[]> {
  const billRef =
    'ref' in bill
      ? Prisma.sql`${bill.ref}::uuid`
      : Prisma.sql`(SELECT id FROM "Bill" WHERE "siteId" = ${bill.siteId} AND "billId" = ${bill.billId})`
  return tx.$queryRaw<Payment[]>`
    SELECT * FROM "Payment"
    WHERE "billRef" = ${billRef} AND status = 'WAITING' AND "dueAt" < ${before} AND (${except}::uuid IS NULL OR id <> ${except}::uuid)
    ORDER BY "dueAt", id FOR UPDATE`
}

/**
 * The payment's bill's status and deadline, its row locked for the rest of the transaction (an approval judges the
 * bill as it is now). It reads "Bill": it belongs with the bill's store once that exists beside this one.
 */
export async function lockBillOfPayment(tx: Tx, billRef: string): Promise<{ status: string; expiresAt: Date }> {
  const [bill] = await tx.$queryRaw<
    { status: string; expiresAt: Date }[]
  >`SELECT status, "expiresAt" FROM "Bill" WHERE id = ${billRef}::uuid FOR UPDATE`
  return bill
}

/** writes DECLINED with its reason, at `at`; the row as stored */
export const declinePayment = (tx: Tx, id: string, reason: string, at: Date): Promise<Payment> =>
  tx.payment.update({
    where: { id },
    data: { status: 'DECLINED', statusReason: reason, statusChangedAt: at, dueAt: null },
  })

/** writes DECLINED on each payment, with its reason, at its time, in one statement; the rows as stored, in no order */
export function declinePayments(tx: Tx, declines: { id: string; reason: string; at: Date }[]): Promise<Payment[]> {
  const ids = declines.map((d) => d.id)
  return tx.$queryRaw<Payment[]>`
    UPDATE "Payment" p SET status = 'DECLINED', "statusReason" = v.reason, "statusChangedAt" = v.at, "dueAt" = NULL
    FROM unnest(${ids}::uuid[], ${declines.map((d) => d.reason)}::text[], ${declines.map((d) => d.at)}::timestamptz[]) v (id, reason, at)
    WHERE p.id = ANY(${ids}::uuid[]) AND p.id = v.id RETURNING p.*`
}

/**
 * writes COMPLETED, at `at`, with what the approval captured; the row as stored. An authorisation (nothing captured)
 * is an open hold: it confirms itself after the site's hold period.
 */
export async function completePaymentRow(tx: Tx, id: string, capturedMinor: bigint, at: Date): Promise<Payment> {
  const done = await tx.payment.update({
    where: { id },
    data: {
      status: 'COMPLETED',
      statusReason: null,
      statusChangedAt: at,
      capturedMinor,
      dueAt: null,
    },
  })
  if (!isOpenHold(done)) return done
  const [held] = await tx.$queryRaw<Payment[]>`
    UPDATE "Payment" p
    SET "holdDueAt" = p."statusChangedAt" + (SELECT "holdHours" FROM "Site" s WHERE s.id = p."siteId") * interval '1 hour'
    WHERE p.id = ${id}::uuid RETURNING p.*`
  return held
}

/** a payment by its internal id, or null */
export const readPaymentByRef = (paymentRef: string): Promise<Payment | null> =>
  db().payment.findUnique({ where: { id: paymentRef } })

/** writes who paid (an SBP payment's payer: their phone and bank details); the row as stored */
export const setPaymentPayer = (tx: Tx, id: string, methodData: JsonValue, customer: JsonValue): Promise<Payment> =>
  tx.payment.update({
    where: { id },
    data: { methodData: methodData ?? Prisma.DbNull, customer: customer ?? Prisma.DbNull },
  })

/** the number of wrong one-time codes sent for the payment */
export async function setOtpAttempts(tx: Tx, id: string, attempts: number): Promise<void> {
  await tx.payment.update({ where: { id }, data: { otpAttempts: attempts } })
}

/** what a capture took of the payment */
/** a capture's amount written on the payment, its hold no longer open */
export async function setCapturedMinor(tx: Tx, id: string, capturedMinor: bigint | number): Promise<void> {
  await tx.payment.update({ where: { id }, data: { capturedMinor, holdDueAt: null } })
}

/**
 * The CTE (with its trailing comma) of a refund's statement that adds the refund to the payment's totals: a reversal
 * to what reversals released too, and one that `releases` the hold marks it reversed (its hold no longer open). The
 * payment is locked by then.
 */
export function refundTotalsUpdate(
  paymentRef: string,
  amountMinor: bigint,
  reversal: boolean,
  releases: boolean,
  pending = false,
): Prisma.Sql {
  // a postponed refund counts as pending until it is processed
  const total = Prisma.raw(pending ? '"pendingRefundMinor"' : '"refundedMinor"')
  const reversed = reversal ? Prisma.sql`, "reversedMinor" = "reversedMinor" + ${amountMinor}` : Prisma.empty
  const released = releases ? Prisma.sql`, reversed = true, "holdDueAt" = NULL` : Prisma.empty
  return Prisma.sql`totals AS (UPDATE "Payment" SET ${total} = ${total} + ${amountMinor}${reversed}${released} WHERE id = ${paymentRef}::uuid),`
}

/** a postponed refund leaves the pending total: declined (given back), or processed (`completed`: refunded) */
export async function settlePendingRefund(
  tx: Tx,
  paymentRef: string,
  amountMinor: bigint,
  completed: boolean,
): Promise<void> {
  const refunded = completed ? Prisma.sql`, "refundedMinor" = "refundedMinor" + ${amountMinor}` : Prisma.empty
  await tx.$executeRaw`
    UPDATE "Payment" SET "pendingRefundMinor" = "pendingRefundMinor" - ${amountMinor}${refunded} WHERE id = ${paymentRef}::uuid`
}

/** a payment by its internal id, locked for the rest of the transaction */
export async function lockPaymentByRef(tx: Tx, paymentRef: string): Promise<Payment | undefined> {
  const [row] = await tx.$queryRaw<Payment[]>`SELECT * FROM "Payment" WHERE id = ${paymentRef}::uuid FOR UPDATE`
  return row
}

/** when the series' last COMPLETED charge was made, if any */
export const lastChargeOfSeries = (tx: Tx, seriesRef: string) =>
  tx.payment.findFirst({
    where: { seriesRef, status: 'COMPLETED' },
    orderBy: { statusChangedAt: 'desc' },
    select: { statusChangedAt: true },
  })

/** what the 3-D Secure page shows of the payment (by its internal id), or null */
export const paymentForChallenge = (paymentRef: string) =>
  db().payment.findUnique({
    where: { id: paymentRef },
    select: { amountMinor: true, currency: true, maskedPan: true, siteId: true, pageAttemptKey: true },
  })

/** the changes of one site only (a clock advance's pass), or of every site */
const ofSite = (alias: string, siteId?: string) =>
  siteId ? Prisma.sql` AND ${Prisma.raw(`"${alias}"`)}."siteId" = ${siteId}` : Prisma.empty

/** a waiting payment whose change is due, with its site's clock offset */
export type DuePayment = DueRow<Payment>

/**
 * Locks the waiting payments whose change is due first (a batch, as `take` says), with their sites' offsets, behind
 * their sites' gates (lib/sandbox/site-write.ts lockDue says how, and why each lookup is one range of an index).
 */
export const lockDuePayments = (tx: Tx, now: Date, take: DueTake, siteId?: string) =>
  lockDue<Payment>(tx, {
    table: 'Payment',
    column: 'dueAt',
    where: Prisma.sql`x.status = 'WAITING'`,
    now,
    take,
    siteId,
  })

/** Locks the open holds whose time to confirm themselves came first (`holdDueAt`, only open holds have it): as above */
export const lockDueHolds = (tx: Tx, now: Date, take: DueTake, siteId?: string) =>
  lockDue<Payment>(tx, { table: 'Payment', column: 'holdDueAt', now, take, siteId })

/**
 * The payments of a batch the scheduler took (`batch`: locked by the caller) that must wait for a transaction of their
 * own: those whose bill has another WAITING payment due no later, outside the batch, that another transaction holds.
 * Approving a payment settles its bill's payments due before it (settleDueOnBill locks them): a batch waiting there for
 * another instance's batch, which may be waiting for one of this batch's rows, would be a deadlock. So the other such
 * payments that no one holds are locked here, before any change is applied, and the rest of the batch waits for
 * nothing another batch holds but its bills' rows, which a batch locks only once it has all their due payments.
 */
export async function lockBillMates(tx: Tx, batch: Pick<Payment, 'id' | 'billRef' | 'dueAt'>[]): Promise<Set<string>> {
  const due = batch.filter((p) => p.dueAt)
  if (!due.length) return new Set()
  const ids = batch.map((p) => p.id)
  // each mate of a payment of the batch: of its bill, WAITING, due no later (a tie is settled by neither)
  const mates = Prisma.sql`FROM "Payment" m
    JOIN unnest(${due.map((p) => p.billRef)}::uuid[], ${due.map((p) => p.dueAt)}::timestamptz[]) b(ref, due)
      ON m."billRef" = b.ref AND m."dueAt" <= b.due
    WHERE m.status = 'WAITING' AND NOT (m.id = ANY(${ids}::uuid[]))`
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT m.id ${mates} FOR UPDATE OF m SKIP LOCKED`
  const held = await tx.$queryRaw<{ billRef: string; dueAt: Date }[]>`
    SELECT m."billRef", m."dueAt" ${mates} AND NOT (m.id = ANY(${locked.map((m) => m.id)}::uuid[]))`
  return new Set(
    due
      .filter((p) => held.some((m) => m.billRef === p.billRef && m.dueAt.getTime() <= p.dueAt!.getTime()))
      .map((p) => p.id),
  )
}

/**
 * Locks the payments `refs` in the order of their ids (a batch of postponed refunds' payments, before any is
 * processed): two batches that lock payments in one order never wait for each other in a circle.
 */
export async function lockPaymentsInOrder(tx: Tx, refs: string[]): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Payment" WHERE id = ANY(${refs}::uuid[]) ORDER BY id FOR UPDATE`
}

/**
 * The site's open holds made due `hours` after their authorisation (a changed hold period applies to them too), in the
 * transaction that changes the setting; how many.
 */
export const rescheduleHolds = (tx: Tx, siteId: string, hours: number, now: Date): Promise<number> =>
  // never before the site's now: a shortened period confirms what is already due now, not back-dated
  tx.$executeRaw`UPDATE "Payment"
    SET "holdDueAt" = GREATEST("statusChangedAt" + ${hours} * interval '1 hour', ${now}::timestamptz)
    WHERE "siteId" = ${siteId} AND "holdDueAt" IS NOT NULL`

/** a waiting payment whose bill closed: the bill's status and when it closed, with its site's clock offset */
export type WaitOnClosedBill = Payment & { billStatus: string; billClosedAt: Date; siteOffsetMs: bigint | null }

/**
 * Locks WAITING payments of one of `authFlows` whose bill is PAID or EXPIRED (a batch, as `take` says), behind their
 * sites' gates as every write of a site; none when there is none. Such payments are few: the lookup is a range of the
 * (status, authFlow) index.
 */
export async function lockWaitsOnClosedBills(
  tx: Tx,
  authFlows: readonly string[],
  take: DueTake,
  siteId?: string,
): Promise<WaitOnClosedBill[]> {
  if (!authFlows.length) return []
  const only = take.only ? Prisma.sql` AND p.id = ANY(${take.only}::uuid[])` : Prisma.empty
  return tx.$queryRaw<WaitOnClosedBill[]>`
    SELECT p.*, b.status AS "billStatus", b."statusChangedAt" AS "billClosedAt", s."clockOffsetMs" AS "siteOffsetMs"
    FROM "Payment" p JOIN "Bill" b ON b.id = p."billRef" JOIN "Site" s ON s.id = p."siteId"
    WHERE p.status = 'WAITING' AND p."authFlow" = ANY(${[...authFlows]}::text[]) AND b.status IN ('PAID', 'EXPIRED')
      AND NOT (p.id = ANY(${take.skip}::uuid[]))${only}${ofSite('p', siteId)}${gateOpenFor('p."siteId"')}
    LIMIT ${dueLimit(take)} FOR UPDATE OF p SKIP LOCKED`
}

/** a row of the dashboard's payment list */
export interface PaymentListRow {
  paymentId: string
  billId: string
  createdAt: Date
  amountMinor: bigint
  currency: string
  status: string
  statusReason: string | null
  methodType: string
  maskedPan: string | null
  /** set while a hold is open: authorised, not yet captured or released */
  holdDueAt: Date | null
  /** a hold released whole */
  reversed: boolean
}

/**
 * The site's payments, newest first, `limit` at most: those a search (a payment id, a bill id, a card's last four
 * digits) finds, of a status, made on a local day or after, after a cursor (a row's creation time and id: the
 * dashboard's list).
 *
 * Each way of finding a row is a range of an index of its own, read newest first and stopped at `limit` rows
 * (prisma/migrations/*_scale_indexes): the list on ("siteId", "createdAt", id), of a status on ("siteId", status,
 * "createdAt", id); a search is the union of its ways, each at most `limit` rows — one OR over the three columns
 * would read every payment of the site. The last four digits are those of the masked number (right("maskedPan", 4),
 * the expression the index holds): nothing more of the card is kept.
 */
export async function listPaymentRows(
  siteId: string,
  q: {
    search: string
    status?: string
    cursor: { createdAt: Date; id: string } | null
    since?: { day: string; timeZone: string }
  },
  limit: number,
): Promise<(PaymentListRow & { id: string })[]> {
  const { search } = q
  const filters: Prisma.Sql[] = []
  if (q.status) filters.push(Prisma.sql` AND status = ${q.status}`)
  // made on a local day or after (the overview's days): from that day's midnight in the time zone
  if (q.since) filters.push(Prisma.sql` AND "createdAt" >= ${localMidnight(q.since.day, q.since.timeZone)}`)
  if (q.cursor) filters.push(Prisma.sql` AND ("createdAt", "id") < (${q.cursor.createdAt}, ${q.cursor.id}::uuid)`)
  const rows = (found: Prisma.Sql) => Prisma.sql`(
    SELECT id, "paymentId", "billId", "createdAt", "amountMinor", currency, status, "statusReason", "methodType", "maskedPan",
           "holdDueAt", reversed
    FROM "Payment" WHERE "siteId" = ${siteId}${found}${filters.length ? Prisma.join(filters, '') : Prisma.empty}
    ORDER BY "createdAt" DESC, id DESC LIMIT ${limit})`
  if (!search) return db().$queryRaw<(PaymentListRow & { id: string })[]>(rows(Prisma.empty))
  const ways = [rows(Prisma.sql` AND "paymentId" = ${search}`), rows(Prisma.sql` AND "billId" = ${search}`)]
  if (/^\d{4}$/.test(search))
    ways.push(rows(Prisma.sql` AND "maskedPan" IS NOT NULL AND right("maskedPan", 4) = ${search}`))
  // UNION: a row found two ways (a payment whose id is its bill's) is listed once
  return db().$queryRaw<(PaymentListRow & { id: string })[]>`
    SELECT * FROM (${Prisma.join(ways, ' UNION ')}) found ORDER BY "createdAt" DESC, id DESC LIMIT ${limit}`
}

/** A sandbox reset's statement for this table: the site's payments deleted; how many. */
export const deleteSiteData = (tx: Tx, siteId: string): Promise<number> =>
  tx.$executeRaw`DELETE FROM "Payment" WHERE "siteId" = ${siteId}`
