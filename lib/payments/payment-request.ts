// The payment create request (endpoint 1), validated and normalised.
import { z } from 'zod'
import { luhnValid, parseExpiry, type CardExpiry } from '../acquirer/sandbox-acquirer'
import {
  amountSchema,
  commentSchema,
  customerSchema,
  flagsSchema,
  idSchema,
  receiptSchema,
  receiptTotalMinor,
  recurrentSchema,
} from '../wire/common-schemas'
import { callbackUrlSchema } from '../notifications/callback-url'
import { refTo, writtenAs } from '../wire/wire-form'

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

const tokenMethodSchema = z
  .object({
    type: z.literal('TOKEN'),
    paymentToken: z
      .string({ error: 'is required for TOKEN' })
      .min(1, 'is required for TOKEN')
      .max(256, 'is not a payment token')
      .meta({
        description: 'a token issued by a BIND_PAYMENT_TOKEN payment of this site, for the same customer.account',
      }),
  })
  .meta({ id: 'TokenPaymentMethod' })

const recurrentMethodSchema = z
  .object({
    type: z.literal('RECURRENT'),
    firstPaymentId: idSchema.meta({
      description: 'the COMPLETED RECURRENT_FIRST payment of this site that started the series',
    }),
  })
  .meta({ id: 'RecurrentPaymentMethod' })

const mobileMethodSchema = z
  .object({
    type: z.literal('MOBILE'),
    phone: z
      .string({ error: 'is required for MOBILE' })
      .regex(/^\d{10,15}$/, 'must be 10-15 digits with the country code')
      .meta({
        description:
          'digits with the country code (ending 0000: confirmed after a delay; 0001: rejected; else a one-time code)',
        examples: ['79001234567'],
      }),
  })
  .meta({ id: 'MobilePaymentMethod', description: 'a mobile-operator balance' })

const METHODS = {
  CARD: cardMethodSchema,
  TOKEN: tokenMethodSchema,
  RECURRENT: recurrentMethodSchema,
  MOBILE: mobileMethodSchema,
}
const METHOD_TYPES = Object.keys(METHODS) as (keyof typeof METHODS)[]
// built once (it was built anew for every request)
const methodByType = z.discriminatedUnion('type', [
  cardMethodSchema,
  tokenMethodSchema,
  recurrentMethodSchema,
  mobileMethodSchema,
])

/** by `type`; an unknown type (SBP, APPLE_PAY_TOKEN, …) is a 400 on `paymentMethod.type` */
const paymentMethodSchema = writtenAs(
  z.looseObject({ type: z.unknown() }, { error: 'is required' }).transform((m, ctx) => {
    if (!METHOD_TYPES.includes(m.type as never)) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: `must be one of ${METHOD_TYPES.join(', ')}` })
      return z.NEVER
    }
    const parsed = methodByType.safeParse(m)
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message })
      return z.NEVER
    }
    return parsed.data
  }),
  {
    description: 'how the payer pays, by `type` (another type is a 400)',
    oneOf: [cardMethodSchema, tokenMethodSchema, recurrentMethodSchema, mobileMethodSchema].map(refTo),
  },
)

export const paymentRequestSchema = z
  .object(
    {
      paymentMethod: paymentMethodSchema,
      amount: amountSchema,
      comment: commentSchema.optional(),
      flags: flagsSchema.optional().default([]),
      customer: customerSchema.optional(),
      billId: idSchema.optional().meta({
        description:
          "the site's bill this payment pays (same currency, and its amount when it has one); absent: a bill is created for the payment",
      }),
      recurrent: recurrentSchema.optional(),
      receipt: receiptSchema.optional(),
      callbackUrl: callbackUrlSchema
        .optional()
        .meta({ description: "where this payment's notification goes instead of the site's notification URL" }),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((p, ctx) => {
    if (p.flags.includes('BIND_PAYMENT_TOKEN') && !p.customer?.account)
      ctx.addIssue({
        code: 'custom',
        path: ['customer', 'account'],
        message: 'is required with flag BIND_PAYMENT_TOKEN',
      })
    if (p.paymentMethod.type === 'TOKEN' && !p.customer?.account)
      ctx.addIssue({
        code: 'custom',
        path: ['customer', 'account'],
        message: 'is required for TOKEN payments: a token is bound to its account',
      })
    if (p.flags.includes('BIND_PAYMENT_TOKEN') && p.paymentMethod.type !== 'CARD')
      ctx.addIssue({ code: 'custom', path: ['flags'], message: 'BIND_PAYMENT_TOKEN is for CARD payments' })
    if (p.flags.includes('RECURRENT_FIRST') && p.paymentMethod.type !== 'CARD' && p.paymentMethod.type !== 'TOKEN')
      ctx.addIssue({ code: 'custom', path: ['flags'], message: 'RECURRENT_FIRST is for CARD and TOKEN payments' })
    if (p.flags.includes('RECURRENT_FIRST') && !p.recurrent)
      ctx.addIssue({ code: 'custom', path: ['recurrent'], message: 'is required with flag RECURRENT_FIRST' })
    if (p.receipt && receiptTotalMinor(p.receipt) !== p.amount.value)
      ctx.addIssue({ code: 'custom', path: ['receipt', 'items'], message: 'totals must add up to amount.value' })
  })
  .meta({ id: 'PaymentRequest' })

export type PaymentRequest = z.output<typeof paymentRequestSchema>
export type PaymentMethodRequest = PaymentRequest['paymentMethod']
