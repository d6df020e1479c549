// Payment tokens. A COMPLETED BIND_PAYMENT_TOKEN card payment issues one, bound to the site and the
// customer account. The token is an HMAC of the binding payment's id, so every answer about that
// payment can repeat it while the database keeps only its SHA-256. A valid card's verification (lib/card-checks)
// issues one the same way, derived from the verification's id, which then names it as a payment's id does.
import type { CardProfile } from '../acquirer/sandbox-acquirer'
import { sign } from '../security/keyed-hash'
import { formatLocalMidnight } from '../time/wire-time'
import { storedMethodOf } from './methods'
import { tokenHash } from './methods/token'
import type { Payment, Tx } from './payment-store'
import { insertCheckToken, insertPaymentToken } from './payment-token-store'

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

/** a token lasts as long as its card: through the card's expiry month (midnight starting its last day) */
export function tokenExpiredDate(card: Pick<CardProfile, 'month' | 'year'>): string {
  const lastDay = new Date(Date.UTC(card.year, card.month, 0)).getUTCDate()
  return formatLocalMidnight(card.year, card.month, lastDay)
}

/** records the token of a valid card's verification `checkRef`, bound to the site and account; the token */
export async function recordCheckToken(
  tx: Tx,
  check: {
    siteId: string
    account: string
    checkRef: string
    profile: CardProfile
    maskedPan: string
    cardHolder: string | null
  },
): Promise<string> {
  const token = paymentTokenOf(check.checkRef)
  await insertCheckToken(tx, {
    siteId: check.siteId,
    account: check.account,
    tokenHash: tokenHash(token),
    checkRef: check.checkRef,
    cardProfile: check.profile,
    maskedPan: check.maskedPan,
    cardHolder: check.cardHolder,
  })
  return token
}
