// CARD: a card number, expiry, CVV and optionally the holder's name. The sandbox decides by the number (the test-card
// table; production's test cards by their expiry month, and their CVV or holder name for 3-D Secure); the card
// itself is never stored, logged or answered: the payment keeps its masked number, its profile (outcome class and
// expiry), which a token or a recurrent series charges again, and the holder's name (not card data the way the
// number and CVV are), which its notifications tell. The CVV is never kept.
import { z } from 'zod'
import {
  cardOutcome,
  cardProfile,
  chargeOutcome,
  maskPan,
  type CardOutcome,
  type CardProfile,
} from '../../acquirer/sandbox-acquirer'
import { expiryField, panField } from '../../acquirer/card-fields'
import { definePaymentMethod, type FirstAnswer, type StoredMethod } from './payment-method'

export const cardMethodSchema = z
  .object({
    type: z.literal('CARD'),
    pan: panField(
      'is required for CARD',
      "the card number, Luhn-valid (the sandbox decides the outcome by it, production's test cards by their " +
        'expiry month: see the test cards)',
    ),
    expiryDate: expiryField(
      'is required for CARD, as MM/YY',
      "MM/YY (a past month declines ACQUIRING_EXPIRED_CARD; with production's test cards, month 02 declines, " +
        '03 and 04 answer WAITING and are approved or declined 3 s later)',
    ),
    cvv2: z
      .string({ error: 'is required for CARD' })
      .regex(/^\d{3,4}$/, 'must be 3-4 digits')
      .meta({ description: "never stored (with production's test cards, 849 asks for 3-D Secure)" }),
    holderName: z
      .string({ error: 'must be a string' })
      .max(256, 'must be at most 256 characters')
      .optional()
      .meta({
        description:
          "the cardholder's name as on the card: kept with the payment and told in its notifications " +
          "(paymentMethod.cardHolder), as production does (with production's test cards, a name containing 3ds " +
          'asks for 3-D Secure)',
        examples: ['CARDHOLDER NAME'],
      }),
  })
  .meta({
    id: 'CardPaymentMethod',
    description: 'a card; never stored, logged or answered (answers carry the masked number)',
  })

const CARD_OTP_TEXT = "Enter the one-time code sent to the cardholder's phone"

const answerOf = (o: CardOutcome): FirstAnswer => (o.kind === 'otp' ? { kind: 'otp', text: CARD_OTP_TEXT } : o)

/** the sandbox's first answer to charging a card's profile now (through its token or its recurrent series) */
export const cardAnswer = (profile: CardProfile, now: Date): FirstAnswer => answerOf(chargeOutcome(profile, now))

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
      // the CVV and the holder's name decide the answer alone (production's 3-D Secure rule); the profile has neither
      const answer = answerOf(cardOutcome(m.pan, m.expiryDate, now, { cvv: m.cvv2, holderName: m.holderName }))
      return {
        methodType: storedCard.methodType,
        maskedPan: maskPan(m.pan),
        profile: cardProfile(m.pan, m.expiryDate),
        cardHolder: m.holderName,
        answer,
      }
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
