// A card verification's request (production's PUT …/validation/card/requests/{requestUid}): the card, and the account
// a valid card's payment token is issued for. The card is never stored, logged or answered: the request's
// fingerprint (a keyed hash) is all that remains of its number and CVV.
import { z } from 'zod'
import { expiryField, panField } from '../acquirer/card-fields'

export const cardDataSchema = z
  .object(
    {
      pan: panField(
        'is required',
        "the card number, Luhn-valid: the sandbox's test cards decide the outcome, as for payments (see the test cards)",
      ),
      expiryDate: expiryField(
        'is required, as MM/YY',
        "MM/YY (a past month: not a valid card; with production's test cards, month 02 and 04: not valid, any other: valid)",
      ),
      cvv2: z
        .string({ error: 'is required' })
        .regex(/^\d{3,4}$/, 'must be 3-4 digits')
        .meta({ description: "never stored (with production's test cards, 849 asks for 3-D Secure)" }),
      holderName: z
        .string({ error: 'must be a string' })
        .max(256, 'must be at most 256 characters')
        .optional()
        .meta({
          description:
            "the cardholder's name, told in the CHECK_CARD notification (with production's test cards, a name containing 3ds asks for 3-D Secure)",
          examples: ['CARDHOLDER NAME'],
        }),
    },
    { error: 'is required: an object with pan, expiryDate and cvv2' },
  )
  .meta({ id: 'CardCheckCardData', description: 'the card to verify; never stored, logged or answered' })

export const cardCheckRequestSchema = z
  .object(
    {
      cardData: cardDataSchema,
      tokenizationData: z
        .object(
          {
            account: z
              .string({ error: 'is required: the customer account the payment token is issued for' })
              .min(1, 'must not be empty')
              .max(200, 'must be at most 200 characters')
              .meta({ description: "the customer's id in the merchant's system" }),
          },
          { error: 'must be an object with account' },
        )
        .optional()
        .meta({
          description:
            'ask for a payment token: a valid card gets one (createdToken), bound to this site and account, that pays TOKEN payments',
        }),
    },
    { error: 'must be a JSON object' },
  )
  .meta({ id: 'CardCheckRequest' })

export type CardCheckRequest = z.output<typeof cardCheckRequestSchema>

/** production's complete request: the PaRes the access-control page posted back */
export const cardCheckCompleteSchema = z
  .object(
    {
      pares: z
        .string({
          error:
            'is required: the PaRes that the access-control page (requirements.acsUrl of the verification) posts to your TermUrl',
        })
        .min(1, 'must not be empty')
        .meta({ description: 'the PaRes the access-control page posted to your TermUrl' }),
    },
    { error: 'must be a JSON object with pares' },
  )
  .meta({ id: 'CardCheckCompleteRequest' })

export type CardCheckComplete = z.output<typeof cardCheckCompleteSchema>
