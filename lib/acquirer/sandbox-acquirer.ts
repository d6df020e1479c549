// The sandbox acquirer: no card network is connected; a card's outcome is decided by its number, as
// the contract's test-card table says, and for production's test cards by their expiry month, CVV and holder name
// (production's test-mode rules). Pure functions: nothing here stores or logs a card.

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
  | DelayedAnswer

/**
 * the issuer answers PRODUCTION_TEST_DELAY_MS later (production's test cards, expiry months 03 and 04): the payment
 * waits, then is approved, or declined ACQUIRING_DECLINED
 */
export interface DelayedAnswer {
  kind: 'delayed'
  approved: boolean
}

/** The test-card table of the contract; any other Luhn-valid number is approved frictionless. */
export const TEST_CARDS: Readonly<Record<string, Exclude<CardOutcome, DelayedAnswer>>> = {
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

/**
 * Production's test card numbers, as its documentation lists them ("Test card numbers" of the test mode), by
 * network. Their outcome follows production's rules (PRODUCTION_TEST_MONTHS, productionThreeDS) rather than the
 * number. 2200000000000004 is also in TEST_CARDS, and there it stays: approved whatever its expiry and CVV, as the
 * sandbox's table has always said and existing integrations (the README's Mir card, the stress test) rely on.
 */
export const PRODUCTION_TEST_CARDS: Readonly<Record<'Mir' | 'Visa' | 'Mastercard' | 'UnionPay', readonly string[]>> = {
  Mir: [
    '2200000000000004',
    '2200000000000012',
    '2200000000000020',
    '2200000000000038',
    '2200000000000046',
    '2200000000000053',
    '2200000000000061',
    '2200000000000079',
    '2200000000000087',
    '2200000000000095',
    '2200000000000103',
    '2200000000000111',
  ],
  Visa: [
    '4256000000000003',
    '4256000000000011',
    '4256000000000029',
    '4256000000000037',
    '4256000000000045',
    '4256000000000052',
    '4256000000000060',
    '4256000000000078',
    '4256000000000086',
    '4256000000000094',
    '4256000000000102',
    '4256000000000110',
  ],
  Mastercard: [
    '5236000000000005',
    '5236000000000013',
    '5236000000000021',
    '5236000000000039',
    '5236000000000047',
    '5236000000000054',
    '5236000000000062',
    '5236000000000088',
    '5236000000000096',
    '5236000000000104',
    '5236000000000112',
    '5236000000000120',
  ],
  UnionPay: [
    '6056000000000000',
    '6056000000000018',
    '6056000000000026',
    '6056000000000034',
    '6056000000000042',
    '6056000000000059',
    '6056000000000067',
    '6056000000000075',
    '6056000000000083',
    '6056000000000091',
    '6056000000000109',
    '6056000000000117',
  ],
}

const productionTestCards = new Set(Object.values(PRODUCTION_TEST_CARDS).flat())

/** whether production's test rules decide this number's outcome (a number of both tables keeps the sandbox's) */
export const isProductionTestCard = (pan: string) => productionTestCards.has(pan) && !(pan in TEST_CARDS)

/** production's test rules by the card's expiry month (1–12); any other month approves */
export const PRODUCTION_TEST_MONTHS: Readonly<Record<number, CardProfile['outcome']>> = {
  2: 'ACQUIRING_DECLINED',
  3: 'delayedApproval',
  4: 'delayedDecline',
}

/** how long production's test cards of months 03 and 04 take to answer */
export const PRODUCTION_TEST_DELAY_MS = 3000

/** the CVV that asks production's test cards for 3-D Secure */
export const PRODUCTION_THREE_DS_CVV = '849'

/**
 * What the payer enters besides the number and expiry. It decides only production's 3-D Secure rule, and is never
 * kept: a card's profile (what a token or a recurrent series charges again) has neither.
 */
export interface CardholderEntry {
  cvv: string
  holderName?: string
}

/** production's 3-D Secure rule: its test cards ask for it when the CVV is 849 or the holder's name holds `3ds` */
export const productionThreeDS = (pan: string, entry: CardholderEntry) =>
  isProductionTestCard(pan) && (entry.cvv === PRODUCTION_THREE_DS_CVV || /3ds/i.test(entry.holderName ?? ''))

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
 * class and expiry, never its number or code. A production test card's class is its month's rule, so that its token
 * and its series follow the same rule (a token of an 03 card waits 3 s, then is approved, at every charge); its
 * 3-D Secure rule needs the CVV or holder name, which a token or recurrent charge does not carry.
 */
export interface CardProfile {
  /** `delayedApproval`, `delayedDecline`: answered PRODUCTION_TEST_DELAY_MS later (DelayedAnswer) */
  outcome: 'approved' | 'threeDS' | 'otp' | 'delayedApproval' | 'delayedDecline' | DeclineReason
  month: number
  year: number
}

export function cardProfile(pan: string, expiry: CardExpiry): CardProfile {
  const { month, year } = expiry
  if (isProductionTestCard(pan)) return { outcome: PRODUCTION_TEST_MONTHS[month] ?? 'approved', month, year }
  const o = TEST_CARDS[pan] ?? { kind: 'approved' }
  return { outcome: o.kind === 'declined' ? o.reason : o.kind, month, year }
}

/** the outcome of charging a card (or its token, or its recurrent series) now */
export function chargeOutcome(profile: CardProfile, now: Date): CardOutcome {
  if (isExpired(profile, now)) return { kind: 'declined', reason: 'ACQUIRING_EXPIRED_CARD' }
  const o = profile.outcome
  if (o === 'delayedApproval' || o === 'delayedDecline') return { kind: 'delayed', approved: o === 'delayedApproval' }
  return o === 'approved' || o === 'threeDS' || o === 'otp' ? { kind: o } : { kind: 'declined', reason: o }
}

/**
 * the outcome of a card entered now: an expired card declines; then production's 3-D Secure rule (with `entry`),
 * whatever the month (the challenge's result stands); then the card's class
 */
export function cardOutcome(pan: string, expiry: CardExpiry, now: Date, entry?: CardholderEntry): CardOutcome {
  if (entry && productionThreeDS(pan, entry) && !isExpired(expiry, now)) return { kind: 'threeDS' }
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
