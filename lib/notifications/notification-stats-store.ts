// The notifications' figures of the dashboard's overview (lib/dashboard/dashboard-overview.ts): counted by state
// by PostgreSQL over a range of the site's local days, through the index on ("siteId", "createdAt").
import { db } from '../db/client'

/** The site's notifications made on the local days from `first` (YYYY-MM-DD), `days` of them: how many per state. */
export async function notificationStateCounts(
  siteId: string,
  range: { first: string; days: number; timeZone: string },
): Promise<{ state: string; count: number }[]> {
  const { first, days, timeZone } = range
  return db().$queryRaw<{ state: string; count: number }[]>`
    SELECT state, count(*)::int AS count
    FROM "Notification"
    WHERE "siteId" = ${siteId}
      AND "createdAt" >= (${first}::date::timestamp AT TIME ZONE ${timeZone})
      AND "createdAt" < ((${first}::date + ${days}::int)::timestamp AT TIME ZONE ${timeZone})
    GROUP BY state`
}
