// Payment tokens. A COMPLETED BIND_PAYMENT_TOKEN card payment issues one, bound to the site and the
// customer account. The token is an HMAC of the binding payment's id, so every answer about that
// payment can repeat it while the database keeps only its SHA-256.
import { sign } from '../security/keyed-hash'
import { storedMethodOf } from './methods'
import { tokenHash } from './methods/token'
import type { Payment, Tx } from './payment-store'
import { insertPaymentToken } from './payment-token-store'

export const paymentTokenOf = (paymentRef: string) => `pt_${sign('payment-token', paymentRef)}`

/** Whether a payment carries `createdToken` (its stored method issues tokens: a card's) */
export function issuesToken(p: Pick<Payment, 'status' | 'flags' | 'methodType' | 'customer'>): boolean {
  return (
    p.status === 'COMPLETED' &&
    storedMethodOf(p.methodType)?.issuesTokens === true &&
    p.flags.includes('BIND_PAYMENT_TOKEN') &&
    !!accountOf(p.customer)
  )
}

export function accountOf(customer: unknown): string | undefined {
  const account = (customer as { account?: unknown } | null)?.account
  return typeof account === 'string' ? account : undefined
}

/** records the token of a payment that has just completed */
export async function recordToken(tx: Tx, p: Payment): Promise<void> {
  if (!issuesToken(p)) return
  await insertPaymentToken(tx, {
    siteId: p.siteId,
    account: accountOf(p.customer)!,
    tokenHash: tokenHash(paymentTokenOf(p.id)),
    paymentRef: p.id,
  })
}
