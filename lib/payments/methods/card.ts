// CARD: a card number, expiry and CVV. The sandbox decides by the number (the test-card table); the card
// itself is never stored, logged or answered: the payment keeps its masked number and its profile (outcome
// class and expiry), which a token or a recurrent series charges again.
import { z } from 'zod'
import {
  cardProfile,
  chargeOutcome,
  luhnValid,
  maskPan,
  parseExpiry,
  type CardExpiry,
  type CardProfile,
} from '../../acquirer/sandbox-acquirer'
import { writtenAs } from '../../wire/wire-form'
import { definePaymentMethod, type FirstAnswer, type StoredMethod } from './payment-method'

export const cardMethodSchema = z
  .object({
    type: z.literal('CARD'),
    pan: z
      .string({ error: 'is required for CARD' })
      .regex(/^\d{13,19}$/, 'must be 13-19 digits')
      .refine(luhnValid, 'is not a valid card number')
      .meta({
        description: 'the card number, Luhn-valid (the sandbox decides the outcome by it: see the test cards)',
        examples: ['4111111111111111'],
      }),
    expiryDate: writtenAs(
      z.string({ error: 'is required for CARD, as MM/YY' }).transform((s, ctx): CardExpiry => {
        const e = parseExpiry(s)
        if (!e) {
          ctx.addIssue({ code: 'custom', message: 'must be MM/YY' })
          return z.NEVER
        }
        return e
      }),
      {
        type: 'string',
        pattern: '^(0[1-9]|1[0-2])/\\d{2}$',
        description: 'MM/YY (a past month declines ACQUIRING_EXPIRED_CARD)',
        examples: ['12/30'],
      },
    ),
    cvv2: z.string({ error: 'is required for CARD' }).regex(/^\d{3,4}$/, 'must be 3-4 digits'),
  })
  .meta({
    id: 'CardPaymentMethod',
    description: 'a card; never stored, logged or answered (answers carry the masked number)',
  })

const CARD_OTP_TEXT = "Enter the one-time code sent to the cardholder's phone"

/** the sandbox's first answer to charging a card now (also through its token or its recurrent series) */
export function cardAnswer(profile: CardProfile, now: Date): FirstAnswer {
  const o = chargeOutcome(profile, now)
  return o.kind === 'otp' ? { kind: 'otp', text: CARD_OTP_TEXT } : o
}

/** a card payment's row; also a recurrent charge's, which charges its series' card */
export const storedCard: StoredMethod = {
  methodType: 'CARD',
  capturesOnApproval: false,
  issuesTokens: true,
  answersPan: true,
  notifiedPan: (p) => p.maskedPan || null,
}

/** the card of the OpenAPI examples (also a recurrent series' first payment's) */
export const exampleCard = { type: 'CARD', pan: '4111111111111111', expiryDate: '12/30', cvv2: '123' }

export const cardMethod = definePaymentMethod({
  position: 10,
  type: 'CARD',
  schema: cardMethodSchema,
  charges: 'a card',
  storedAs: storedCard,
  charge: {
    direct(m, now) {
      const profile = cardProfile(m.pan, m.expiryDate)
      return { methodType: storedCard.methodType, maskedPan: maskPan(m.pan), profile, answer: cardAnswer(profile, now) }
    },
  },
  canBindToken: true,
  canStartRecurrent: true,
  requestExamples: {
    oneStep: {
      summary: 'A one-step card payment',
      value: {
        paymentMethod: exampleCard,
        amount: { value: '100.00', currency: 'RUB' },
        flags: ['SALE'],
        comment: 'Order 1001',
      },
    },
    twoStep: {
      summary: 'A two-step card payment (authorise now, capture later)',
      value: { paymentMethod: exampleCard, amount: { value: '100.00', currency: 'RUB' } },
    },
    bindToken: {
      summary: 'A card payment that issues a payment token',
      value: {
        paymentMethod: { ...exampleCard, pan: '5555555555554444' },
        amount: { value: '10.00', currency: 'RUB' },
        flags: ['SALE', 'BIND_PAYMENT_TOKEN'],
        customer: { account: 'acc-1' },
      },
    },
  },
})

export default cardMethod
