// The per-site sandbox clock. A site's time is real time plus its offset (Site.clockOffsetMs), which only
// grows: POST …/sandbox/clock/advance moves it forward, a sandbox reset sets it back to 0. Every time rule
// of the site reads it — bill deadlines and the 45-day window, the 3-D Secure timeout, the mobile
// operator's delay, card (and so token) expiry months, recurrent minAuthDay and expiryDate, notification
// retries — and every date-time the site's resources carry is written on it. The offset lives in the
// database only, so every instance sees an advance at once. SANDBOX_CLOCK=off: every site on real time. A write of
// the site's data gets its clock from siteWrite (lib/sandbox/site-write.ts), behind the site's gate; a read, from
// siteClock (lib/sites/site-store.ts).
// Left on real time on purpose (they guard the service, not the merchant's test): rate limits, dashboard
// sessions, the payment page's per-client attempt window, notification leases, the Payin-Signature
// timestamp (a receiver checks it against its own clock), the dateTime of error answers and the dashboard's
// audit entries. A bill's pause after failed attempts in a row counts on the site's clock (its payments'
// times), so an advance ends it too.
import { settings } from '../config'
import { Prisma } from '../generated/prisma/client'
import { clockAt, REAL_TIME, type SiteClock } from '../time/clock'

// the clock values themselves live below every layer (lib/http/ hands them to the endpoints)
export { clockAt, REAL_TIME, type SiteClock }

/** the clock of a site offset by `storedOffsetMs` (the column's value), as the setting allows */
export const clockOf = (storedOffsetMs: bigint | number | null | undefined): SiteClock =>
  settings().sandboxClock && storedOffsetMs ? clockAt(Number(storedOffsetMs)) : REAL_TIME

/**
 * The offset of the site row `alias` in a statement, as an interval (0 with SANDBOX_CLOCK=off): what a
 * statement adds to real time to get the site's time, e.g. `"dueAt" <= ${now} + ${siteOffset('s')}`.
 */
export const siteOffset = (alias: string): Prisma.Sql => offsetInterval(`"${alias}"."clockOffsetMs"`)

/**
 * a column holding a site's clock offset (milliseconds), as an interval (0 with SANDBOX_CLOCK=off: every site on real
 * time)
 */
export const offsetInterval = (column: string): Prisma.Sql =>
  settings().sandboxClock
    ? Prisma.raw(`(coalesce(${column}, 0) * interval '1 millisecond')`)
    : Prisma.raw(`interval '0'`)

/**
 * The ids of the rows of `table` (alias `x` in `where`) whose due time `column` has come on their site's
 * clock, or a superset of them (a statement still compares each with its own site's time): those due on
 * real time, and, of every site whose clock is ahead, those due by its own time. Each part is a range of
 * an index (`column` alone for the first, ("siteId", …, `column`) for the second): a site advanced by
 * years brings its own rows into the set, not every site's rows up to its time. The set is built whole,
 * once per statement: for statements that need every due row (the delivery claim's per-site places, the
 * metrics' backlog). To take the first due row, one at a time, the scheduler scans each range in order
 * and stops at the first row (lib/scheduler/time-driven-changes.ts): with this set it would read the whole
 * backlog for each row taken. Offsets only grow from 0, so a row due on real time is due on its site's
 * clock too. `now`: real time as the statement has it.
 */
export function dueOnSiteClock(
  table: 'Payment' | 'Bill' | 'Notification',
  column: string,
  now: Prisma.Sql,
  where: Prisma.Sql,
): Prisma.Sql {
  const t = Prisma.raw(`"${table}"`)
  const c = Prisma.raw(`x."${column}"`)
  const realTime = Prisma.sql`SELECT x.id FROM ${t} x WHERE ${c} <= ${now} AND ${where}`
  if (!settings().sandboxClock) return realTime
  return Prisma.sql`${realTime}
    UNION ALL
    SELECT x.id FROM "Site" ahead JOIN ${t} x ON x."siteId" = ahead.id
    WHERE ahead."clockOffsetMs" > 0 AND ${c} > ${now} AND ${c} <= ${now} + ahead."clockOffsetMs" * interval '1 millisecond' AND ${where}`
}
