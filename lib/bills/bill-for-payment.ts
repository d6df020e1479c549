// The bill a payment belongs to: the named bill of the site, locked for the payment's transaction,
// or one created implicitly with the payment's amount.
import { randomUUID } from 'node:crypto'
import type { Tx } from '../db/client'
import { fieldError } from '../http/api-error'

/** how long an implicitly created bill stays payable */
export const IMPLICIT_BILL_LIFETIME_MS = 45 * 24 * 3600_000

export interface BillForPayment {
  id: string
  billId: string
  /** CREATED, PAID or EXPIRED at `now` */
  state: 'CREATED' | 'PAID' | 'EXPIRED'
}

export interface PaymentOnBill {
  billId?: string
  amountMinor: number
  currency: string
  flags: string[]
  comment?: string
  customer?: object
}

export function billState(bill: { status: string; expiresAt: Date }, now: Date): BillForPayment['state'] {
  if (bill.status === 'PAID') return 'PAID'
  return bill.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : 'CREATED'
}

export async function billForPayment(tx: Tx, siteId: string, p: PaymentOnBill, now: Date): Promise<BillForPayment> {
  if (p.billId) {
    const rows = await tx.$queryRaw<
      { id: string; currency: string; amountMinor: bigint | null; status: string; expiresAt: Date }[]
    >`SELECT id, currency, "amountMinor", status, "expiresAt" FROM "Bill" WHERE "siteId" = ${siteId} AND "billId" = ${p.billId} FOR UPDATE`
    const bill = rows[0]
    if (bill) {
      if (bill.currency !== p.currency) throw fieldError('amount.currency', `must be the bill's currency ${bill.currency}`)
      if (bill.amountMinor !== null && Number(bill.amountMinor) !== p.amountMinor)
        throw fieldError('amount.value', "must be the bill's amount")
      return { id: bill.id, billId: p.billId, state: billState(bill, now) }
    }
  }
  const billId = p.billId ?? randomUUID()
  const created = await tx.bill.create({
    data: {
      siteId,
      billId,
      invoiceUid: randomUUID(),
      currency: p.currency,
      amountMinor: p.amountMinor,
      comment: p.comment,
      flags: p.flags,
      customer: p.customer,
      status: 'CREATED',
      statusChangedAt: now,
      createdAt: now,
      expiresAt: new Date(now.getTime() + IMPLICIT_BILL_LIFETIME_MS),
    },
    select: { id: true },
  })
  return { id: created.id, billId, state: 'CREATED' }
}

export async function markBillPaid(tx: Tx, billRef: string, now: Date): Promise<void> {
  await tx.bill.update({ where: { id: billRef }, data: { status: 'PAID', statusChangedAt: now } })
}
