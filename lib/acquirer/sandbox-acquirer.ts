// The sandbox acquirer: no card network is connected; a card's outcome is decided by its number, as
// the contract's test-card table says. Pure functions: nothing here stores or logs a card.

/** the contract's decline reasons (status.reason of a DECLINED payment, capture or refund) */
export const DECLINE_REASONS = [
  'ACQUIRING_DECLINED',
  'ACQUIRING_INSUFFICIENT_FUNDS',
  'ACQUIRING_EXPIRED_CARD',
  'ACQUIRING_INCORRECT_CVV',
  'TRY_AGAIN_LATER',
  'DECLINED_BY_MPI',
  'PAYMENT_EXPIRED_3DS',
  'INVALID_OTP',
  'INVALID_STATE',
  'INVALID_AMOUNT',
  'BILL_ALREADY_PAID',
  'BILL_EXPIRED',
  'REATTEMPT_NOT_PERMITTED',
  'RECURRENT_EXPIRED',
  'SBP_DECLINED_BY_PAYER',
  'SBP_QR_EXPIRED',
  'REFUND_DECLINED_BY_MERCHANT',
] as const
export type DeclineReason = (typeof DECLINE_REASONS)[number]

export type CardOutcome =
  | { kind: 'approved' }
  | { kind: 'declined'; reason: DeclineReason }
  /** 3-D Secure challenge: the payer chooses the result on the access-control page */
  | { kind: 'threeDS' }
  /** a one-time code is asked */
  | { kind: 'otp' }

/** The test-card table of the contract; any other Luhn-valid number is approved frictionless. */
export const TEST_CARDS: Readonly<Record<string, CardOutcome>> = {
  '4111111111111111': { kind: 'approved' },
  '5555555555554444': { kind: 'approved' },
  '2200000000000004': { kind: 'approved' },
  '4000000000000002': { kind: 'declined', reason: 'ACQUIRING_DECLINED' },
  '4000000000009995': { kind: 'declined', reason: 'ACQUIRING_INSUFFICIENT_FUNDS' },
  '4000000000000069': { kind: 'declined', reason: 'ACQUIRING_EXPIRED_CARD' },
  '4000000000000127': { kind: 'declined', reason: 'ACQUIRING_INCORRECT_CVV' },
  '4000000000000119': { kind: 'declined', reason: 'TRY_AGAIN_LATER' },
  '4000000000003220': { kind: 'threeDS' },
  '4000000000001000': { kind: 'otp' },
}

export function luhnValid(pan: string): boolean {
  if (!/^\d{13,19}$/.test(pan)) return false
  let sum = 0
  for (let i = 0; i < pan.length; i++) {
    let d = pan.charCodeAt(pan.length - 1 - i) - 48
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/** `411111******1111`: the first six and last four digits, as card networks allow to show */
export function maskPan(pan: string): string {
  return pan.slice(0, 6) + '*'.repeat(pan.length - 10) + pan.slice(-4)
}

export interface CardExpiry {
  month: number
  /** four digits */
  year: number
}

/** `MM/YY` → month and year, or null */
export function parseExpiry(text: string): CardExpiry | null {
  const m = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(text)
  return m ? { month: Number(m[1]), year: 2000 + Number(m[2]) } : null
}

/** A card is valid through the last day of its expiry month. */
export function isExpired(expiry: CardExpiry, now: Date): boolean {
  const y = now.getUTCFullYear()
  const m = now.getUTCMonth() + 1
  return expiry.year < y || (expiry.year === y && expiry.month < m)
}

/**
 * What the sandbox keeps of a card to charge it again (payment tokens, recurrent series): its outcome
 * class and expiry, never its number or code.
 */
export interface CardProfile {
  outcome: 'approved' | 'threeDS' | 'otp' | DeclineReason
  month: number
  year: number
}

export function cardProfile(pan: string, expiry: CardExpiry): CardProfile {
  const o = TEST_CARDS[pan] ?? { kind: 'approved' }
  return { outcome: o.kind === 'declined' ? o.reason : o.kind, month: expiry.month, year: expiry.year }
}

/** the outcome of charging a card (or its token, or its recurrent series) now */
export function chargeOutcome(profile: CardProfile, now: Date): CardOutcome {
  if (isExpired(profile, now)) return { kind: 'declined', reason: 'ACQUIRING_EXPIRED_CARD' }
  const o = profile.outcome
  return o === 'approved' || o === 'threeDS' || o === 'otp' ? { kind: o } : { kind: 'declined', reason: o }
}

export function cardOutcome(pan: string, expiry: CardExpiry, now: Date): CardOutcome {
  return chargeOutcome(cardProfile(pan, expiry), now)
}

/**
 * Mobile-balance payments: a phone ending in 0000 is confirmed by the emulated operator after a delay,
 * one ending in 0001 is rejected after it; any other asks the payer for the code sent by SMS.
 */
export type MobileScenario = 'OPERATOR_CONFIRM' | 'OPERATOR_REJECT' | 'OTP'

export function mobileScenario(phone: string): MobileScenario {
  if (phone.endsWith('0000')) return 'OPERATOR_CONFIRM'
  if (phone.endsWith('0001')) return 'OPERATOR_REJECT'
  return 'OTP'
}

/** `+*******1234` */
export function maskPhone(phone: string): string {
  return `+${'*'.repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}`
}
