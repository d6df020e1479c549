// zod schemas of the wire shapes shared by several requests. Outputs are normalised: amounts in minor
// units, dates as Date. What a transforming schema reads is documented with writtenAs (wire-form.ts).
import { z } from 'zod'
import { isKnownCurrency, KNOWN_CURRENCIES, parseAmountValue } from '../money/money'
import { RawNumber } from '../http/json-text'
import type { SiteClock } from '../time/clock'
import { parseDateTime, paymentTime } from '../time/wire-time'
import { writtenAs } from './wire-form'

/** path ids: 1–200 chars of A-Za-z0-9._:- */
export const idSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .regex(/^[A-Za-z0-9._:-]{1,200}$/, 'must be 1-200 characters of A-Z a-z 0-9 . _ : -')

/** the JSON text of a number or a string, as sent */
export function numberText(v: unknown): string | undefined {
  if (typeof v === 'string') return v
  if (typeof v === 'number') return String(v)
  if (v instanceof RawNumber) return v.text
  return undefined
}

/**
 * The amount values parseAmountValue accepts, as one pattern: plain decimal notation whose value rounded
 * down to two decimals is 0.01 … 1000000000.00 — 1 to 999999999 units with any decimals, 1000000000
 * with decimals that round down to .00, or 0 units with a cent in the first two decimals (leading zeros
 * allowed). A unit test holds it to parseAmountValue.
 */
export const AMOUNT_VALUE_PATTERN = '^(0*[1-9]\\d{0,8}(\\.\\d+)?|0*1000000000(\\.0(0\\d*)?)?|0+\\.(0[1-9]|[1-9])\\d*)$'

export const amountValueSchema = writtenAs(
  z.unknown().transform((v, ctx) => {
    if (v === undefined || v === null) {
      ctx.addIssue({ code: 'custom', message: 'is required' })
      return z.NEVER
    }
    const text = numberText(v)
    const parsed = text === undefined ? null : parseAmountValue(text)
    if (!parsed || !parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed?.message ?? 'must be a decimal number or string' })
      return z.NEVER
    }
    return parsed.minor
  }),
  {
    description:
      'A decimal in plain notation (no exponent, no whitespace), as a JSON string or number; rounded down to two decimals, then at least 0.01 and at most 1000000000.00 (so "0.009" is refused and "1000000000.009" is 1000000000.00). The string pattern and the number bounds say exactly that; a number written with an exponent (1e2) is refused too, which JSON Schema cannot see.',
    anyOf: [
      { type: 'string', pattern: AMOUNT_VALUE_PATTERN },
      { type: 'number', minimum: 0.01, exclusiveMaximum: 1000000000.01 },
    ],
    examples: ['100.00', 60.5],
  },
)

export const currencySchema = z
  .string({ error: 'must be an ISO 4217 alphabetic code' })
  .refine(isKnownCurrency, 'must be an uppercase ISO 4217 alphabetic code')
  .meta({
    description: 'an uppercase ISO 4217 alphabetic code the service knows',
    enum: [...KNOWN_CURRENCIES],
    examples: ['RUB'],
  })

export const amountSchema = z
  .object(
    { value: amountValueSchema, currency: currencySchema },
    { error: 'must be an object with value and currency' },
  )
  .meta({ id: 'AmountRequest', description: 'an amount as a request gives it' })
export type AmountInput = { value: number; currency: string }

export const dateTimeSchema = writtenAs(
  z.string({ error: 'must be an ISO 8601 date-time with an offset' }).transform((s, ctx) => {
    const d = parseDateTime(s)
    if (!d) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an ISO 8601 date-time with an offset, e.g. 2026-12-31T23:59:59+03:00',
      })
      return z.NEVER
    }
    return d
  }),
  {
    type: 'string',
    description: 'ISO 8601 with an offset or Z (seconds and a fraction optional)',
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})$',
    examples: ['2026-12-31T23:59:59+03:00'],
  },
)

const text = (max: number) => z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`)

export const commentSchema = text(1024)

export const customerSchema = z
  .object(
    {
      account: text(256)
        .min(1, 'must not be empty')
        .optional()
        .meta({ description: "the merchant's id of its customer: required for BIND_PAYMENT_TOKEN and TOKEN payments" }),
      email: text(256).optional(),
      name: text(256).optional(),
      phone: text(32).optional(),
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'CustomerRequest' })
export type Customer = z.output<typeof customerSchema>

export const FLAGS = ['SALE', 'BIND_PAYMENT_TOKEN', 'RECURRENT_FIRST'] as const
export type Flag = (typeof FLAGS)[number]

export const flagsSchema = z
  .array(z.enum(FLAGS, { error: `must be one of ${FLAGS.join(', ')}` }), { error: 'must be an array' })
  .max(3)
  .transform((flags) => FLAGS.filter((f) => flags.includes(f)))
  .meta({
    description:
      'SALE: one-step (absent: authorise now, capture later); BIND_PAYMENT_TOKEN: issue a payment token (needs customer.account); RECURRENT_FIRST: start a recurrent series (needs recurrent)',
  })

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
export const recurrentSchema = z
  .object(
    {
      minAuthDay: z
        .number({ error: 'must be an integer' })
        .int('must be an integer')
        .min(1, 'must be at least 1')
        .max(3660, 'must be at most 3660')
        .meta({ description: 'the fewest days between two charges of the series' }),
      expiryDate: z
        .string({ error: 'must be a date YYYY-MM-DD' })
        .refine((s) => {
          const m = DATE.exec(s)
          if (!m) return false
          const d = new Date(`${s}T00:00:00Z`)
          return !Number.isNaN(d.getTime()) && d.getUTCDate() === Number(m[3])
        }, 'must be a date YYYY-MM-DD')
        .meta({
          description: 'the last day of the series (in the future when it starts)',
          format: 'date',
          pattern: '^\\d{4}-\\d{2}-\\d{2}$',
          examples: ['2027-12-31'],
        }),
    },
    { error: 'must be an object with minAuthDay and expiryDate' },
  )
  .meta({ id: 'Recurrent' })
export type Recurrent = z.output<typeof recurrentSchema>

/**
 * A refusal of a time judged on a site's clock, `now` being what it reads. When the clock is not real time (an
 * advance moved it ahead), the refusal names its reading: a deadline in the future of the client's clock may be
 * past on the site's, and nothing else would say why. On real time (nearly every site, and every one in
 * production) the message stays as it was: the client's clock reads the same, and the site's would only add noise.
 */
export const onSiteClock = (message: string, clock: SiteClock, now: Date): string =>
  clock.offsetMs
    ? `${message}: the site's sandbox clock, advanced ahead of real time, reads ${paymentTime(now)}`
    : message

/**
 * A new series must end in the future. Checked when a payment or bill is created, not by the schema:
 * an identical replay of one created before its series' end still answers what was created.
 */
/** a new series' expiryDate judged at `now` on its site's `clock` (the UTC date) */
export const recurrentExpiryProblem = (r: Recurrent | undefined, clock: SiteClock, now = clock.now()): string | null =>
  r && r.expiryDate <= now.toISOString().slice(0, 10) ? onSiteClock('must be in the future', clock, now) : null

/** a non-negative money value in a receipt, rounded down to two decimals; plain notation, no whitespace around */
const receiptMoney = writtenAs(
  z.unknown().transform((v, ctx) => {
    const s = numberText(v)
    if (s === undefined || !/^\d+(\.\d+)?$/.test(s) || s.split('.')[0].length > 10) {
      ctx.addIssue({ code: 'custom', message: 'must be a non-negative decimal number in plain notation' })
      return z.NEVER
    }
    const [whole, fraction = ''] = s.split('.')
    return Number(whole) * 100 + Number((fraction + '00').slice(0, 2))
  }),
  {
    description: 'a non-negative decimal in plain notation, as a JSON string or number; rounded down to two decimals',
    anyOf: [
      { type: 'string', pattern: '^\\d{1,10}(\\.\\d+)?$' },
      { type: 'number', minimum: 0 },
    ],
    examples: ['50.00'],
  },
)

/** a positive quantity as an exact decimal: digits and scale (10^scale); no whitespace around */
const quantity = writtenAs(
  z.unknown().transform((v, ctx) => {
    const s = numberText(v)
    const m = s === undefined ? null : /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(s)
    if (!m || /^0*(\.0*)?$/.test(s!)) {
      ctx.addIssue({ code: 'custom', message: 'must be a positive decimal number with at most 6 decimals' })
      return z.NEVER
    }
    const fraction = m[2] ?? ''
    return { digits: BigInt(m[1] + fraction), scale: fraction.length }
  }),
  {
    description: 'a positive decimal with at most 6 decimals, as a JSON string or number',
    anyOf: [
      { type: 'string', pattern: '^\\d{1,9}(\\.\\d{1,6})?$' },
      { type: 'number', exclusiveMinimum: 0 },
    ],
    examples: [2],
  },
)

export const receiptSchema = z
  .object(
    {
      items: z
        .array(
          z.object(
            { name: text(256).min(1, 'must not be empty'), price: receiptMoney, quantity, total: receiptMoney },
            { error: 'must be an object' },
          ),
          { error: 'must be an array' },
        )
        .min(1, 'must hold at least one item')
        .max(100, 'must hold at most 100 items'),
    },
    { error: 'must be an object with items' },
  )
  .superRefine((r, ctx) => {
    r.items.forEach((item, i) => {
      // total = price × quantity rounded down to two decimals, computed exactly
      const expected = (BigInt(item.price) * item.quantity.digits) / 10n ** BigInt(item.quantity.scale)
      if (BigInt(item.total) !== expected)
        ctx.addIssue({
          code: 'custom',
          path: ['items', i, 'total'],
          message: 'must equal price × quantity rounded down to two decimals',
        })
    })
  })
  .transform((r) => ({
    items: r.items.map((i) => ({
      name: i.name,
      priceMinor: i.price,
      quantity: quantityText(i.quantity),
      totalMinor: i.total,
    })),
  }))
  .meta({
    id: 'Receipt',
    description:
      "a fiscal receipt's items: each total is price × quantity rounded down to two decimals, and the totals add up to amount.value",
  })
export type Receipt = z.output<typeof receiptSchema>

function quantityText(q: { digits: bigint; scale: number }): string {
  const s = q.digits.toString().padStart(q.scale + 1, '0')
  return q.scale ? `${s.slice(0, -q.scale)}.${s.slice(-q.scale)}` : s
}

export const receiptTotalMinor = (r: Receipt) => r.items.reduce((a, i) => a + i.totalMinor, 0)

/** an absolute http(s) URL (return addresses, notification targets) */
export const httpUrlSchema = z
  .string({ error: 'must be a URL' })
  .max(2048, 'must be at most 2048 characters')
  .refine((s) => {
    try {
      return /^https?:$/.test(new URL(s).protocol)
    } catch {
      return false
    }
  }, 'must be an absolute http(s) URL')
  // no `format: uri`: what is accepted is what a browser's URL parser reads as http(s), IRIs included
  // (non-ASCII, `|` in a query), which RFC 3986's uri refuses
  .meta({
    description:
      'an absolute http(s) URL as a browser reads it (WHATWG URL): non-ASCII characters and the like are accepted, and percent-encoded where it is used',
    // the scheme, as that parser reads it: after any leading spaces or controls, in any case
    pattern: '^[\\x00-\\x20]*[Hh][Tt][Tt][Pp][Ss]?:',
  })
