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

const METHOD_TYPES = ['CARD', 'TOKEN', 'RECURRENT', 'MOBILE'] as const

const paymentMethodSchema = z
  .object({ type: z.unknown() }, { error: 'is required' })
  .passthrough()
  .transform((m, ctx) => {
    if (!METHOD_TYPES.includes(m.type as never)) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: `must be one of ${METHOD_TYPES.join(', ')}` })
      return z.NEVER
    }
    if (m.type !== 'CARD') {
      ctx.addIssue({ code: 'custom', path: ['type'], message: `${String(m.type)} payments are not available yet` })
      return z.NEVER
    }
    const card = cardMethodSchema.safeParse(m)
    if (!card.success) {
      for (const issue of card.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message })
      return z.NEVER
    }
    return card.data
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
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((p, ctx) => {
    if (p.flags.includes('BIND_PAYMENT_TOKEN') && !p.customer?.account)
      ctx.addIssue({ code: 'custom', path: ['customer', 'account'], message: 'is required with flag BIND_PAYMENT_TOKEN' })
    if (p.flags.includes('RECURRENT_FIRST') && !p.recurrent)
      ctx.addIssue({ code: 'custom', path: ['recurrent'], message: 'is required with flag RECURRENT_FIRST' })
    if (p.receipt && receiptTotalMinor(p.receipt) !== p.amount.value)
      ctx.addIssue({ code: 'custom', path: ['receipt', 'items'], message: 'totals must add up to amount.value' })
  })

export type PaymentRequest = z.output<typeof paymentRequestSchema>
