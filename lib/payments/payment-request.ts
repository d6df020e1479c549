// The payment create request (endpoint 1), validated and normalised. Its paymentMethod is one of the registered
// methods (lib/payments/methods), whose flags' rules are checked here.
import { z } from 'zod'
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
import { callbackUrlSchema, customFieldsSchema } from '../notifications/callback-url'
import { refTo, writtenAs } from '../wire/wire-form'
import { splitListSchema } from '../splits/split-schema'
import { addSplitIssues, splitSumIssues } from '../splits/split-rules'
import { chequeRequestSchema } from '../receipts/cheque-schema'
import { addChequeIssues, chequeIssues } from '../receipts/cheque-rules'
import { deviceDataSchema } from './device-data'
import { listed, METHOD_TYPES, methodOf, methodRequestSchema, PAYMENT_METHODS, typesThat } from './methods'

/** by `type`; a type no registered method has (SBP today, …) is a 400 on `paymentMethod.type` */
const paymentMethodSchema = writtenAs(
  z.looseObject({ type: z.unknown() }, { error: 'must be an object with type' }).transform((m, ctx) => {
    if (!METHOD_TYPES.includes(m.type as never)) {
      ctx.addIssue({
        code: 'custom',
        path: ['type'],
        message: `must be one of ${METHOD_TYPES.join(', ')}`,
        input: m.type,
      })
      return z.NEVER
    }
    // each issue passed on with its input, which tells an absent field (lib/http/api-route.ts, requiredMessage)
    const parsed = methodRequestSchema.safeParse(m, { reportInput: true })
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, input: issue.input })
      return z.NEVER
    }
    return parsed.data
  }),
  {
    description: 'how the payer pays, by `type` (another type is a 400)',
    oneOf: PAYMENT_METHODS.map((m) => refTo(m.schema)),
  },
)

// the flags' rules by method, worded once
const BIND_TOKEN_METHODS = typesThat((m) => m.canBindToken)
const RECURRENT_FIRST_METHODS = typesThat((m) => m.canStartRecurrent)

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
      customFields: customFieldsSchema.optional().meta({
        description:
          "up to 32 string values, kept, answered and told in the payment's notifications, over its bill's " +
          "customFields (the payment's value wins for the same key); invoice_callback_url names where its PAYMENT " +
          'notification goes (callbackUrl wins)',
      }),
      deviceData: deviceDataSchema.optional(),
      paymentSplits: splitListSchema.optional().meta({
        description:
          "split payments: the merchants' shares, adding up to amount.value; absent: its bill's splits, if any",
      }),
      cheque: chequeRequestSchema.optional().meta({
        description:
          "54-FZ receipt data, its positions adding up to amount.value; absent: its bill's cheque, if any. A " +
          'payment that charges a card tells chequeData once COMPLETED',
      }),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((p, ctx) => {
    const method = methodOf(p.paymentMethod.type)!
    if (p.flags.includes('BIND_PAYMENT_TOKEN') && !p.customer?.account)
      ctx.addIssue({
        code: 'custom',
        path: ['customer', 'account'],
        message: 'is required with flag BIND_PAYMENT_TOKEN',
      })
    if (method.needsCustomerAccount && !p.customer?.account)
      ctx.addIssue({
        code: 'custom',
        path: ['customer', 'account'],
        message: `is required for ${method.type} payments: ${method.needsCustomerAccount}`,
      })
    if (method.currencies && !method.currencies.includes(p.amount.currency))
      ctx.addIssue({
        code: 'custom',
        path: ['amount', 'currency'],
        message: `must be ${listed([...method.currencies], 'or')} for ${method.type} payments`,
      })
    if (p.flags.includes('BIND_PAYMENT_TOKEN') && !method.canBindToken)
      ctx.addIssue({
        code: 'custom',
        path: ['flags'],
        message: `BIND_PAYMENT_TOKEN is for ${BIND_TOKEN_METHODS} payments`,
      })
    if (p.flags.includes('RECURRENT_FIRST') && !method.canStartRecurrent)
      ctx.addIssue({
        code: 'custom',
        path: ['flags'],
        message: `RECURRENT_FIRST is for ${RECURRENT_FIRST_METHODS} payments`,
      })
    if (p.flags.includes('RECURRENT_FIRST') && !p.recurrent)
      ctx.addIssue({ code: 'custom', path: ['recurrent'], message: 'is required with flag RECURRENT_FIRST' })
    if (p.receipt && receiptTotalMinor(p.receipt) !== p.amount.value)
      ctx.addIssue({ code: 'custom', path: ['receipt', 'items'], message: 'totals must add up to amount.value' })
    addSplitIssues(ctx, splitSumIssues('paymentSplits', p.paymentSplits, p.amount))
    addChequeIssues(ctx, chequeIssues(p.cheque, p.amount))
  })
  .meta({ id: 'PaymentRequest' })

export type PaymentRequest = z.output<typeof paymentRequestSchema>
export type PaymentMethodRequest = PaymentRequest['paymentMethod']
