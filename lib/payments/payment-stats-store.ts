// The payments' figures of the dashboard's overview (lib/dashboard/dashboard-overview.ts): counted and summed as the
// payments are written, per site, UTC hour, currency, status and reason (PaymentStat, kept by triggers of the
// migration payment_stats: lib/db/hour-stats.ts). A read sums at most the range's hours' rows, a few per hour
// however many payments an hour holds, so the overview costs the same at ten payments a day and at ten thousand.
import { db } from '../db/client'
import { Prisma } from '../generated/prisma/client'
import { foldHourStats, hourRead, type HourStats, type LocalDays } from '../db/hour-stats'

const PAYMENT_STATS: HourStats = {
  stat: 'PaymentStat',
  change: 'PaymentStatChange',
  keys: ['siteId', 'hour', 'currency', 'status', 'reason'],
  sums: ['count', 'amountMinor'],
}

/** the range's payments of a local day, currency and status: how many, and their amounts summed (minor units) */
export interface PaymentDayGroup {
  day: string
  currency: string
  status: string
  count: number
  amountMinor: bigint
}

/** the range's payments of a status and decline reason (null: none) */
export interface PaymentReasonGroup {
  status: string
  reason: string | null
  count: number
}

/** The site's payments made on the local days given, grouped by day (with currency and status) and by reason. */
export async function paymentGroups(
  siteId: string,
  range: LocalDays,
): Promise<{ byDay: PaymentDayGroup[]; byReason: PaymentReasonGroup[] }> {
  // three parts, summed: the folded hours and the changes not folded yet (whole hours of the range), and the payments
  // themselves in the hours a local midnight splits (none in a zone on the hour: then the part is left out). One
  // statement: one snapshot, in which a fold's changes are in one table or the other, never both. The day is written
  // as text after the grouping, for a few dozen groups rather than every hour row.
  const r = hourRead(range)
  const rows = await db().$queryRaw<
    {
      day: string | null
      currency: string | null
      status: string
      reason: string | null
      count: number
      amountMinor: string
    }[]
  >`
    WITH ${r.with}
    p AS (
      SELECT hour AS at, currency, status, reason, count, "amountMinor" FROM "PaymentStat"
      WHERE "siteId" = ${siteId} AND count <> 0 AND ${r.wholeHours}
      UNION ALL
      SELECT hour, currency, status, reason, count, "amountMinor" FROM "PaymentStatChange"
      WHERE "siteId" = ${siteId} AND ${r.wholeHours}
      ${r.splitRows('Payment', siteId, Prisma.sql`"createdAt", currency, status, coalesce("statusReason", ''), 1, "amountMinor"`)}),
    g AS (
      SELECT (at AT TIME ZONE ${range.timeZone})::date AS day, currency, status, reason, sum(count) AS count,
             sum("amountMinor") AS "amountMinor"
      FROM p
      GROUP BY GROUPING SETS ((day, currency, status), (status, reason))
      HAVING sum(count) <> 0)
    SELECT to_char(day, 'YYYY-MM-DD') AS day, currency, status, nullif(reason, '') AS reason, count::int AS count,
           "amountMinor"::text AS "amountMinor"
    FROM g`
  // the day set's rows have a day (every payment has one); the reason set's have none
  return {
    byDay: rows
      .filter((r) => r.day !== null)
      .map((r) => ({
        day: r.day!,
        currency: r.currency!,
        status: r.status,
        count: r.count,
        amountMinor: BigInt(r.amountMinor),
      })),
    byReason: rows.filter((r) => r.day === null).map((r) => ({ status: r.status, reason: r.reason, count: r.count })),
  }
}

/**
 * Folds up to `limit` payment stat changes into PaymentStat (lib/db/hour-stats.ts foldHourStats), and removes the
 * rows it left at zero (a reset's or a retention sweep's hours); how many changes it folded.
 */
export const foldPaymentStats = (limit: number): Promise<number> => foldHourStats(PAYMENT_STATS, limit)
