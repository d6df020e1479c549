// Bills: create (idempotent per site and billId), details, the list of a bill's payments, and the
// bill behind a payUrl. EXPIRED is derived from the deadline on every read; WAITING payments whose
// change fell due are brought up to date first, so the bill's state is current.
import { randomUUID } from 'node:crypto'
import { notFound, requestConflict, validationError, type FieldErrors } from '../http/api-error'
import { isDue } from '../payments/payment-lifecycle'
import { findPayment } from '../payments/payment-service'
import { clockOf, type SiteClock } from '../sandbox/site-clock'
import { siteClock } from '../sites/site-store'
import { siteWrite } from '../sandbox/site-write'
import {
  findBill,
  insertBill,
  readBillWithPayments,
  withRetry,
  type Bill,
  type Payment,
  type Tx,
} from '../settlement/bill-store'
import { fingerprint } from '../security/keyed-hash'
import { CHECK_CARD_AMOUNT, newBillProblems, type BillRequest } from '../bills/bill-request'
import { renderBill } from '../bills/bill-wire'
import { renderBillDetails, renderBillPayment } from './bill-details-wire'

/**
 * A new bill, or for its id the bill already there: a replay (the same request) answers it as it is now,
 * another request is a 409. Its deadline (the future, at most 45 days ahead) is judged on the site's
 * sandbox clock, and the bill is written on that very clock (its creation time):
 * - first, when the clock the caller has (`clock`, read with the token) or reads now is real time, by one
 *   statement, which writes only while the site's clock is still real time and the statement holds the
 *   site's gate (lib/sandbox/site-write.ts statementGate: no sandbox reset or clock advance under way);
 * - otherwise (a site whose clock runs ahead, or one that moved or is being moved meanwhile) in a write of
 *   the site (siteWrite), which holds the clock still from its reading to the write. That try cannot lose
 *   to the clock: it writes the bill, or finds the bill of that id, or judges the deadline late on a clock
 *   the site has. However often the clock moves, a creation takes two tries at most.
 */
export async function createBill(
  siteId: string,
  billId: string,
  req: BillRequest,
  clock?: SiteClock,
  more: BillBesidesRequest = {},
) {
  const print = fingerprint('bill', req)
  const { bill, at } = await withRetry(async () => {
    const siteTime = clock ?? (await siteClock(siteId))
    if (siteTime.offsetMs === 0) {
      const first = await writeBill(undefined, siteId, billId, req, print, siteTime, { more })
      if (first.created) return { bill: first.created, at: siteTime }
      // a replay answers the bill as it is now (its payments' due changes applied first), also past its deadline
      const existing = await loadBill({ siteId, billId })
      if (existing) return { bill: sameRequest(existing.bill, print, billId, first.late), at: existing.clock }
      if (first.late) throw validationError(first.late)
    }
    // nothing written and no bill: the site's clock runs ahead, or moved since it was read. Again, on the
    // clock held still (once: this loop retries)
    const held = await siteWrite(
      siteId,
      async (tx, heldTime) => {
        const again = await writeBill(tx, siteId, billId, req, print, heldTime, { held: true, more })
        // not written: a bill of that id is there (made meanwhile), read behind the same gate
        const there = again.created ? undefined : await findBill(tx, siteId, billId)
        return { ...again, there, heldTime }
      },
      { attempts: 1 },
    )
    if (held.created) return { bill: held.created, at: held.heldTime }
    if (held.there) {
      // as it is now; as read behind the gate should a sandbox reset have deleted it since
      const now = await loadBill({ siteId, billId })
      return { bill: sameRequest(now?.bill ?? held.there, print, billId, held.late), at: now?.clock ?? held.heldTime }
    }
    if (held.late) throw validationError(held.late)
    // the statement writes unless the site has no row (a site is never deleted) or a bill of that id exists
    throw new Error(`bill ${billId}: site ${siteId} not found`)
  })
  return renderBill(bill, at.now())
}

/** what a bill made other than by the API keeps besides its request: a link's fields shown on its page */
export interface BillBesidesRequest {
  formFields?: { name: string; readonly: boolean }[]
}

/** the bill of the id already there, when `print` is its request's; else a 409 (or the deadline's 400, when `late`) */
function sameRequest(bill: Bill, print: string, billId: string, late: FieldErrors | null): Bill {
  if (bill.fingerprint === print) return bill
  throw late ? validationError(late) : requestConflict(`Bill ${billId}`)
}

/**
 * The bill judged (its deadline and recurrent expiry) and, when in time, written on `siteTime` by one
 * statement: `created` unless a bill of that id exists (ON CONFLICT DO NOTHING) or, unless the clock is
 * `held` by a write of the site (siteWrite), the site's clock is no longer `siteTime` (real time) or the
 * statement did not get the site's gate; `late`: the request's problems on that clock (nothing is written).
 */
async function writeBill(
  tx: Tx | undefined,
  siteId: string,
  billId: string,
  req: BillRequest,
  print: string,
  siteTime: SiteClock,
  o: { held?: boolean; more?: BillBesidesRequest } = {},
): Promise<{ created?: Bill; late: FieldErrors | null }> {
  // one instant: the deadline judged on it, the bill created at it
  const now = siteTime.now()
  const late = newBillProblems(req, siteTime, now)
  if (late) return { late }
  const bill = {
    fingerprint: print,
    // a CHECK_CARD bill has no amount in its request: 0.00 RUB, as production answers it
    currency: req.amount?.currency ?? CHECK_CARD_AMOUNT.currency,
    amountMinor: req.amount ? (req.amount.value ?? null) : CHECK_CARD_AMOUNT.value,
    comment: req.comment ?? null,
    flags: req.flags,
    paymentMethods: req.billPaymentMethodsType ?? [],
    successUrl: req.successUrl ?? null,
    failedUrl: req.failedUrl ?? null,
    customer: req.customer,
    recurrent: req.recurrent,
    receipt: req.receipt,
    splits: req.splits,
    cheque: req.cheque,
    customFields: req.customFields,
    formFields: o.more?.formFields,
    expiresAt: req.expirationDateTime,
  }
  const ids: [string, string] = [randomUUID(), randomUUID()]
  const created = await insertBill(tx, siteId, billId, bill, now, siteTime, { held: o.held, ids })
  return { created, late: null }
}

export interface LoadedBill {
  bill: Bill
  /** oldest first */
  payments: Payment[]
  /** its site's sandbox clock */
  clock: SiteClock
}

/** the bill and its payments, oldest first, brought up to date on its site's clock (read with it) */
export async function loadBill(
  where: { siteId: string; billId: string } | { invoiceUid: string },
): Promise<LoadedBill | null> {
  // the bill and its payments as of one moment (one snapshot: REPEATABLE READ, read only): read one after
  // the other, a payment settled in between (by the scheduler, with its bill) would show COMPLETED beside
  // a bill still CREATED
  const read = async () => {
    const [rows, payments] = await readBillWithPayments(where)
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
