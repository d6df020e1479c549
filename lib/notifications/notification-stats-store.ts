// The notifications' figures of the dashboard's overview (lib/dashboard/dashboard-overview.ts): counted as the
// notifications are written, per site, UTC hour and state (NotificationStat, kept by triggers of the migration
// payment_stats: lib/db/hour-stats.ts), so a read sums at most a few rows per hour of the range.
import { db } from '../db/client'
import { Prisma } from '../generated/prisma/client'
import { foldHourStats, hourRead, type HourStats, type LocalDays } from '../db/hour-stats'

const NOTIFICATION_STATS: HourStats = {
  stat: 'NotificationStat',
  change: 'NotificationStatChange',
  keys: ['siteId', 'hour', 'state'],
  sums: ['count'],
}

/** The site's notifications made on the local days of `range`: how many per state. */
export async function notificationStateCounts(
  siteId: string,
  range: LocalDays,
): Promise<{ state: string; count: number }[]> {
  // as the payments' figures (lib/payments/payment-stats-store.ts), for the range as a whole: only its two ends can
  // split an hour
  const r = hourRead(range, true)
  return db().$queryRaw<{ state: string; count: number }[]>`
    WITH ${r.with}
    n AS (
      SELECT state, count FROM "NotificationStat" WHERE "siteId" = ${siteId} AND count <> 0 AND ${r.wholeHours}
      UNION ALL
      SELECT state, count FROM "NotificationStatChange" WHERE "siteId" = ${siteId} AND ${r.wholeHours}
      ${r.splitRows('Notification', siteId, Prisma.sql`state, 1`)})
    SELECT state, sum(count)::int AS count FROM n GROUP BY state HAVING sum(count) <> 0`
}

/** Folds up to `limit` notification stat changes into NotificationStat (as foldPaymentStats does); how many. */
export const foldNotificationStats = (limit: number): Promise<number> => foldHourStats(NOTIFICATION_STATS, limit)
