// Amounts and times as the dashboard shows them, in the page's language and the service's time zone.
import { settings } from '../config'
import { formatForPeople } from '../money/money'
import type { Lang } from '../pay-form/messages'

const locale = (lang: Lang) => (lang === 'ru' ? 'ru-RU' : 'en-GB')

export const shownAmount = (minor: number | bigint, currency: string, lang: Lang) =>
  formatForPeople(minor, currency, locale(lang))

export const shownTime = (at: Date, lang: Lang) =>
  new Intl.DateTimeFormat(locale(lang), {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: settings().timeZone,
  }).format(at)
