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

// a calendar day (YYYY-MM-DD) is no instant: it is written as that date in UTC, whatever the service's zone
const dayFormat = memoized((key) => {
  const [locale, style] = key.split(' ')
  return new Intl.DateTimeFormat(
    locale,
    style === 'short' ? { day: 'numeric', month: 'short', timeZone: 'UTC' } : { dateStyle: 'medium', timeZone: 'UTC' },
  )
})
const countFormat = memoized((locale) => new Intl.NumberFormat(locale))
const shareFormat = memoized((locale) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }))

/** the dashboard: a calendar day (`27 Nov 2026`, `27 нояб. 2026 г.`; short: `27 Nov`, `27 нояб.`) */
export const shownDay = (day: string, lang: Lang, style: 'short' | 'medium' = 'medium') =>
  dayFormat(`${localeOf(lang)} ${style}`).format(new Date(`${day}T00:00:00Z`))

/** the dashboard: a count (`1,234`, `1 234`) */
export const shownCount = (n: number, lang: Lang) => countFormat(localeOf(lang)).format(n)

/** the dashboard: a share of a whole, 0 to 1 (`87.5%`, `87,5 %`) */
export const shownShare = (share: number, lang: Lang) => shareFormat(localeOf(lang)).format(share)
