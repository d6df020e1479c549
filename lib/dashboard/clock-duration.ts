// How far a site's sandbox clock runs ahead, in words: "2 days 3 hours", "16 minutes", "1 day"; in
// Russian the forms that follow «на» («на 1 день», «на 2 дня 3 часа», «на 1 минуту»). Days, hours and
// minutes (seconds only for less than a minute: an advance `to` a date-time leaves milliseconds that
// nobody wants to read); the exact time is shown beside it. Pure: used by pages and by the browser.
import type { Lang } from '../pay-form/messages'

type Unit = 'day' | 'hour' | 'minute' | 'second'

const EN: Record<Unit, [string, string]> = {
  day: ['day', 'days'],
  hour: ['hour', 'hours'],
  minute: ['minute', 'minutes'],
  second: ['second', 'seconds'],
}

// the accusative after «на»: one, few, many
const RU: Record<Unit, [string, string, string]> = {
  day: ['день', 'дня', 'дней'],
  hour: ['час', 'часа', 'часов'],
  minute: ['минуту', 'минуты', 'минут'],
  second: ['секунду', 'секунды', 'секунд'],
}

const ruPlural = new Intl.PluralRules('ru')

function words(n: number, unit: Unit, lang: Lang): string {
  if (lang === 'ru') {
    const form = ruPlural.select(n)
    return `${n} ${RU[unit][form === 'one' ? 0 : form === 'few' ? 1 : 2]}`
  }
  return `${n} ${EN[unit][n === 1 ? 0 : 1]}`
}

/** a positive span of time in words (minutes and up: whole minutes, the rest left out) */
export function shownDuration(ms: number, lang: Lang): string {
  if (ms < 60_000) return words(Math.max(1, Math.round(ms / 1000)), 'second', lang)
  const minutes = Math.floor(ms / 60_000)
  const parts: [number, Unit][] = [
    [Math.floor(minutes / 1440), 'day'],
    [Math.floor((minutes % 1440) / 60), 'hour'],
    [minutes % 60, 'minute'],
  ]
  return parts
    .filter(([n]) => n > 0)
    .map(([n, unit]) => words(n, unit, lang))
    .join(' ')
}

/** the units the dashboard's "Advance" form offers, in seconds */
export const CLOCK_UNITS = { minutes: 60, hours: 3600, days: 86_400 } as const
export type ClockUnit = keyof typeof CLOCK_UNITS
