// Split payments (production's `_splits_en`): the merchants' shares of one charge. The same list is a bill's
// `splits`, a payment's `paymentSplits` and a refund's `refundSplits`; here its request schema (normalised: amounts
// in minor units), what is stored, and how answers (amounts as strings) and notifications (amounts as JSON numbers)
// write it. The checks against the operation's amount and the payment's splits are split-rules.ts.
import { z } from 'zod'
import { RawNumber } from '../http/json-text'
import { formatMinor, wireAmount, wireAmountSchema } from '../money/money'
import { amountSchema, idSchema } from '../wire/common-schemas'

/** production's one kind of split: a merchant's share */
export const SPLIT_TYPE = 'MERCHANT_DETAILS'

/** the most splits one list may hold */
export const MAX_SPLITS = 100

const text = (max: number) =>
  z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`).optional()

const splitRequestSchema = z
  .object(
    {
      type: z.literal(SPLIT_TYPE, { error: `must be ${SPLIT_TYPE}` }),
      siteUid: idSchema.meta({
        description: "the merchant's id: any id (the sandbox keeps no register of a marketplace's merchants)",
      }),
      splitAmount: amountSchema.meta({
        description: "the merchant's share, in RUB (split payments are in roubles only)",
      }),
      orderId: text(256).meta({ description: "the merchant's order number" }),
      comment: text(1024),
    },
    { error: 'must be an object with type, siteUid and splitAmount' },
  )
  .meta({ id: 'SplitRequest' })

/** a split as kept (the JSON of the bill's, payment's or refund's `splits` column) */
export type Split = {
  siteUid: string
  amountMinor: number
  currency: string
  orderId?: string
  comment?: string
}

/** two splits of one list may not name the same merchant and order: a refund could not tell them apart */
const keyOf = (s: { siteUid: string; orderId?: string }) => JSON.stringify([s.siteUid, s.orderId ?? null])

export const splitListSchema = z
  .array(splitRequestSchema, { error: 'must be an array' })
  .min(1, 'must hold at least one split')
  .max(MAX_SPLITS, `must hold at most ${MAX_SPLITS} splits`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>()
    list.forEach((s, i) => {
      const key = keyOf(s)
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: [i, 'orderId'], message: 'names a siteUid and orderId given before' })
      seen.add(key)
    })
  })
  .transform((list): Split[] =>
    list.map((s) => ({
      siteUid: s.siteUid,
      amountMinor: s.splitAmount.value,
      currency: s.splitAmount.currency,
      ...(s.orderId !== undefined && { orderId: s.orderId }),
      ...(s.comment !== undefined && { comment: s.comment }),
    })),
  )

/** a split as answered (bills, payments, refunds) */
export const splitAnswerSchema = z
  .strictObject({
    type: z.literal(SPLIT_TYPE),
    siteUid: z.string(),
    splitAmount: wireAmountSchema,
    orderId: z.string().optional(),
    comment: z.string().optional(),
  })
  .meta({
    id: 'Split',
    description:
      "a merchant's share; production may add splitCommissions, which the sandbox (no commissions) leaves out",
  })
export type SplitAnswer = z.input<typeof splitAnswerSchema>

/** a split as notified: its amount a JSON number written with two decimals, as the notification's own amount */
export const notifiedSplitSchema = z
  .strictObject({
    type: z.literal(SPLIT_TYPE),
    siteUid: z.string(),
    splitAmount: z.strictObject({ value: z.number().min(0), currency: z.string().regex(/^[A-Z]{3}$/) }),
    orderId: z.string().optional(),
    comment: z.string().optional(),
  })
  .meta({ id: 'NotificationSplit', description: "a merchant's share (no splitCommissions: the sandbox takes none)" })

/** the splits kept in a JSON column, or undefined when there are none */
export const splitsOf = (column: unknown): Split[] | undefined =>
  Array.isArray(column) && column.length ? (column as Split[]) : undefined

/** the kept splits as an answer writes them; undefined when there are none */
export function splitAnswers(column: unknown): SplitAnswer[] | undefined {
  return splitsOf(column)?.map((s) => ({
    type: SPLIT_TYPE as typeof SPLIT_TYPE,
    siteUid: s.siteUid,
    splitAmount: wireAmount(s.amountMinor, s.currency),
    orderId: s.orderId,
    comment: s.comment,
  }))
}

/** the kept splits as a notification writes them (`2.00` as a JSON number); undefined when there are none */
export function notifiedSplits(column: unknown) {
  return splitsOf(column)?.map((s) => ({
    type: SPLIT_TYPE as typeof SPLIT_TYPE,
    siteUid: s.siteUid,
    splitAmount: { value: new RawNumber(formatMinor(s.amountMinor)), currency: s.currency },
    orderId: s.orderId,
    comment: s.comment,
  }))
}
