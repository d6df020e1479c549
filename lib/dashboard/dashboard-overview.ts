// The dashboard's overview (issue 33): the site's last 30 days at a glance, on the site's sandbox clock and in the
// service's time zone (the days are that zone's calendar days, the last one today's): payments made and the amounts
// paid per day, the share of finished payments that were paid, why payments were declined, and how notifications
// were delivered. Everything is counted and summed by the database (lib/payments/payment-stats-store.ts,
// lib/notifications/notification-stats-store.ts); this module fills the days without payments and orders the rest.
import { settings } from '../config'
import { memoized } from '../memoized'
import { notificationStateCounts } from '../notifications/notification-stats-store'
import { paymentGroups } from '../payments/payment-stats-store'
import { siteClock } from '../sites/site-store'

/** how many days the overview covers, today's included */
export const OVERVIEW_DAYS = 30
/** how many decline reasons it names; the others are counted together */
export const TOP_REASONS = 5
/** the notification states it counts, in the order it shows them */
export const DELIVERY_STATES = ['DELIVERED', 'PENDING', 'FAILED'] as const
/** the currency shown first (the sandbox's own); the others follow in alphabetical order */
const FIRST_CURRENCY = 'RUB'

export interface OverviewDay {
  /** the local day, YYYY-MM-DD */
  day: string
  /** the payments made that day, whatever their status */
  count: number
  /** the amounts of that day's payments that are paid (COMPLETED), per currency, minor units */
  paidMinor: Record<string, bigint>
}

export interface Overview {
  /** the site's time when counted */
  now: Date
  timeZone: string
  /** the first and the last day covered (YYYY-MM-DD; the last is the site's today) */
  first: string
  last: string
  /** every day covered, oldest first (a day without payments too) */
  days: OverviewDay[]
  /** the currencies of the paid amounts, RUB first (RUB alone when nothing was paid) */
  currencies: string[]
  /** the payments made in the days covered, by status, and in all */
  payments: { total: number; byStatus: Record<string, number> }
  /** the amounts paid in the days covered, per currency */
  paidMinor: Record<string, bigint>
  /** paid (COMPLETED) among finished (COMPLETED or DECLINED) payments; null when none is finished */
  completedShare: number | null
  /** the decline reasons of the declined payments, most frequent first (ties by code), at most TOP_REASONS */
  reasons: { reason: string; count: number }[]
  /** the declined payments of the other reasons (and of none) */
  otherReasons: number
  /** the notifications made in the days covered, per state of DELIVERY_STATES */
  notifications: Record<(typeof DELIVERY_STATES)[number], number>
}

// a day's date in a time zone (en-CA writes YYYY-MM-DD), one formatter per zone for the life of the process
const dayFormat = memoized(
  (timeZone) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
)

/** the calendar day (YYYY-MM-DD) an instant falls on in a time zone */
export const localDay = (at: Date, timeZone: string) => dayFormat(timeZone).format(at)

/** a calendar day (YYYY-MM-DD) moved by whole days (calendar arithmetic: no time zone, no daylight saving) */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10)
}

const byCurrency = (a: string, b: string) =>
  a === FIRST_CURRENCY ? -1 : b === FIRST_CURRENCY ? 1 : a < b ? -1 : a > b ? 1 : 0

/**
 * The site's overview of the OVERVIEW_DAYS local days up to its today (on its sandbox clock); `timeZone`: the zone
 * whose days they are (the service's, SERVICE_TIME_ZONE, unless a test names another).
 */
export async function siteOverview(siteId: string, timeZone = settings().timeZone): Promise<Overview> {
  const now = (await siteClock(siteId)).now()
  const last = localDay(now, timeZone)
  const first = addDays(last, -(OVERVIEW_DAYS - 1))
  const range = { first, days: OVERVIEW_DAYS, timeZone }
  const [groups, states] = await Promise.all([paymentGroups(siteId, range), notificationStateCounts(siteId, range)])

  const days: OverviewDay[] = Array.from({ length: OVERVIEW_DAYS }, (_, i) => ({
    day: addDays(first, i),
    count: 0,
    paidMinor: {},
  }))
  const dayOf = new Map(days.map((d) => [d.day, d]))
  const byStatus: Record<string, number> = {}
  const paidMinor: Record<string, bigint> = {}
  let total = 0
  for (const g of groups.byDay) {
    const day = dayOf.get(g.day)
    // a day outside the range cannot come back (the statement is bounded by it): skipped all the same
    if (!day) continue
    day.count += g.count
    total += g.count
    byStatus[g.status] = (byStatus[g.status] ?? 0) + g.count
    if (g.status === 'COMPLETED') {
      day.paidMinor[g.currency] = (day.paidMinor[g.currency] ?? 0n) + g.amountMinor
      paidMinor[g.currency] = (paidMinor[g.currency] ?? 0n) + g.amountMinor
    }
  }
  const currencies = Object.keys(paidMinor).sort(byCurrency)
  if (currencies.length === 0) currencies.push(FIRST_CURRENCY)

  const completed = byStatus.COMPLETED ?? 0
  const finished = completed + (byStatus.DECLINED ?? 0)
  const declined = groups.byReason
    .filter((g) => g.status === 'DECLINED' && g.reason !== null)
    .map((g) => ({ reason: g.reason!, count: g.count }))
    .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0))
  const reasons = declined.slice(0, TOP_REASONS)
  const otherReasons = (byStatus.DECLINED ?? 0) - reasons.reduce((n, r) => n + r.count, 0)

  const notifications = { DELIVERED: 0, PENDING: 0, FAILED: 0 }
  for (const s of states) if (Object.hasOwn(notifications, s.state)) notifications[s.state as 'PENDING'] = s.count

  return {
    now,
    timeZone,
    first,
    last,
    days,
    currencies,
    payments: { total, byStatus },
    paidMinor,
    completedShare: finished === 0 ? null : completed / finished,
    reasons,
    otherReasons,
    notifications,
  }
}
