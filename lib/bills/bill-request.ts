// The bill create request (endpoint 7), validated and normalised.
import { z } from 'zod'
import {
  amountValueSchema,
  commentSchema,
  currencySchema,
  customerSchema,
  dateTimeSchema,
  FLAGS,
  httpUrlSchema,
  onSiteClock,
  receiptSchema,
  receiptTotalMinor,
  recurrentExpiryProblem,
  recurrentSchema,
} from '../wire/common-schemas'
import type { FieldErrors } from '../http/api-error'
import type { SiteClock } from '../time/clock'
import { customFieldsSchema } from '../notifications/callback-url'
import { splitListSchema } from '../splits/split-schema'
import { addSplitIssues, splitSumIssues } from '../splits/split-rules'
import { chequeRequestSchema } from '../receipts/cheque-schema'
import { addChequeIssues, chequeIssues } from '../receipts/cheque-rules'

/** the longest a bill may stay payable */
export const MAX_BILL_LIFETIME_MS = 45 * 24 * 3600_000

const returnUrl = httpUrlSchema

/**
 * the ways to pay a bill may limit its page to (production's `billPaymentMethodsType`): the page offers those of its
 * methods listed (QIWI_WALLET is taken, never offered: the sandbox has no wallet)
 */
export const BILL_PAYMENT_METHODS = ['CARD', 'SBP', 'MOBILE', 'QIWI_WALLET'] as const

const billPaymentMethodsSchema = z
  .array(z.enum(BILL_PAYMENT_METHODS, { error: `must be one of ${BILL_PAYMENT_METHODS.join(', ')}` }), {
    error: 'must be an array',
  })
  .min(1, 'must not be empty')
  // duplicates folded and one order, as flags: the same list written differently is the same bill
  .transform((list) => BILL_PAYMENT_METHODS.filter((m) => list.includes(m)))
  .meta({
    description:
      "the methods the payment page may offer, of those it has (QIWI_WALLET is accepted, never offered: the sandbox has no wallet); absent: all of them. Not in the bill's answers (production's leave it out)",
  })

/**
 * a bill's flags: a payment's, and CHECK_CARD (production's card verification on the payment page: the page verifies
 * a card without charging it; lib/card-checks)
 */
export const BILL_FLAGS = [...FLAGS, 'CHECK_CARD'] as const

const billFlagsSchema = z
  .array(z.enum(BILL_FLAGS, { error: `must be one of ${BILL_FLAGS.join(', ')}` }), { error: 'must be an array' })
  .max(BILL_FLAGS.length)
  .transform((flags) => BILL_FLAGS.filter((f) => flags.includes(f)))
  .meta({
    description:
      "a payment's flags, for the bill's payments; CHECK_CARD: the payment page verifies a card without charging it (no amount: the bill's is 0.00 RUB)",
  })

/** a CHECK_CARD bill's amount (production's: the request has none) */
export const CHECK_CARD_AMOUNT = { value: 0, currency: 'RUB' } as const

const AMOUNT_OBJECT = 'must be an object with currency (and value)'

export const billRequestSchema = z
  .object(
    {
      amount: z
        .object(
          // value may be omitted: the payer enters the amount on the form
          { value: amountValueSchema.optional(), currency: currencySchema },
          { error: AMOUNT_OBJECT },
        )
        .optional()
        .meta({
          description:
            'without value, the payer enters the amount on the payment page; required but with flag CHECK_CARD, where it must be absent',
        }),
      expirationDateTime: dateTimeSchema.meta({
        description: 'until when the bill can be paid: in the future, at most 45 days ahead',
      }),
      comment: commentSchema.optional(),
      flags: billFlagsSchema.optional().default([]),
      billPaymentMethodsType: billPaymentMethodsSchema.optional(),
      successUrl: returnUrl.optional().meta({
        description:
          "where the payment page sends the payer after a payment (billId and invoiceUid appended); absent: the page's own result",
      }),
      failedUrl: returnUrl
        .optional()
        .meta({ description: 'where the payment page sends the payer after a declined payment' }),
      customer: customerSchema
        .extend({
          ip: z
            .string({ error: 'must be an IPv4 address' })
            .regex(
              /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
              'must be an IPv4 address',
            )
            .optional(),
        })
        .optional(),
      recurrent: recurrentSchema.optional(),
      receipt: receiptSchema.optional(),
      splits: splitListSchema.optional().meta({
        description:
          "split payments: the merchants' shares, adding up to amount.value; copied to the bill's payments that give no paymentSplits",
      }),
      cheque: chequeRequestSchema.optional().meta({
        description: "54-FZ receipt data, copied to the bill's payments that give no cheque of their own",
      }),
      customFields: customFieldsSchema.optional().meta({
        description:
          "up to 32 string values, copied to the bill's payments; invoice_callback_url names where their PAYMENT notifications go",
      }),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((b, ctx) => {
    const checksCard = b.flags.includes('CHECK_CARD')
    if (b.amount && checksCard)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'must be absent with flag CHECK_CARD' })
    if (b.flags.includes('BIND_PAYMENT_TOKEN') && !b.customer?.account)
      ctx.addIssue({
        code: 'custom',
        path: ['customer', 'account'],
        message: 'is required with flag BIND_PAYMENT_TOKEN',
      })
    if (b.flags.includes('RECURRENT_FIRST') && !b.recurrent)
      ctx.addIssue({ code: 'custom', path: ['recurrent'], message: 'is required with flag RECURRENT_FIRST' })
    if (b.receipt && b.amount?.value === undefined)
      ctx.addIssue({ code: 'custom', path: ['amount', 'value'], message: 'is required with a receipt' })
    else if (b.receipt && receiptTotalMinor(b.receipt) !== b.amount?.value)
      ctx.addIssue({ code: 'custom', path: ['receipt', 'items'], message: 'totals must add up to amount.value' })
    if (b.amount) {
      addSplitIssues(ctx, splitSumIssues('splits', b.splits, b.amount))
      addChequeIssues(ctx, chequeIssues(b.cheque, b.amount))
    } else
      // a verification charges nothing: no shares, no receipt
      for (const field of ['splits', 'cheque'] as const)
        if (b[field] !== undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: 'must be absent with flag CHECK_CARD' })
  })
  // amount is required but with CHECK_CARD: told beside the other fields' problems (a refinement runs only without
  // them), in the words of every missing field
  .check(
    z.refine(
      (b) => b?.amount !== undefined || (Array.isArray(b?.flags) && (b.flags as string[]).includes('CHECK_CARD')),
      { path: ['amount'], message: 'is required', when: () => true },
    ),
  )
  .meta({ id: 'BillRequest' })

export type BillRequest = z.output<typeof billRequestSchema>

/**
 * What a new bill's deadlines must meet at `now` on its site's `clock`, when it is created (not in the schema: an
 * identical replay of a bill answers the bill, also after its deadline has passed); null when they do.
 */
export function newBillProblems(b: BillRequest, clock: SiteClock, now = clock.now()): FieldErrors | null {
  const problems: FieldErrors = {}
  if (b.expirationDateTime.getTime() <= now.getTime())
    problems.expirationDateTime = [onSiteClock('must be in the future', clock, now)]
  else if (b.expirationDateTime.getTime() > now.getTime() + MAX_BILL_LIFETIME_MS)
    problems.expirationDateTime = [onSiteClock('must be at most 45 days ahead', clock, now)]
  const series = recurrentExpiryProblem(b.recurrent, clock, now)
  if (series) problems['recurrent.expiryDate'] = [series]
  return Object.keys(problems).length ? problems : null
}
