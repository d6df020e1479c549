// The metrics that describe the shared database — payments, captures and refunds by status, notification
// deliveries by state, the outbox's backlog and its oldest pending age, the scheduler's lag — read from it
// at scrape time (every instance shares it, so no instance counts them in memory), and this process's
// request pool. Added to the registry by the metrics endpoint.
//
// Cost of a scrape: one round trip on the metrics' own probe connection (lib/db/client.ts probeQuery: one
// connection, not readiness's, 2 s statement timeout), two statements, none of which reads a whole table once it
// is large (issue 32: counting a million payments and a million notifications took 0.1–0.3 s per scrape). The
// states still in motion — WAITING payments, PENDING notifications (the outbox's backlog) — are counted exactly,
// each from an index as long as the backlog itself (the partial one of WAITING payments; (state, nextAttemptAt)).
// The final states are counted exactly while their table holds fewer than EXACT_BELOW rows by the planner's estimate
// (pg_class.reltuples), and above that estimated: that estimate times the status's frequency in the column's
// statistics (pg_stats), both as autovacuum's last ANALYZE left them, read from the catalog in microseconds. The
// outbox's oldest pending notification and the most overdue change are found through the indexes on
// (state, nextAttemptAt), (dueAt) and (status, expiresAt): under a millisecond. Concurrent scrapes of one
// process share one read. When the read fails or times out, the database's gauges have no sample at all
// (an alert on them sees no series, never a 0) and payin_db_stats_up is 0; the process's own metrics
// are still served.
import { Gauge, type Registry } from 'prom-client'
import { settings } from '../config'
import { poolStats, probeQuery } from '../db/client'
import { Prisma } from '../generated/prisma/client'
import { dueOnSiteClock } from '../sandbox/site-clock'
import { singleFlight } from '../single-flight'

interface DatabaseStats {
  /** per table (payment, capture, refund, notification): count by status (a notification's state) */
  counts: { kind: string; status: string; n: number }[]
  outboxPending: number
  oldestPendingSeconds: number
  schedulerLagSeconds: number
}

/**
 * A table of at least this many rows (the planner's estimate) has its final states' counts estimated, not counted
 * (the header above); below, a count costs a few milliseconds at most.
 */
export const EXACT_BELOW = 100_000

// ages and lags on each site's own sandbox clock (lib/sandbox/site-clock.ts): real time for nearly every
// site, and for all with SANDBOX_CLOCK=off; the overdue changes are found through the due-time indexes
// (dueOnSiteClock), each then measured on its site's time
const statsSql = (clock: boolean) => {
  const SITE_OFFSET = clock ? `(coalesce(s."clockOffsetMs", 0) * interval '1 millisecond')` : `interval '0'`
  const due = (table: 'Payment' | 'Bill', column: string, where: string) => {
    const part = dueOnSiteClock(table, column, Prisma.sql`now()`, Prisma.raw(where))
    if (part.values.length) throw new Error('a metrics statement has no parameters')
    return part.sql
  }
  const counted = (kind: string, table: string, column: string, moving: string | null) => {
    const exact = `SELECT '${kind}' AS kind, ${column} AS status, count(*)::float8 AS n FROM "${table}"`
    // large, and described by the statistics (a table restored or bulk-loaded but not yet analysed is counted exactly,
    // rather than read as empty)
    const large = `((SELECT reltuples FROM pg_class WHERE oid = '"${table}"'::regclass) >= ${EXACT_BELOW} AND EXISTS (
    SELECT 1 FROM pg_stats st WHERE st.schemaname = current_schema() AND st.tablename = '${table}'
      AND st.attname = '${column}' AND st.most_common_vals IS NOT NULL))`
    // the statistics' most common values and their frequencies: every status, as a status column has so few
    const estimated = `SELECT '${kind}', s.status, round(s.freq * c.reltuples)::float8 FROM pg_class c,
  LATERAL (SELECT unnest(st.most_common_vals::text::text[]) AS status, unnest(st.most_common_freqs)::float8 AS freq
    FROM pg_stats st WHERE st.schemaname = current_schema() AND st.tablename = '${table}' AND st.attname = '${column}') s
  WHERE c.oid = '"${table}"'::regclass AND c.reltuples >= ${EXACT_BELOW}`
    if (!moving)
      return `${exact} WHERE NOT ${large} GROUP BY ${column}
UNION ALL ${estimated}`
    // the state in motion exactly, always; the others as above
    return `${exact} WHERE ${column} = '${moving}' GROUP BY ${column}
UNION ALL ${exact} WHERE ${column} <> '${moving}' AND NOT ${large} GROUP BY ${column}
UNION ALL ${estimated} AND s.status <> '${moving}'`
  }
  return `
${counted('payment', 'Payment', 'status', 'WAITING')}
UNION ALL ${counted('capture', 'Capture', 'status', null)}
UNION ALL ${counted('refund', 'Refund', 'status', null)}
UNION ALL ${counted('notification', 'Notification', 'state', 'PENDING')};
SELECT
  coalesce((SELECT max(extract(epoch FROM now() + ${SITE_OFFSET} - n."createdAt")) FROM "Notification" n LEFT JOIN "Site" s ON s.id = n."siteId" WHERE n.state = 'PENDING'), 0)::float8 AS "oldestPendingSeconds",
  greatest(0, coalesce(greatest(
    (SELECT max(extract(epoch FROM now() + ${SITE_OFFSET} - p."dueAt")) FROM "Payment" p LEFT JOIN "Site" s ON s.id = p."siteId"
     WHERE p.id IN (${due('Payment', 'dueAt', `x.status = 'WAITING'`)}) AND p."dueAt" <= now() + ${SITE_OFFSET} AND p.status = 'WAITING'),
    (SELECT max(extract(epoch FROM now() + ${SITE_OFFSET} - b."expiresAt")) FROM "Bill" b LEFT JOIN "Site" s ON s.id = b."siteId"
     WHERE b.id IN (${due('Bill', 'expiresAt', `x.status = 'CREATED'`)}) AND b.status = 'CREATED' AND b."expiresAt" <= now() + ${SITE_OFFSET})), 0))::float8 AS "schedulerLagSeconds"`
}

/** the statuses and states every scrape reports (0 when none), so that a series never vanishes */
const KNOWN: Record<string, string[]> = {
  payment: ['WAITING', 'COMPLETED', 'DECLINED'],
  capture: ['COMPLETED', 'DECLINED'],
  refund: ['COMPLETED', 'DECLINED'],
  notification: ['PENDING', 'DELIVERED', 'FAILED'],
}

async function readStats(): Promise<DatabaseStats> {
  const [counts, [scalars]] = await probeQuery<Record<string, unknown>>('metrics', statsSql(settings().sandboxClock))
  const rows = counts.map((r) => ({ kind: String(r.kind), status: String(r.status), n: Number(r.n) }))
  const pending = rows.find((r) => r.kind === 'notification' && r.status === 'PENDING')?.n ?? 0
  return {
    counts: rows,
    outboxPending: pending,
    oldestPendingSeconds: Number(scalars.oldestPendingSeconds),
    schedulerLagSeconds: Number(scalars.schedulerLagSeconds),
  }
}

/** one read at a time: the scrape's gauges (and concurrent scrapes) share it */
const currentStats = singleFlight((): Promise<{ stats: DatabaseStats | null; seconds: number }> => {
  const started = performance.now()
  const done = (stats: DatabaseStats | null) => ({ stats, seconds: (performance.now() - started) / 1000 })
  return readStats().then(done, () => done(null))
})

/**
 * A gauge whose samples come from the scrape's database read; none at all when it failed. (prom-client's
 * reset() leaves an unlabelled gauge at 0, which an alert such as `> 600` would read as "all clear".)
 */
class StatsGauge extends Gauge<string> {
  readonly #fill: (g: Gauge<string>, s: DatabaseStats) => void

  constructor(
    registry: Registry,
    name: string,
    help: string,
    labelNames: string[],
    fill: (g: Gauge<string>, s: DatabaseStats) => void,
  ) {
    super({ name, help, labelNames, registers: [registry] })
    this.#fill = fill
  }

  override async get() {
    const { stats } = await currentStats()
    this.reset()
    if (stats) this.#fill(this, stats)
    const metric = await super.get()
    return stats ? metric : { ...metric, values: [] }
  }
}

function statsGauge(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
  fill: (g: Gauge<string>, s: DatabaseStats) => void,
): void {
  new StatsGauge(registry, name, help, labelNames, fill)
}

function countsGauge(registry: Registry, kind: string, name: string, help: string, label: 'status' | 'state'): void {
  statsGauge(registry, name, help, [label], (g, s) => {
    for (const status of KNOWN[kind]) g.set({ [label]: status }, 0)
    for (const row of s.counts) if (row.kind === kind) g.set({ [label]: row.status }, row.n)
  })
}

function poolGauge(
  registry: Registry,
  name: string,
  help: string,
  value: (p: ReturnType<typeof poolStats>) => number,
): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(value(poolStats()))
    },
  })
}

/** adds the database's metrics to the registry, once (the route module may be loaded again: development mode) */
export function addDatabaseMetrics(registry: Registry): void {
  if (registry.getSingleMetric('payin_db_stats_up')) return
  new Gauge({
    name: 'payin_db_stats_up',
    help: "1 when this scrape's read of the database's counts answered, 0 when it failed or timed out (those gauges are then absent)",
    registers: [registry],
    async collect() {
      this.set((await currentStats()).stats ? 1 : 0)
    },
  })
  new Gauge({
    name: 'payin_db_stats_duration_seconds',
    help: "How long this scrape's read of the database's counts took",
    registers: [registry],
    async collect() {
      this.set((await currentStats()).seconds)
    },
  })
  countsGauge(registry, 'payment', 'payin_payments', 'Payments in the database, by status', 'status')
  countsGauge(registry, 'capture', 'payin_captures', 'Captures in the database, by status', 'status')
  countsGauge(registry, 'refund', 'payin_refunds', 'Refunds in the database, by status', 'status')
  countsGauge(
    registry,
    'notification',
    'payin_notifications',
    'Notification deliveries in the outbox, by state (PENDING, DELIVERED, FAILED)',
    'state',
  )
  statsGauge(
    registry,
    'payin_notification_outbox_backlog',
    'Notifications waiting in the outbox to be delivered (state PENDING)',
    [],
    (g, s) => g.set(s.outboxPending),
  )
  statsGauge(
    registry,
    'payin_notification_outbox_oldest_pending_age_seconds',
    'Age of the oldest notification waiting in the outbox; 0 when none waits',
    [],
    (g, s) => g.set(s.oldestPendingSeconds),
  )
  statsGauge(
    registry,
    'payin_scheduler_lag_seconds',
    'How late the most overdue time-driven change still to be applied is (a payment past its dueAt, a bill past its expiry); 0 when none is overdue',
    [],
    (g, s) => g.set(s.schedulerLagSeconds),
  )
  poolGauge(registry, 'payin_db_pool_max_connections', "The request pool's size (DATABASE_POOL_SIZE)", (p) => p.max)
  poolGauge(registry, 'payin_db_pool_connections', "Connections open in this process's request pool", (p) => p.total)
  poolGauge(
    registry,
    'payin_db_pool_idle_connections',
    "Open connections of this process's request pool that are idle",
    (p) => p.idle,
  )
  poolGauge(
    registry,
    'payin_db_pool_in_use_connections',
    "Connections of this process's request pool in use",
    (p) => p.total - p.idle,
  )
  poolGauge(
    registry,
    'payin_db_pool_waiting_requests',
    "Queries waiting for a connection of this process's request pool",
    (p) => p.waiting,
  )
}
