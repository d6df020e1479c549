// Money on the wire and in the domain. Amounts are integer minor units (1/100 of the currency's unit:
// the protocol always answers two decimals, whatever the currency's own exponent) held in dinero.js
// objects; never floats.
import { add, dinero, subtract, toDecimal, toSnapshot, lessThanOrEqual, type Dinero } from 'dinero.js'
import * as currencies from 'dinero.js/currencies'
import { z } from 'zod'
import { memoized } from '../memoized'
import { MAX_AMOUNT_MINOR, parseAmountValue, type ParsedValue } from './amount-value'

export type Money = Dinero<number>

// the amount parser has a module of its own (no dinero.js in it): the payment page's browser script uses it
export { MAX_AMOUNT_MINOR, parseAmountValue, type ParsedValue }

const knownCurrencies = new Set(Object.keys(currencies).filter((k) => /^[A-Z]{3}$/.test(k)))

export function isKnownCurrency(code: string): boolean {
  return knownCurrencies.has(code)
}

/** the ISO 4217 alphabetic codes the service knows (dinero.js's), sorted */
export const KNOWN_CURRENCIES: readonly string[] = [...knownCurrencies].sort()

export function money(minor: number | bigint, currency: string): Money {
  return dinero({ amount: Number(minor), currency: { code: currency, base: 10, exponent: 2 }, scale: 2 })
}

export function minorOf(m: Money): number {
  return toSnapshot(m).amount
}

export function sum(a: Money, b: Money): Money {
  return add(a, b)
}

export function difference(a: Money, b: Money): Money {
  return subtract(a, b)
}

export function notAbove(a: Money, b: Money): boolean {
  return lessThanOrEqual(a, b)
}

/** `"100.00"` */
export function formatValue(m: Money): string {
  return toDecimal(m)
}

// one formatter per language and currency
const peopleFormat = memoized((key) => {
  const [locale, currency] = key.split(' ')
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })
})

/** `100,00 ₽`, `$100.00`: an amount for people, in their language */
export function formatForPeople(minor: number | bigint, currency: string, locale: string): string {
  return toDecimal(money(minor, currency), ({ value }) => peopleFormat(`${locale} ${currency}`).format(Number(value)))
}

/** an amount in an answer: always a string with two decimals (the OpenAPI document's `Amount`) */
export const wireAmountSchema = z
  .strictObject({
    value: z
      .string()
      .regex(/^\d+\.\d{2}$/)
      .meta({
        description: "a decimal string with two decimals, whatever the currency's own minor unit",
        examples: ['100.00'],
      }),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .meta({ description: 'ISO 4217 alphabetic code', examples: ['RUB'] }),
  })
  .meta({ id: 'Amount', examples: [{ value: '100.00', currency: 'RUB' }] })
export type WireAmount = z.input<typeof wireAmountSchema>

/**
 * `"100.00"` from minor units: what formatValue(money(minor, currency)) gives, without building a
 * Dinero object (this runs for every amount of every answer and notification)
 */
export function formatMinor(minor: number | bigint): string {
  const n = Number(minor)
  const abs = Math.abs(n)
  const cents = abs % 100
  return `${n < 0 ? '-' : ''}${(abs - cents) / 100}.${cents < 10 ? '0' : ''}${cents}`
}

export function wireAmount(minor: number | bigint, currency: string): WireAmount {
  return { value: formatMinor(minor), currency }
}
