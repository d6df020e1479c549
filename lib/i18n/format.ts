// Dates, amounts and spans of time as the pages show them, in the page's language and the service's time zone:
// the payment page's (the payer's: its locale, see languages.ts) and the dashboard's.
import { settings } from '../config'
import { memoized } from '../memoized'
import { formatForPeople } from '../money/money'
import { durationInWords, timeInZone } from './locale-format'
import { localeOf, payPageLocaleOf, textsOf, type Lang } from './languages'

// one formatter per locale for the life of the process
const deadlineFormat = memoized(
  (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: settings().timeZone }),
)

/** the payment page: a bill's amount (`$1,490.00`, `1 490,00 ₽`) */
export const payPageAmount = (minor: number | bigint, currency: string, lang: Lang) =>
  formatForPeople(minor, currency, payPageLocaleOf(lang))

/** the payment page: a bill's deadline (`July 5, 2026 at 3:04 PM`, `5 июля 2026 г. в 15:04`) */
export const payPageDeadline = (at: Date, lang: Lang) => deadlineFormat(payPageLocaleOf(lang)).format(at)

/** the dashboard: an amount (`US$1,490.00`, `1 490,00 ₽`) */
export const shownAmount = (minor: number | bigint, currency: string, lang: Lang) =>
  formatForPeople(minor, currency, localeOf(lang))

/** the dashboard: an instant (`5 Jul 2026, 15:04:05`, `5 июл. 2026 г., 15:04:05`) */
export const shownTime = (at: Date, lang: Lang) => timeInZone(at, localeOf(lang), settings().timeZone)

/** the dashboard: how far a site's sandbox clock runs ahead (`2 days 3 hours`, `2 дня 3 часа`) */
export const shownDuration = (ms: number, lang: Lang) => durationInWords(ms, textsOf(lang).duration, localeOf(lang))
