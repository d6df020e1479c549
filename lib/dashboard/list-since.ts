// A list's "made since" filter (the payments', the notifications'): a local day, YYYY-MM-DD, from the overview's links,
// which count the payments and notifications made in their days, so that a link's list shows what its figure counts.
// Days as the overview's: in the service's time zone, on the site's clock (rows are dated on it).
import { settings } from '../config'

/**
 * the day of a `since` parameter, or undefined for one that is no real day of 1970 to 9999 (then no filter; PostgreSQL
 * has no year 0000)
 */
export function sinceDay(raw: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || raw < '1970-01-01') return undefined
  const at = new Date(`${raw}T00:00:00Z`)
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === raw ? raw : undefined
}

/** the filter the stores take: the day, and the zone its midnight is in */
export const sinceFilter = (day: string | undefined) => (day ? { day, timeZone: settings().timeZone } : undefined)
