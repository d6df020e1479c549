// What the dashboard shows and does with a site's bills: the list (newest first, by cursor), a bill with
// its payments and audit entries, and "New bill". A new bill goes through the very service the API's
// PUT .../bills/{billId} runs (lib/billing/bill-service.ts: the same parsing, limits, 45-day window, URL
// rules, idempotency and errors); the form's bill id is made when the form is shown, so a form sent
// twice creates one bill, as an API replay does. Reads only otherwise; no framework imports.
import * as currencies from 'dinero.js/currencies'
import { billState, type BillState } from '../settlement/bill-for-payment'
import type { BillRequest } from '../bills/bill-request'
import { createBill, loadBill } from '../billing/bill-service'
import { payUrlOf } from '../bills/bill-wire'
import { listSiteBills, type Bill, type Payment } from '../settlement/bill-store'
import { isKnownCurrency } from '../money/money'
import { billAudit } from './audit-store'
import { recordAudit } from './dashboard-audit'
import { decodeCursor, pageOf } from './dashboard-cursor'
import type { DashboardSession } from './dashboard-session'
import { siteClock } from '../sites/site-store'

export const BILL_PAGE_SIZE = 20

/** the currencies the bill API accepts (its own check decides), for the form's select */
export const BILL_CURRENCIES: readonly string[] = Object.keys(currencies).filter(isKnownCurrency).sort()

export interface BillListRow {
  billId: string
  createdAt: Date
  /** null: an open amount (the payer enters it) */
  amountMinor: bigint | null
  currency: string
  status: BillState
  expiresAt: Date
}

/** the site's bills, newest first, a page at a time: `after` is the cursor `nextCursor` gave */
export async function listBills(
  siteId: string,
  after?: string,
): Promise<{ rows: BillListRow[]; nextCursor: string | null }> {
  const rows = await listSiteBills(siteId, decodeCursor(after), BILL_PAGE_SIZE + 1)
  const { page, nextCursor } = pageOf(rows, BILL_PAGE_SIZE)
  const now = (await siteClock(siteId)).now()
  return {
    // EXPIRED once the deadline has passed unpaid, whether or not the scheduler has written it yet
    rows: page.map((b) => ({
      billId: b.billId,
      createdAt: b.createdAt,
      amountMinor: b.amountMinor,
      currency: b.currency,
      status: billState(b, now),
      expiresAt: b.expiresAt,
    })),
    nextCursor,
  }
}

export interface BillDetails {
  bill: Bill
  status: BillState
  payUrl: string
  payments: Payment[]
  audit: { at: Date; actor: string; action: string; outcome: string }[]
}

/**
 * The site's bill as the API reads it (its payments' due changes applied), with its payments (newest first) and
 * dashboard actions; null when the site has none by that id.
 */
export async function billDetails(siteId: string, billId: string): Promise<BillDetails | null> {
  const loaded = await loadBill({ siteId, billId })
  if (!loaded) return null
  const audit = await billAudit(siteId, billId)
  return {
    bill: loaded.bill,
    status: billState(loaded.bill, loaded.clock.now()),
    payUrl: payUrlOf(loaded.bill.invoiceUid),
    payments: [...loaded.payments].reverse(),
    audit,
  }
}

/**
 * "Create bill": the API's bill creation for the session's site, then an audit entry (who, which bill,
 * its status). A refusal (400, 409) is the service's own and is answered as is; it writes nothing.
 */
export async function createBillFromDashboard(session: DashboardSession, billId: string, req: BillRequest) {
  const bill = await createBill(session.siteId, billId, req)
  await recordAudit(session, {
    action: 'bill',
    subject: billId,
    outcome: bill.status.value,
    detail: {
      amount: 'value' in bill.amount && bill.amount.value ? bill.amount.value : 'open',
      currency: bill.amount.currency,
      expires: bill.expirationDateTime,
    },
  })
  return bill
}
