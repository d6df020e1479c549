// The payments' figures of the dashboard's overview (lib/dashboard/dashboard-overview.ts): counted and summed by
// PostgreSQL over a range of the site's local days, never read row by row. One statement scans the range once,
// through an index on ("siteId", "createdAt") (the scale issue's ("siteId", "createdAt", id) serves it), and
// answers a few dozen grouped rows however many payments the range holds.
import { db } from '../db/client'

/** the local days `first` (YYYY-MM-DD) and the `days` - 1 after it, in `timeZone` */
export interface LocalDays {
  first: string
  days: number
  timeZone: string
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
  const { first, days, timeZone } = range
  // the range's bounds are instants (a day's local midnight, in the zone's offset of that night), so the index on
  // createdAt bounds the scan; each row's local day is its instant read in the zone. One scan, both groupings.
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
    WITH p AS (
      SELECT ("createdAt" AT TIME ZONE ${timeZone})::date AS day, currency, status, "statusReason" AS reason, "amountMinor"
      FROM "Payment"
      WHERE "siteId" = ${siteId}
        AND "createdAt" >= (${first}::date::timestamp AT TIME ZONE ${timeZone})
        AND "createdAt" < ((${first}::date + ${days}::int)::timestamp AT TIME ZONE ${timeZone}))
    SELECT to_char(day, 'YYYY-MM-DD') AS day, currency, status, reason, count(*)::int AS count,
           sum("amountMinor")::text AS "amountMinor"
    FROM p
    GROUP BY GROUPING SETS ((day, currency, status), (status, reason))`
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
