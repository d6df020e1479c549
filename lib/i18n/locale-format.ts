// Formats given a locale and nothing else imported: the server's formats (format.ts) are built on them, and the
// dashboard's browser components use them with the locale (and words) their page hands them as props, so that
// no dictionary and no language list is sent to the browser.
import { memoized } from '../memoized'

/** a word's forms by plural category; `other` is every language's fallback */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

export type DurationUnit = 'day' | 'hour' | 'minute' | 'second'
export type DurationWords = Record<DurationUnit, PluralForms>

// a language's plural rules are its locale's
const pluralRules = memoized((locale) => new Intl.PluralRules(locale))

/** the form of a word that goes with the number `n` */
export const pluralForm = (forms: PluralForms, n: number, locale: string) =>
  forms[pluralRules(locale).select(n)] ?? forms.other

/**
 * a positive span of time in words: days, hours and minutes, the units that are not zero, largest first (seconds
 * only for less than a minute: an advance `to` a date-time leaves milliseconds that nobody wants to read)
 */
export function durationInWords(ms: number, words: DurationWords, locale: string): string {
  const say = (n: number, unit: DurationUnit) => `${n} ${pluralForm(words[unit], n, locale)}`
  if (ms < 60_000) return say(Math.max(1, Math.round(ms / 1000)), 'second')
  const minutes = Math.floor(ms / 60_000)
  const parts: [number, DurationUnit][] = [
    [Math.floor(minutes / 1440), 'day'],
    [Math.floor((minutes % 1440) / 60), 'hour'],
    [minutes % 60, 'minute'],
  ]
  return parts
    .filter(([n]) => n > 0)
    .map(([n, unit]) => say(n, unit))
    .join(' ')
}

/** an instant as the dashboard shows it: medium date and time with seconds, in the given time zone */
export const timeInZone = (at: Date, locale: string, timeZone: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone }).format(at)

/** an instant of an answer, as the browser's reader would write it: medium date, short time, the browser's zone */
export const localTime = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))

/**
 * an amount in minor units as an amount field holds it in a locale: no grouping, the locale's decimal sign
 * (`1234.50`, `1234,50`); the fields take either sign back
 */
export function amountFieldValue(minor: number | bigint, locale: string): string {
  const n = BigInt(minor)
  const whole = n / 100n
  const cents = String(n % 100n).padStart(2, '0')
  const sign = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.'
  return `${whole}${sign}${cents}`
}

/** an amount typed in a field, with either decimal sign (`1234,50`, `1234.50`), in the API's notation */
export const amountFromField = (text: string) => text.trim().replace(',', '.')

/** whether a field holds an amount a form may send: above zero, at most two decimals, either decimal sign */
export const isAmountField = (text: string) =>
  /^\d{1,10}([.,]\d{1,2})?$/.test(text.trim()) && !/^0+([.,]0{1,2})?$/.test(text.trim())
