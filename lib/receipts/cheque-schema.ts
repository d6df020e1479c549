// 54-FZ receipts (production's `_54fz-data_en`): the `cheque` a bill, a payment or a refund carries for the
// merchant's online cash register. Here its request schema (normalised: prices in minor units, quantities as exact
// decimal text), what is kept, and how answers write it. The sandbox connects to no cash register and sends nothing to
// any tax service: it checks the cheque, keeps it, answers it, and tells a chequeData of its own (cheque-data.ts).
import { z } from 'zod'
import { wireAmount, wireAmountSchema } from '../money/money'
import { amountValueSchema, currencySchema, numberText } from '../wire/common-schemas'
import { writtenAs } from '../wire/wire-form'

/** fiscal tag 1054 */
export const CHEQUE_TYPES = ['COLLECT', 'COLLECT_RETURN', 'CONSUME', 'CONSUME_RETURN'] as const
/** fiscal tag 1055 */
export const TAX_SYSTEMS = ['OSN', 'USN', 'USN_MINUS_CONSUM', 'ENVD', 'ESN', 'PATENT'] as const
/** fiscal tag 1199: the VAT rates */
export const VAT_CODES = ['NDS_CALC_18_118', 'NDS_CALC_10_110', 'NDS_0', 'NO_NDS', 'NDS_CALC_20_120'] as const
/** fiscal tag 1214 */
export const PAYMENT_METHOD_CODES = [
  'ADVANCED_FULL_PAYMENT',
  'PARTIAL_ADVANCE_PAYMENT',
  'ADVANCE',
  'FULL_PAYMENT',
  'PARTIAL_PAYMENT',
  'CREDIT',
  'CREDIT_PAYMENT',
] as const
/** fiscal tag 1212 (production's spelling, COMPAUND_… included) */
export const PAYMENT_SUBJECT_CODES = [
  'COMMODITY',
  'EXCISE_COMMODITY',
  'WORK',
  'SERVICE',
  'GAMBLING_RATE',
  'GAMBLING_PRIZE',
  'LOTTERY_TICKET',
  'LOTTERY_PRIZE',
  'GRANTING_RESULTS_OF_INTELLECTUAL_ACTIVITY',
  'PAYMENT',
  'AGENCY_FEE',
  'COMPAUND_PAYMENT_SUBJECT',
  'OTHER_PAYMENT_SUBJECT',
] as const

export const MAX_POSITIONS = 100

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` })

const text = (max: number) =>
  z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(max, `must be at most ${max} characters`)

/** the organisation's TIN (ИНН): 10 or 12 digits, a JSON number or a string (kept as sent: a TIN may lead with 0) */
const sellerIdSchema = writtenAs(
  z.unknown().transform((v, ctx) => {
    const s = typeof v === 'string' || typeof v === 'number' ? numberText(v) : undefined
    if (s === undefined || !/^(\d{10}|\d{12})$/.test(s)) {
      ctx.addIssue({ code: 'custom', message: 'must be a TIN: 10 or 12 digits, as a number or a string' })
      return z.NEVER
    }
    return v as number | string
  }),
  {
    description: "the organisation's TIN: 10 or 12 digits (a string keeps leading zeros)",
    anyOf: [
      { type: 'integer', minimum: 1000000000, maximum: 999999999999 },
      { type: 'string', pattern: '^(\\d{10}|\\d{12})$' },
    ],
    examples: [3123011520],
  },
)

/** a positive quantity with at most 6 decimals, kept as its exact decimal text */
const quantitySchema = writtenAs(
  z.unknown().transform((v, ctx) => {
    const s = numberText(v)
    const m = s === undefined ? null : /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(s)
    if (!m || /^0*(\.0*)?$/.test(s!)) {
      ctx.addIssue({ code: 'custom', message: 'must be a positive decimal number with at most 6 decimals' })
      return z.NEVER
    }
    // the canonical text: no leading zeros, no trailing zeros of the fraction
    const fraction = (m[2] ?? '').replace(/0+$/, '')
    return `${m[1].replace(/^0+(?=\d)/, '')}${fraction ? `.${fraction}` : ''}`
  }),
  {
    description: 'fiscal tag 1023: a positive decimal with at most 6 decimals, as a JSON number or string',
    anyOf: [
      { type: 'number', exclusiveMinimum: 0 },
      { type: 'string', pattern: '^\\d{1,9}(\\.\\d{1,6})?$' },
    ],
    examples: [1],
  },
)

/** a position's price: `{value, currency}` as production's example writes it, or the value alone */
const priceSchema = z.union(
  [
    z.object({ value: amountValueSchema, currency: currencySchema }),
    amountValueSchema.transform((value) => ({ value, currency: undefined })),
  ],
  { error: 'must be an amount {value, currency} or a decimal number' },
)

const positionSchema = z
  .object(
    {
      quantity: quantitySchema,
      price: priceSchema.meta({
        description: "fiscal tag 1079: one item's price with discounts and extra charges, in the operation's currency",
      }),
      tax: oneOf(VAT_CODES).meta({ description: 'fiscal tag 1199: the VAT rate' }),
      paymentMethod: oneOf(PAYMENT_METHOD_CODES).meta({ description: 'fiscal tag 1214' }),
      paymentSubject: oneOf(PAYMENT_SUBJECT_CODES).meta({ description: 'fiscal tag 1212' }),
      description: text(128).meta({ description: "the item's name" }),
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'ChequePositionRequest' })

export const chequeRequestSchema = z
  .object(
    {
      sellerId: sellerIdSchema,
      customerContact: text(64).meta({ description: "fiscal tag 1008: the customer's phone or e-mail" }),
      chequeType: oneOf(CHEQUE_TYPES).meta({ description: 'fiscal tag 1054: the kind of cash operation' }),
      taxSystem: oneOf(TAX_SYSTEMS).meta({ description: 'fiscal tag 1055' }),
      positions: z
        .array(positionSchema, { error: 'must be an array' })
        .min(1, 'must hold at least one position')
        .max(MAX_POSITIONS, `must hold at most ${MAX_POSITIONS} positions`),
    },
    { error: 'must be an object with sellerId, customerContact, chequeType, taxSystem and positions' },
  )
  .transform((c): Cheque => ({
    sellerId: c.sellerId,
    customerContact: c.customerContact,
    chequeType: c.chequeType,
    taxSystem: c.taxSystem,
    positions: c.positions.map((p) => ({
      quantity: p.quantity,
      priceMinor: p.price.value,
      ...(p.price.currency !== undefined && { currency: p.price.currency }),
      tax: p.tax,
      paymentMethod: p.paymentMethod,
      paymentSubject: p.paymentSubject,
      description: p.description,
    })),
  }))
  .meta({
    id: 'ChequeRequest',
    description:
      "a 54-FZ receipt's data (production's cheque): the positions' sums (price × quantity, rounded to the kopeck) " +
      "add up to the operation's amount. The sandbox checks and keeps it, and sends it to no tax service",
  })

/** a position as kept */
export type ChequePosition = {
  /** exact decimal text */
  quantity: string
  priceMinor: number
  /** as the request named it; absent: the operation's */
  currency?: string
  tax: string
  paymentMethod: string
  paymentSubject: string
  description: string
}

/** a cheque as kept (the JSON of the bill's, payment's or refund's `cheque` column) */
export type Cheque = {
  sellerId: number | string
  customerContact: string
  chequeType: string
  taxSystem: string
  positions: ChequePosition[]
}

/** the cheque as answered: as the request gave it, prices written as amounts */
export const chequeAnswerSchema = z
  .strictObject({
    sellerId: z.union([z.int(), z.string()]).meta({ description: 'as the request gave it' }),
    customerContact: z.string(),
    chequeType: z.enum(CHEQUE_TYPES),
    taxSystem: z.enum(TAX_SYSTEMS),
    positions: z.array(
      z
        .strictObject({
          quantity: z.number(),
          price: wireAmountSchema,
          tax: z.enum(VAT_CODES),
          paymentMethod: z.enum(PAYMENT_METHOD_CODES),
          paymentSubject: z.enum(PAYMENT_SUBJECT_CODES),
          description: z.string(),
        })
        .meta({ id: 'ChequePosition' }),
    ),
  })
  .meta({ id: 'Cheque', description: "the 54-FZ receipt's data, as the request gave it" })
export type ChequeAnswer = z.input<typeof chequeAnswerSchema>

/** the kept cheque, or undefined when there is none */
export const chequeOf = (column: unknown): Cheque | undefined =>
  column && typeof column === 'object' && 'positions' in column ? (column as Cheque) : undefined

/** the kept cheque as an answer writes it (prices in `currency`, the operation's); undefined when there is none */
export function chequeAnswer(column: unknown, currency: string): ChequeAnswer | undefined {
  const c = chequeOf(column)
  if (!c) return undefined
  return {
    sellerId: c.sellerId,
    customerContact: c.customerContact,
    chequeType: c.chequeType as ChequeAnswer['chequeType'],
    taxSystem: c.taxSystem as ChequeAnswer['taxSystem'],
    positions: c.positions.map((p) => ({
      quantity: Number(p.quantity),
      price: wireAmount(p.priceMinor, p.currency ?? currency),
      tax: p.tax as ChequeAnswer['positions'][number]['tax'],
      paymentMethod: p.paymentMethod as ChequeAnswer['positions'][number]['paymentMethod'],
      paymentSubject: p.paymentSubject as ChequeAnswer['positions'][number]['paymentSubject'],
      description: p.description,
    })),
  }
}
