// What a payment request charges, and how the sandbox answers at once: its method's charge (lib/payments/methods),
// with nothing read (a card, a phone) or by a lookup in the payment's transaction (a token, a recurrent series).
import type { Tx } from './payment-store'
import { methodOf } from './methods'
import type { Instrument } from './methods/payment-method'
import type { PaymentRequest } from './payment-request'

export type { FirstAnswer, Instrument } from './methods/payment-method'

const methodOfRequest = (req: PaymentRequest) => {
  const method = methodOf(req.paymentMethod.type)
  if (!method) throw new Error(`no payment method ${req.paymentMethod.type}`)
  return method
}

/**
 * A card or a phone number: what it charges and the sandbox's first answer, with no lookup; null for a method that
 * reads the database first (a token, a recurrent charge).
 */
export function directInstrument(req: PaymentRequest, now: Date): Instrument | null {
  const { charge } = methodOfRequest(req)
  return 'direct' in charge ? charge.direct(req.paymentMethod, now) : null
}

export async function resolveInstrument(
  tx: Tx,
  siteId: string,
  req: PaymentRequest,
  now: Date,
  payerReturnUrl?: string,
): Promise<Instrument> {
  const { charge } = methodOfRequest(req)
  if ('direct' in charge) return charge.direct(req.paymentMethod, now)
  return charge.lookup(tx, req.paymentMethod, {
    siteId,
    account: req.customer?.account,
    now,
    amountMinor: req.amount.value,
    comment: req.comment,
    payerReturnUrl,
  })
}
