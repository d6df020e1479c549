// Bills: create (idempotent per site and billId), details, the list of a bill's payments, and the
// bill behind a payUrl. EXPIRED is derived from the deadline on every read; WAITING payments whose
// change fell due are brought up to date first, so the bill's state is current.
import { randomUUID } from 'node:crypto'
import { db, jsonParam, withRetry } from '../db/client'
import { Prisma, type Bill, type Payment } from '../generated/prisma/client'
import { notFound, requestConflict, validationError } from '../http/api-error'
import { isDue } from '../payments/payment-lifecycle'
import { findPayment } from '../payments/payment-service'
import { clockOf, siteClock, siteWriteLock, stillOnClock, type SiteClock } from '../sandbox/site-clock'
import { fingerprint } from '../security/keyed-hash'
import { newBillProblems, type BillRequest } from './bill-request'
import { renderBill, renderBillDetails, renderBillPayment } from './bill-wire'

/** `clock`: the site's sandbox clock when the caller has it (read otherwise) */
export async function createBill(siteId: string, billId: string, req: BillRequest, clock?: SiteClock) {
  const print = fingerprint('bill', req)
  let siteTime = clock ?? (await siteClock(siteId))
  // the bill is written only while the site's clock is still `siteTime` (its deadline was judged on it),
  // read under the share lock of a write of the site (lib/sandbox/site-clock.ts siteClockForWrite): a
  // sandbox reset under way makes the statement wait, and a clock that moved meanwhile is read again
  const bill = await withRetry(async () => {
    for (let attempt = 1; ; attempt++) {
      const late = newBillProblems(req, siteTime.now())
      // one statement for a new bill; an existing one (a replay or a conflict) is read after
      const now = siteTime.now()
      const [created] = late
        ? []
        : await db().$queryRaw<Bill[]>`
        INSERT INTO "Bill" (id, "siteId", "billId", "invoiceUid", fingerprint, currency, "amountMinor", comment, flags, "successUrl", "failedUrl",
          customer, recurrent, receipt, "customFields", status, "statusChangedAt", "createdAt", "expiresAt")
        SELECT ${randomUUID()}::uuid, ${siteId}::text, ${billId}::text, ${randomUUID()}::uuid, ${print}::text, ${req.amount.currency}::text, ${req.amount.value ?? null}::bigint,
          ${req.comment ?? null}::text, ${req.flags}::text[], ${req.successUrl ?? null}::text, ${req.failedUrl ?? null}::text, ${jsonParam(req.customer)}::jsonb,
          ${jsonParam(req.recurrent)}::jsonb, ${jsonParam(req.receipt)}::jsonb, ${jsonParam(req.customFields)}::jsonb, 'CREATED', ${now}::timestamptz, ${now}::timestamptz,
          ${req.expirationDateTime}::timestamptz
        FROM "Site" s WHERE s.id = ${siteId}${stillOnClock('s."clockOffsetMs"', siteTime)}${siteWriteLock('s')}
        ON CONFLICT ("siteId", "billId") DO NOTHING
        RETURNING *`
      if (created) return created
      // a replay answers the bill as it is now (its payments' due changes applied first), also past its deadline
      const existing = await loadBill({ siteId, billId })
      if (existing) {
        if (late && existing.bill.fingerprint !== print) throw validationError(late)
        if (existing.bill.fingerprint !== print) throw requestConflict(`Bill ${billId}`)
        return existing.bill
      }
      if (late) throw validationError(late)
      // nothing written and no bill: the site's clock moved (an advance, a reset) since it was read
      if (attempt >= 5) throw new Error(`bill ${billId}: the site's clock kept moving while it was written`)
      siteTime = await siteClock(siteId)
    }
  })
  return renderBill(bill, siteTime.now())
}

export interface LoadedBill {
  bill: Bill
  /** oldest first */
  payments: Payment[]
  /** its site's sandbox clock */
  clock: SiteClock
}

/** the bill and its payments, oldest first, brought up to date on its site's clock (read with it) */
export async function loadBill(where: { siteId: string; billId: string } | { invoiceUid: string }): Promise<LoadedBill | null> {
  // the bill and its payments as of one moment (one snapshot: REPEATABLE READ, read only): read one after
  // the other, a payment settled in between (by the scheduler, with its bill) would show COMPLETED beside
  // a bill still CREATED
  const billWhere =
    'invoiceUid' in where ? Prisma.sql`b."invoiceUid" = ${where.invoiceUid}::uuid` : Prisma.sql`b."siteId" = ${where.siteId} AND b."billId" = ${where.billId}`
  const read = async () => {
    const [rows, payments] = await db().$transaction(
      [
        db().$queryRaw<(Bill & { siteOffsetMs: bigint })[]>`
          SELECT b.*, s."clockOffsetMs" AS "siteOffsetMs" FROM "Bill" b LEFT JOIN "Site" s ON s.id = b."siteId" WHERE ${billWhere}`,
        db().$queryRaw<Payment[]>`
          SELECT p.* FROM "Payment" p WHERE p."billRef" = (SELECT b.id FROM "Bill" b WHERE ${billWhere}) ORDER BY p."createdAt", p."paymentId"`,
      ],
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
    )
    if (!rows[0]) return null
    const { siteOffsetMs, ...bill } = rows[0]
    return { bill, payments, clock: clockOf(siteOffsetMs) }
  }
  const found = await read()
  if (!found) return null
  const due = found.payments.filter((p) => isDue(p, found.clock.now()))
  if (!due.length) return found
  // each due change applied (by findPayment, in a transaction of its own), then the bill read again as a whole
  for (const p of due) await findPayment(p.siteId, p.paymentId, found.clock)
  // null if the bill is gone meanwhile (a sandbox reset of its site): not found, like a read just after
  return read()
}

export async function readBillDetails(siteId: string, billId: string) {
  const loaded = await loadBill({ siteId, billId })
  if (!loaded) throw notFound('Bill')
  return renderBillDetails(loaded.bill, loaded.payments, loaded.clock.now())
}

export async function listBillPayments(siteId: string, billId: string) {
  const loaded = await loadBill({ siteId, billId })
  if (!loaded) throw notFound('Bill')
  return loaded.payments.map(renderBillPayment)
}
