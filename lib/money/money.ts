// Money on the wire and in the domain. Amounts are integer minor units (1/100 of the currency's unit:
// the protocol always answers two decimals, whatever the currency's own exponent) held in dinero.js
// objects; never floats.
import { add, dinero, subtract, toDecimal, toSnapshot, lessThanOrEqual, type Dinero } from 'dinero.js'
import * as currencies from 'dinero.js/currencies'
import { memoized } from '../memoized'

export type Money = Dinero<number>

/** 1,000,000,000.00 */
export const MAX_AMOUNT_MINOR = 100_000_000_000

const knownCurrencies = new Set(Object.keys(currencies).filter((k) => /^[A-Z]{3}$/.test(k)))

export function isKnownCurrency(code: string): boolean {
  return knownCurrencies.has(code)
}

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
  return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 })
})

/** `100,00 ₽`, `$100.00`: an amount for people, in their language */
export function formatForPeople(minor: number | bigint, currency: string, locale: string): string {
  return toDecimal(money(minor, currency), ({ value }) => peopleFormat(`${locale} ${currency}`).format(Number(value)))
}

export interface WireAmount {
  value: string
  currency: string
}

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

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/

export type ParsedValue = { ok: true; minor: number } | { ok: false; message: string }

/**
 * A wire amount value (the JSON text of a number, or a string) in plain decimal notation, rounded
 * DOWN to two decimals, > 0.00 and ≤ 1,000,000,000.00 after rounding. Nothing is trimmed: `" 10.00"` is
 * not plain decimal notation (the payment page trims what a payer types before it comes here).
 */
export function parseAmountValue(s: string): ParsedValue {
  if (!PLAIN_DECIMAL.test(s)) return { ok: false, message: 'must be a decimal number in plain notation, e.g. "100.00"' }
  if (s.startsWith('-')) return { ok: false, message: 'must be greater than 0' }
  const [whole, fraction = ''] = s.split('.')
  const units = whole.replace(/^0+(?=\d)/, '')
  if (units.length > 10) return { ok: false, message: 'must not exceed 1000000000.00' }
  const minor = Number(units) * 100 + Number((fraction + '00').slice(0, 2))
  if (minor <= 0) return { ok: false, message: 'must be greater than 0' }
  if (minor > MAX_AMOUNT_MINOR) return { ok: false, message: 'must not exceed 1000000000.00' }
  return { ok: true, minor }
}
