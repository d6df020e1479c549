// The row lock under which captures and refunds of one payment are decided: concurrent captures and
// refunds of a payment run one after another, so no interleaving can break
// refunded ≤ captured ≤ amount.
import type { Tx } from '../db/client'
import { fieldError, notFound } from '../http/api-error'
import type { AmountInput } from '../wire/common-schemas'
export interface LockedPayment {
  id: string
  status: string
  flags: string[]
  currency: string
  amountMinor: number
  capturedMinor: number
  refundedMinor: number
  reversed: boolean
}

/** Locks the site's payment for the rest of the transaction (404 when there is none). */
export async function lockPayment(tx: Tx, siteId: string, paymentId: string): Promise<LockedPayment> {
  const rows = await tx.$queryRaw<(Omit<LockedPayment, 'amountMinor' | 'capturedMinor' | 'refundedMinor'> & {
    amountMinor: bigint
    capturedMinor: bigint
    refundedMinor: bigint
  })[]>`SELECT id, status, flags, currency, "amountMinor", "capturedMinor", "refundedMinor", reversed
        FROM "Payment" WHERE "siteId" = ${siteId} AND "paymentId" = ${paymentId} FOR UPDATE`
  const p = rows[0]
  if (!p) throw notFound('Payment')
  return { ...p, amountMinor: Number(p.amountMinor), capturedMinor: Number(p.capturedMinor), refundedMinor: Number(p.refundedMinor) }
}

export function checkCurrency(amount: AmountInput | undefined, p: LockedPayment) {
  if (amount && amount.currency !== p.currency) throw fieldError('amount.currency', `must be the payment's currency ${p.currency}`)
}

