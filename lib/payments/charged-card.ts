// What a payment that charged a card tells of it, in its answers (lib/payments/payment-wire.ts) and its
// notifications (notification-body.ts) alike: the masked number, its issuer by BIN (paymentCardInfo), and once
// approved, the authorisation's retrieval reference number and code; notifications add the holder's name, the
// expiry and the 3-D Secure result. Sandbox values, derived from the payment, so that every answer repeats them.
import { z } from 'zod'
import { cardInfoOf } from '../acquirer/card-info'
import type { CardProfile } from '../acquirer/sandbox-acquirer'
import { fingerprint } from '../security/keyed-hash'
import { storedMethodOf } from './methods'
import type { Payment } from './payment-store'

export const cardInfoSchema = z
  .strictObject({
    issuingCountry: z.string(),
    issuingBank: z.string(),
    paymentSystem: z.string(),
    fundingSource: z.string(),
    paymentSystemProduct: z.string(),
  })
  .meta({ id: 'PaymentCardInfo', description: "sandbox values by the card's BIN" })
export type CardInfo = z.infer<typeof cardInfoSchema>

export interface ChargedCard {
  maskedPan: string
  info: CardInfo
  /** an approved payment's retrieval reference number (12 digits) and authorisation code (6), else null */
  rrn: string | null
  authCode: string | null
  /** the holder's name as the card payment's request gave it, or null */
  cardHolder: string | null
  /** MM/YYYY, or null when the payment keeps no expiry (a wallet's device card) */
  cardExpireDate: string | null
  /** the e-commerce indicator of the authorisation, as the card's scheme writes it (without a leading zero) */
  eci: string
}

/** sandbox retrieval reference number and authorisation code of an approved card payment: derived, so they repeat */
const digitsOf = (purpose: string, paymentRef: string, n: number) =>
  (BigInt(`0x${fingerprint(purpose, paymentRef).slice(0, 15)}`) % 10n ** BigInt(n)).toString().padStart(n, '0')

/**
 * The e-commerce indicator: the payer authenticated by 3-D Secure, or not (a payment without a challenge, or one
 * whose challenge failed). Mastercard writes 2 and 0 (its SLI), the other schemes 5 and 7, as Visa does.
 */
function eciOf(paymentSystem: string, authenticated: boolean): string {
  if (paymentSystem === 'MASTERCARD') return authenticated ? '2' : '0'
  return authenticated ? '5' : '7'
}

type CardRow = Pick<Payment, 'id' | 'methodType' | 'maskedPan' | 'status' | 'authFlow' | 'cardProfile' | 'cardHolder'>

/** the card a payment charged, or null when it charged none (a phone, SBP) */
export function chargedCardOf(p: CardRow): ChargedCard | null {
  // a stored type the registry does not know (none is written today) tells its masked card, as before the registry
  const method = storedMethodOf(p.methodType)
  const maskedPan = method ? method.notifiedPan(p) : p.maskedPan || null
  if (maskedPan === null) return null
  const approved = p.status === 'COMPLETED'
  const info = cardInfoOf(maskedPan)
  const expiry = p.cardProfile as unknown as CardProfile | null
  return {
    maskedPan,
    info,
    rrn: approved ? digitsOf('rrn', p.id, 12) : null,
    authCode: approved ? digitsOf('auth-code', p.id, 6) : null,
    cardHolder: p.cardHolder ?? null,
    cardExpireDate: expiry ? `${String(expiry.month).padStart(2, '0')}/${expiry.year}` : null,
    eci: eciOf(info.paymentSystem, approved && p.authFlow === 'THREE_DS'),
  }
}
