// Counts kept per UTC hour (the overview's PaymentStat and NotificationStat, migration payment_stats), read back
// per local day of any time zone. A zone whose midnight falls on the hour (most zones; Moscow, the service's default)
// is answered by the hour rows alone; a zone offset by a half or a quarter hour (India, Nepal, ...) splits the hours
// that hold a local midnight, so those few hours are counted from their rows (`HourRead.splitRows`) instead.
import { Prisma } from '../generated/prisma/client'
import { midnightsOnTheHour } from '../time/local-days'
import { db } from './client'

/** the local days `first` (YYYY-MM-DD) and the `days` - 1 after it, in `timeZone` */
export interface LocalDays {
  first: string
  days: number
  timeZone: string
}

/** How a statement reads the hour rows of a range of local days, and the rows of the hours a midnight splits. */
export interface HourRead {
  /** the statement's first `WITH` parts, each followed by a comma: none when no hour is split */
  with: Prisma.Sql
  /** the condition that the hour rows' `hour` lies in the range and is not split */
  wholeHours: Prisma.Sql
  /**
   * `UNION ALL` the rows of `table` of the site made in the split hours of the range, each as `columns` (its own
   * counts); empty when no hour is split: the statement then has no such part, and its hour rows are read by the
   * range's bounds as constants, which the planner estimates
   */
  splitRows: (table: 'Payment' | 'Notification', siteId: string, columns: Prisma.Sql) => Prisma.Sql
}

/** the instant a local day (YYYY-MM-DD) starts in the time zone: the overview's bound, and its lists' `since` */
export const localMidnight = (day: string, timeZone: string): Prisma.Sql =>
  Prisma.sql`(${day}::date::timestamp AT TIME ZONE ${timeZone})`

/**
 * The read of the days of `range`: every local midnight of it may split an hour, or with `edgesOnly` its two bounds
 * only (for totals over the whole range). A zone off the hour gets the `WITH` parts `bounds` (lo, hi: the first
 * day's local midnight and the one after the last day) and `split` (hour: the UTC hours that hold a local midnight).
 */
export function hourRead({ first, days, timeZone }: LocalDays, edgesOnly = false): HourRead {
  const lo = localMidnight(first, timeZone)
  const hi = Prisma.sql`((${first}::date + ${days}::int)::timestamp AT TIME ZONE ${timeZone})`
  if (midnightsOnTheHour(first, days, timeZone))
    return { with: Prisma.empty, wholeHours: Prisma.sql`hour >= ${lo} AND hour < ${hi}`, splitRows: () => Prisma.empty }
  const midnights = edgesOnly
    ? Prisma.sql`unnest(ARRAY[0, ${days}::int])`
    : Prisma.sql`generate_series(0, ${days}::int)`
  return {
    with: Prisma.sql`
      bounds AS (SELECT ${lo} AS lo, ${hi} AS hi),
      split AS (
        SELECT DISTINCT date_trunc('hour', m, 'UTC') AS hour
        FROM ${midnights} AS i, LATERAL (SELECT ((${first}::date + i)::timestamp AT TIME ZONE ${timeZone}) AS m) x
        WHERE m <> date_trunc('hour', m, 'UTC')),`,
    wholeHours: Prisma.sql`hour >= (SELECT lo FROM bounds) AND hour < (SELECT hi FROM bounds)
      AND hour NOT IN (SELECT hour FROM split)`,
    // each split hour's rows from the (siteId, createdAt) index: fenced (OFFSET 0) so that the planner cannot join
    // all of the site's rows to the split hours instead (31 × a site's rows compared, 20 ms at 9,000 payments)
    splitRows: (table, siteId, columns) => Prisma.sql`
      UNION ALL
      SELECT x.* FROM split s, LATERAL (
        SELECT ${columns} FROM ${Prisma.raw(`"${table}"`)}
        WHERE "siteId" = ${siteId} AND "createdAt" >= greatest(s.hour, (SELECT lo FROM bounds))
          AND "createdAt" < least(s.hour + interval '1 hour', (SELECT hi FROM bounds))
        OFFSET 0) x`,
  }
}

/** an hour-stats table and its changes table (see the migration payment_stats), as a fold needs them */
export interface HourStats {
  stat: 'PaymentStat' | 'NotificationStat'
  change: 'PaymentStatChange' | 'NotificationStatChange'
  /** the columns of a row's group (its key), "siteId" and hour first */
  keys: string[]
  /** the columns summed */
  sums: string[]
}

const quoted = (columns: string[]) => Prisma.raw(columns.map((c) => `"${c}"`).join(', '))

/**
 * Folds up to `limit` of the oldest changes into the stat rows, and removes the rows that left at zero (a reset's or
 * a retention sweep's hours); how many changes it took. The changes are taken and added in one statement (a reader
 * sums both tables and sees them in one place or the other); changes another fold has taken are skipped, and rows
 * are written in key order, so two folds at once wait for each other, never deadlock. The emptied rows are deleted
 * in the same transaction, whose upsert already holds their locks: the delete takes no lock of its own.
 */
export function foldHourStats(t: HourStats, limit: number): Promise<number> {
  return db().$transaction(async (tx) => {
    const [{ taken, emptied }] = await tx.$queryRaw<{ taken: number; emptied: unknown[][] }[]>(foldStatement(t, limit))
    if (emptied.length) await tx.$executeRaw(deleteEmptied(t, emptied))
    return taken
  })
}

/** the fold's statement: how many changes it took, and the keys of the rows it left at zero */
function foldStatement(t: HourStats, limit: number): Prisma.Sql {
  const keys = quoted(t.keys)
  const all = quoted([...t.keys, ...t.sums])
  const sums = Prisma.raw(t.sums.map((c) => `sum("${c}")::${c === 'count' ? 'int' : 'bigint'} AS "${c}"`).join(', '))
  const add = Prisma.raw(t.sums.map((c) => `"${c}" = "${t.stat}"."${c}" + excluded."${c}"`).join(', '))
  const zero = Prisma.raw(t.sums.map((c) => `"${c}" = 0`).join(' AND '))
  const change = Prisma.raw(`"${t.change}"`)
  return Prisma.sql`
    WITH taken AS (
      DELETE FROM ${change} WHERE id IN (SELECT id FROM ${change} ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING ${all}),
    folded AS (
      INSERT INTO ${Prisma.raw(`"${t.stat}"`)} (${all})
      SELECT ${keys}, ${sums} FROM taken GROUP BY ${keys} ORDER BY ${keys}
      ON CONFLICT (${keys}) DO UPDATE SET ${add}
      RETURNING ${all})
    SELECT (SELECT count(*)::int FROM taken) AS taken,
           coalesce((SELECT json_agg(json_build_array(${keys})) FROM folded WHERE ${zero}), '[]'::json) AS emptied`
}

/** deletes the stat rows of these keys (a fold's `emptied`) that are still at zero */
function deleteEmptied(t: HourStats, emptied: unknown[][]): Prisma.Sql {
  const zero = Prisma.raw(t.sums.map((c) => `s."${c}" = 0`).join(' AND '))
  const match = Prisma.raw(
    t.keys.map((c, i) => `s."${c}" = (e->>${i})${c === 'hour' ? '::timestamptz' : ''}`).join(' AND '),
  )
  return Prisma.sql`
    DELETE FROM ${Prisma.raw(`"${t.stat}"`)} s USING json_array_elements(${JSON.stringify(emptied)}::json) e
    WHERE ${match} AND ${zero}`
}
