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

export const cardMethodSchema = z.object({
  type: z.literal('CARD'),
  pan: z
    .string({ error: 'is required for CARD' })
    .regex(/^\d{13,19}$/, 'must be 13-19 digits')
    .refine(luhnValid, 'is not a valid card number'),
  expiryDate: z
    .string({ error: 'is required for CARD, as MM/YY' })
    .transform((s, ctx): CardExpiry => {
      const e = parseExpiry(s)
      if (!e) {
        ctx.addIssue({ code: 'custom', message: 'must be MM/YY' })
        return z.NEVER
      }
      return e
    }),
  cvv2: z.string({ error: 'is required for CARD' }).regex(/^\d{3,4}$/, 'must be 3-4 digits'),
})

const tokenMethodSchema = z.object({
  type: z.literal('TOKEN'),
  paymentToken: z.string({ error: 'is required for TOKEN' }).min(1, 'is required for TOKEN').max(256, 'is not a payment token'),
})

const recurrentMethodSchema = z.object({
  type: z.literal('RECURRENT'),
  firstPaymentId: idSchema,
})

const mobileMethodSchema = z.object({
  type: z.literal('MOBILE'),
  phone: z.string({ error: 'is required for MOBILE' }).regex(/^\d{10,15}$/, 'must be 10-15 digits with the country code'),
})

const METHODS = { CARD: cardMethodSchema, TOKEN: tokenMethodSchema, RECURRENT: recurrentMethodSchema, MOBILE: mobileMethodSchema }
const METHOD_TYPES = Object.keys(METHODS) as (keyof typeof METHODS)[]
// built once (it was built anew for every request)
const methodByType = z.discriminatedUnion('type', [cardMethodSchema, tokenMethodSchema, recurrentMethodSchema, mobileMethodSchema])

/** by `type`; an unknown type (SBP, APPLE_PAY_TOKEN, …) is a 400 on `paymentMethod.type` */
const paymentMethodSchema = z.looseObject({ type: z.unknown() }, { error: 'is required' }).transform((m, ctx) => {
  if (!METHOD_TYPES.includes(m.type as never)) {
    ctx.addIssue({ code: 'custom', path: ['type'], message: `must be one of ${METHOD_TYPES.join(', ')}` })
    return z.NEVER
  }
  const parsed = methodByType.safeParse(m)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message })
    return z.NEVER
  }
  return parsed.data
})

export const paymentRequestSchema = z
  .object(
    {
      paymentMethod: paymentMethodSchema,
      amount: amountSchema,
      comment: commentSchema.optional(),
      flags: flagsSchema.optional().default([]),
      customer: customerSchema.optional(),
      billId: idSchema.optional(),
      recurrent: recurrentSchema.optional(),
      receipt: receiptSchema.optional(),
      callbackUrl: callbackUrlSchema.optional(),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((p, ctx) => {
    if (p.flags.includes('BIND_PAYMENT_TOKEN') && !p.customer?.account)
      ctx.addIssue({ code: 'custom', path: ['customer', 'account'], message: 'is required with flag BIND_PAYMENT_TOKEN' })
    if (p.paymentMethod.type === 'TOKEN' && !p.customer?.account)
      ctx.addIssue({ code: 'custom', path: ['customer', 'account'], message: 'is required for TOKEN payments: a token is bound to its account' })
    if (p.flags.includes('BIND_PAYMENT_TOKEN') && p.paymentMethod.type !== 'CARD')
      ctx.addIssue({ code: 'custom', path: ['flags'], message: 'BIND_PAYMENT_TOKEN is for CARD payments' })
    if (p.flags.includes('RECURRENT_FIRST') && p.paymentMethod.type !== 'CARD' && p.paymentMethod.type !== 'TOKEN')
      ctx.addIssue({ code: 'custom', path: ['flags'], message: 'RECURRENT_FIRST is for CARD and TOKEN payments' })
    if (p.flags.includes('RECURRENT_FIRST') && !p.recurrent)
      ctx.addIssue({ code: 'custom', path: ['recurrent'], message: 'is required with flag RECURRENT_FIRST' })
    if (p.receipt && receiptTotalMinor(p.receipt) !== p.amount.value)
      ctx.addIssue({ code: 'custom', path: ['receipt', 'items'], message: 'totals must add up to amount.value' })
  })

export type PaymentRequest = z.output<typeof paymentRequestSchema>
export type PaymentMethodRequest = PaymentRequest['paymentMethod']
