// The bill a payment belongs to: the named bill of the site, locked for the payment's transaction,
// or one created implicitly with the payment's amount (inserted with its final state: a payment
// approved at once inserts it PAID).
import { randomUUID } from 'node:crypto'
import { jsonParam, type Tx } from '../db/client'
import { Prisma } from '../generated/prisma/client'
import { fieldError } from '../http/api-error'

/** how long an implicitly created bill stays payable */
export const IMPLICIT_BILL_LIFETIME_MS = 45 * 24 * 3600_000

export type BillState = 'CREATED' | 'PAID' | 'EXPIRED'

export interface PaymentOnBill {
  billId?: string
  amountMinor: number
  currency: string
  flags: string[]
  comment?: string
  customer?: object
}

/**
 * the bill's state at `now`: EXPIRED once its deadline has passed unpaid, whether or not the scheduler has written it
 * yet
 */
export function billState(bill: { status: string; expiresAt: Date }, now: Date): BillState {
  if (bill.status === 'PAID' || bill.status === 'EXPIRED') return bill.status
  return bill.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : 'CREATED'
}

/** The site's bill named by the payment, locked until the transaction ends; null when there is none. */
export async function lockNamedBill(
  tx: Tx,
  siteId: string,
  p: PaymentOnBill,
  now: Date,
): Promise<{ id: string; billId: string; state: BillState; customFields: Prisma.JsonValue } | null> {
  if (!p.billId) return null
  const rows = await tx.$queryRaw<
    {
      id: string
      currency: string
      amountMinor: bigint | null
      status: string
      expiresAt: Date
      customFields: Prisma.JsonValue
    }[]
  >`
    SELECT id, currency, "amountMinor", status, "expiresAt", "customFields" FROM "Bill" WHERE "siteId" = ${siteId} AND "billId" = ${p.billId} FOR UPDATE`
  const bill = rows[0]
  if (!bill) return null
  if (bill.currency !== p.currency) throw fieldError('amount.currency', `must be the bill's currency ${bill.currency}`)
  if (bill.amountMinor !== null && Number(bill.amountMinor) !== p.amountMinor)
    throw fieldError('amount.value', "must be the bill's amount")
  return { id: bill.id, billId: p.billId, state: billState(bill, now), customFields: bill.customFields }
}

export interface ImplicitBill {
  id: string
  billId: string
  invoiceUid: string
  expiresAt: Date
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
  await tx.$executeRaw(implicitBillInsert(siteId, p, bill, paid, now))
  return bill
}

export async function markBillPaid(tx: Tx, billRef: string, now: Date): Promise<void> {
  await tx.bill.update({ where: { id: billRef }, data: { status: 'PAID', statusChangedAt: now }, select: { id: true } })
}
