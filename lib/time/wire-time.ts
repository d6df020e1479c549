// Date-times on the wire: `YYYY-MM-DDThh:mm:ss.SSS±hh:mm` (payments, captures, refunds) or without
// milliseconds (bills), in the service time zone; inputs are ISO 8601 with an offset or `Z`.
import { z } from 'zod'
import { settings } from '../config'
import { memoized } from '../memoized'
import { publishedAsDateTime } from '../wire/wire-form'

// one formatter per time zone for the life of the process (building one costs ~15× using it)
const offsetFormat = memoized((timeZone) => new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }))

/** the zone's offset from UTC at an instant, in minutes (Moscow: 180) */
export function offsetMinutes(date: Date, timeZone: string): number {
  if (timeZone === 'UTC') return 0
  const name = offsetFormat(timeZone)
    .formatToParts(date)
    .find((p) => p.type === 'timeZoneName')?.value
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '')
  if (!m) return 0
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]))
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

export function formatDateTime(date: Date, withMillis: boolean, timeZone = settings().timeZone): string {
  const offset = offsetMinutes(date, timeZone)
  const local = new Date(date.getTime() + offset * 60_000)
  const sign = offset < 0 ? '-' : '+'
  const abs = Math.abs(offset)
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    (withMillis ? `.${pad(local.getUTCMilliseconds(), 3)}` : '') +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  )
}

/** payments, captures, refunds */
export const paymentTime = (d: Date) => formatDateTime(d, true)
/** bills */
export const billTime = (d: Date) => formatDateTime(d, false)
/** notifications (as production sends them: no fraction of a second) */
export const notificationTime = billTime

// the answers' date-times as the OpenAPI document describes them (paymentTime, billTime, notificationTime):
// their exact forms in the tests' strict variant, any RFC 3339 date-time in the published document
// (production writes payments' without a fraction and errors' with six digits)
const ANY_FORM = ' Read any RFC 3339 date-time: other implementations of the protocol write other forms.'
export const paymentTimeSchema = publishedAsDateTime(
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/)
    .meta({
      id: 'PaymentDateTime',
      description: `This service writes ISO 8601 with milliseconds and the offset of the service time zone (SERVICE_TIME_ZONE; UTC is written +00:00, never Z).${ANY_FORM}`,
      examples: ['2026-11-22T10:15:30.123+00:00'],
    }),
)
export const billTimeSchema = publishedAsDateTime(
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
    .meta({
      id: 'BillDateTime',
      description: `This service writes ISO 8601 without a fraction of a second, with the offset of the service time zone (UTC is written +00:00, never Z).${ANY_FORM}`,
      examples: ['2026-11-22T10:15:30+00:00'],
    }),
)
export const notificationTimeSchema = publishedAsDateTime(
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
    .meta({
      id: 'NotificationDateTime',
      description: `As production writes it in notifications: ISO 8601 without a fraction of a second, with the offset of the service time zone.${ANY_FORM}`,
      examples: ['2026-11-23T12:04:05+00:00'],
    }),
)

/** midnight at the start of a calendar day in the service time zone, without milliseconds */
export function formatLocalMidnight(year: number, month: number, day: number, timeZone = settings().timeZone): string {
  const utcMidnight = new Date(Date.UTC(year, month - 1, day))
  return formatDateTime(
    new Date(utcMidnight.getTime() - offsetMinutes(utcMidnight, timeZone) * 60_000),
    false,
    timeZone,
  )
}

const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/

/** An ISO 8601 date-time with an offset or `Z`; null when malformed or without an offset. */
export function parseDateTime(text: string): Date | null {
  const m = ISO_WITH_OFFSET.exec(text)
  if (!m) return null
  const [, y, mo, d, h, mi, s = '00', frac = '', zone] = m
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)
    return null
  const days = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate()
  if (Number(d) > days) return null
  const z = zone === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone
  const ms = (frac + '000').slice(0, 3)
  const t = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${z}`)
  return Number.isNaN(t) ? null : new Date(t)
}
