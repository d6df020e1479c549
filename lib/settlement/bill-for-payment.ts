// The bill a payment belongs to: the named bill of the site, locked for the payment's transaction,
// or one created implicitly with the payment's amount (inserted with its final state: a payment
// approved at once inserts it PAID).
import { randomUUID } from 'node:crypto'
import { fieldError } from '../http/api-error'
import {
  insertImplicitBill,
  lockBill,
  type ImplicitBill,
  type JsonValue,
  type PaymentOnBill,
  type Tx,
} from './bill-store'

export { implicitBillInsert, markBillPaid, type ImplicitBill, type PaymentOnBill } from './bill-store'

/** how long an implicitly created bill stays payable */
export const IMPLICIT_BILL_LIFETIME_MS = 45 * 24 * 3600_000

export type BillState = 'CREATED' | 'PAID' | 'EXPIRED'

/**
 * the bill's state at `now`: EXPIRED once its deadline has passed unpaid, whether or not the scheduler has written it
 * yet
 */
export function billState(bill: { status: string; expiresAt: Date }, now: Date): BillState {
  if (bill.status === 'PAID' || bill.status === 'EXPIRED') return bill.status
  return bill.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : 'CREATED'
}

/** what a payment takes of the bill it names: its ids, its state, and what its payments copy */
export interface NamedBill {
  id: string
  billId: string
  state: BillState
  customFields: JsonValue
  splits: JsonValue
  cheque: JsonValue
}

/** The site's bill named by the payment, locked until the transaction ends; null when there is none. */
export async function lockNamedBill(tx: Tx, siteId: string, p: PaymentOnBill, now: Date): Promise<NamedBill | null> {
  if (!p.billId) return null
  const bill = await lockBill(tx, siteId, p.billId)
  if (!bill) return null
  if (bill.currency !== p.currency) throw fieldError('amount.currency', `must be the bill's currency ${bill.currency}`)
  if (bill.amountMinor !== null && Number(bill.amountMinor) !== p.amountMinor)
    throw fieldError('amount.value', "must be the bill's amount")
  return {
    id: bill.id,
    billId: p.billId,
    state: billState(bill, now),
    customFields: bill.customFields,
    splits: bill.splits,
    cheque: bill.cheque,
  }
}

/** The identifiers and lifetime of an implicit bill, chosen before it is written. */
export function implicitBill(p: PaymentOnBill, now: Date): ImplicitBill {
  return {
    id: randomUUID(),
    billId: p.billId ?? randomUUID(),
    invoiceUid: randomUUID(),
    expiresAt: new Date(now.getTime() + IMPLICIT_BILL_LIFETIME_MS),
  }
}

/** A bill for a payment that named none (or one that does not exist yet), in the state given. */
export async function createImplicitBill(
  tx: Tx,
  siteId: string,
  p: PaymentOnBill,
  paid: boolean,
  now: Date,
): Promise<{ id: string; billId: string }> {
  const bill = implicitBill(p, now)
  // a plain statement on the hot path of payment creation
  await insertImplicitBill(tx, siteId, p, bill, paid, now)
  return bill
}
