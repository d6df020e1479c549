// What a payment request charges, and how the sandbox answers at once: a card, a payment token (its
// card's outcome), a recurrent series (its first payment's card, under the series' rules) or a
// mobile-operator balance.
import {
  chargeOutcome,
  cardProfile,
  maskPan,
  maskPhone,
  mobileScenario,
  type CardProfile,
  type DeclineReason,
} from '../acquirer/sandbox-acquirer'
import type { Tx } from '../db/client'
import type { Payment } from '../generated/prisma/client'
import { fieldError } from '../http/api-error'
import type { PaymentRequest } from './payment-request'
import { paymentOfToken } from './payment-tokens'

export type FirstAnswer =
  | { kind: 'approved' }
  | { kind: 'declined'; reason: DeclineReason }
  | { kind: 'threeDS' }
  | { kind: 'otp'; text: string }
  | { kind: 'operator'; decision: 'OPERATOR_CONFIRM' | 'OPERATOR_REJECT' }

export interface Instrument {
  methodType: 'CARD' | 'TOKEN' | 'MOBILE'
  maskedPan?: string
  profile?: CardProfile
  seriesRef?: string
  answer: FirstAnswer
}

const DAY_MS = 24 * 3600_000
const CARD_OTP_TEXT = "Enter the one-time code sent to the cardholder's phone"

function cardAnswer(profile: CardProfile, now: Date): FirstAnswer {
  const o = chargeOutcome(profile, now)
  return o.kind === 'otp' ? { kind: 'otp', text: CARD_OTP_TEXT } : o
}

/**
 * A card or a phone number: what it charges and the sandbox's first answer, with no lookup; null for a token or a
 * recurrent charge.
 */
export function directInstrument(req: PaymentRequest, now: Date): Instrument | null {
  const m = req.paymentMethod
  switch (m.type) {
    case 'CARD': {
      const profile = cardProfile(m.pan, m.expiryDate)
      return { methodType: 'CARD', maskedPan: maskPan(m.pan), profile, answer: cardAnswer(profile, now) }
    }
    case 'MOBILE': {
      const scenario = mobileScenario(m.phone)
      return {
        methodType: 'MOBILE',
        answer:
          scenario === 'OTP'
            ? { kind: 'otp', text: `Enter the code sent by SMS to ${maskPhone(m.phone)}` }
            : { kind: 'operator', decision: scenario },
      }
    }
    default:
      return null
  }
}

export async function resolveInstrument(tx: Tx, siteId: string, req: PaymentRequest, now: Date): Promise<Instrument> {
  const direct = directInstrument(req, now)
  if (direct) return direct
  const m = req.paymentMethod
  switch (m.type) {
    case 'TOKEN': {
      const binding = await paymentOfToken(tx, siteId, req.customer!.account!, m.paymentToken)
      if (!binding?.cardProfile)
        throw fieldError('paymentMethod.paymentToken', 'is not a payment token of this site and customer account')
      const profile = binding.cardProfile as unknown as CardProfile
      return {
        methodType: 'TOKEN',
        maskedPan: binding.maskedPan ?? undefined,
        profile,
        answer: cardAnswer(profile, now),
      }
    }
    case 'RECURRENT':
      return recurrentCharge(tx, siteId, m.firstPaymentId, now)
    default:
      throw new Error(`no instrument for ${m.type}`)
  }
}

/**
 * A charge of a recurrent series: the first payment must be a COMPLETED RECURRENT_FIRST payment of the
 * site; after the series' expiry date it declines RECURRENT_EXPIRED, and sooner than `minAuthDay` days
 * after the series' last COMPLETED charge REATTEMPT_NOT_PERMITTED. The first payment's row is locked,
 * so concurrent charges of one series are decided one after another.
 */
async function recurrentCharge(tx: Tx, siteId: string, firstPaymentId: string, now: Date): Promise<Instrument> {
  const [first] = await tx.$queryRaw<
    Payment[]
  >`SELECT * FROM "Payment" WHERE "siteId" = ${siteId} AND "paymentId" = ${firstPaymentId} FOR UPDATE`
  if (!first || first.status !== 'COMPLETED' || !first.flags.includes('RECURRENT_FIRST') || !first.cardProfile)
    throw fieldError('paymentMethod.firstPaymentId', 'must name a COMPLETED RECURRENT_FIRST payment of this site')
  const profile = first.cardProfile as unknown as CardProfile
  const base = { methodType: 'CARD' as const, maskedPan: first.maskedPan ?? undefined, profile, seriesRef: first.id }
  if (now.toISOString().slice(0, 10) > first.recurrentExpiry!)
    return { ...base, answer: { kind: 'declined', reason: 'RECURRENT_EXPIRED' } }
  const last = await tx.payment.findFirst({
    where: { seriesRef: first.id, status: 'COMPLETED' },
    orderBy: { statusChangedAt: 'desc' },
    select: { statusChangedAt: true },
  })
  const lastCharge = last?.statusChangedAt ?? first.statusChangedAt
  if (now.getTime() - lastCharge.getTime() < first.recurrentMinAuthDay! * DAY_MS)
    return { ...base, answer: { kind: 'declined', reason: 'REATTEMPT_NOT_PERMITTED' } }
  return { ...base, answer: cardAnswer(profile, now) }
}
