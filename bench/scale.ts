// The scale bench (issue 32, `BENCH_ONLY=scale npm run bench`, also the last part of `npm run bench`): a big site
// (a year of traffic, bench/scale-seed.ts) beside a small one, both on the bench's embedded PostgreSQL, and what
// their requests, the scheduler, the delivery worker and a sandbox reset cost on each. Writes the "Scale" section
// of bench/RESULTS.md and the statements' plans to bench/scale-plans.md.
//   env: BENCH_SCALE (1: the big site's counts × this; 0.05 for a quick look), BENCH_SCALE_SECONDS (4: per
//   measurement), BENCH_SCALE_SMALL (1000: the small site's payments, about)
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { copyTemplates, DUE_KIND_INDEX, KINDS, makeTemplates, type Fill, type TemplateApi } from './scale-seed.ts'

const SCALE = Number(process.env.BENCH_SCALE || 1)
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS || 4)
/** the unmeasured requests of each site before a scenario's measurements, in seconds */
const WARM_SECONDS = 2
const SMALL = Number(process.env.BENCH_SCALE_SMALL || 1000)
const DRAIN = Math.max(100, Math.round(10_000 * Math.min(SCALE, 1)))
const CONNECTIONS = [1, 32]
const PAGE = 500
const SECTION = '## Scale (issue 32)'

interface Options {
  url: string
  dataDir: string
  port: number
  log: (l: string) => void
}

interface Site {
  id: string
  token: string
  cookie?: string
}

/** latency figures of one measurement */
interface Latency {
  n: number
  p50: number
  p95: number
  p99: number
  errors: number
}

/** a request of the bench: its path and headers (chosen per request: ids vary) */
type Target = () => { path: string; headers: Record<string, string>; method?: string; body?: string }

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })

function request(
  port: number,
  t: ReturnType<Target>,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: '127.0.0.1', port, path: t.path, method: t.method ?? 'GET', headers: t.headers, agent },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }),
        )
        res.on('error', reject)
      },
    )
    r.on('error', reject)
    r.end(t.body)
  })
}

const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(xs.length * p))] : NaN)

/** `connections` clients sending `target`'s requests back to back for `seconds` (or until `until` settles) */
async function load(
  port: number,
  target: Target,
  connections: number,
  seconds: number,
  until?: Promise<unknown>,
): Promise<Latency> {
  const times: number[] = []
  let errors = 0
  let done = false
  const end = performance.now() + seconds * 1000
  if (until) void until.finally(() => (done = true))
  const client = async () => {
    // a slow request still gives a few samples
    while (!done && (performance.now() < end || (!until && times.length < 3))) {
      const t0 = performance.now()
      const r = await request(port, target()).catch(() => ({ status: 0 }))
      times.push(performance.now() - t0)
      if (r.status < 200 || r.status >= 300) errors++
      if (until === undefined && performance.now() >= end) break
    }
  }
  await Promise.all(Array.from({ length: connections }, client))
  return latencyOf(times, errors)
}

/** the percentiles of these latencies (sorted in place), with the count of failed requests */
function latencyOf(times: number[], errors: number): Latency {
  times.sort((a, b) => a - b)
  return { n: times.length, p50: pct(times, 0.5), p95: pct(times, 0.95), p99: pct(times, 0.99), errors }
}

/** one client sending the targets' requests in turn (a, b, a, b, ...) for `seconds`: each target's latencies */
async function alternate(port: number, targets: Target[], seconds: number): Promise<Latency[]> {
  const times: number[][] = targets.map(() => [])
  const errors = targets.map(() => 0)
  const end = performance.now() + seconds * 1000
  for (let i = 0; performance.now() < end || times.some((t) => t.length < 3); i = (i + 1) % targets.length) {
    const t0 = performance.now()
    const r = await request(port, targets[i]()).catch(() => ({ status: 0 }))
    times[i].push(performance.now() - t0)
    if (r.status < 200 || r.status >= 300) errors[i]++
  }
  return times.map((t, i) => latencyOf(t, errors[i]))
}

const ms = (x: number) => (Number.isNaN(x) ? '–' : x < 10 ? x.toFixed(1) : x.toFixed(0))
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]

function startService(o: Options, port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'scripts/http-server.ts'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
    detached: true,
  })
}

async function healthy(port: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const ok = await request(port, { path: '/api/health', headers: {} }).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`the service on port ${port} did not start`)
}

/** polls `sql` (a count) until it is 0; the seconds it took from `from` (performance.now()) */
async function until0(db: pg.Client, sql: string, args: unknown[], from: number, limitSeconds = 600) {
  for (;;) {
    const { rows } = await db.query(sql, args)
    const now = performance.now()
    if (Number(rows[0].n) === 0) return (now - from) / 1000
    if (now - from > limitSeconds * 1000) return NaN
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** the statements PostgreSQL ran for one request, with their plans (auto_explain), from server.log */
interface Statement {
  text: string
  plan: string
  rows: number
  buffers: number
}

function statementsOf(entries: string[]): Statement[] {
  return entries
    .filter((e) => e.includes('plan:') && e.includes('Query Text:'))
    .map((e) => {
      const body = e.slice(e.indexOf('plan:') + 5).replace(/^\t/gm, '')
      const text = (/Query Text: ([\s\S]*?)\n(?=\S)/.exec(body)?.[1] ?? '').replace(/\s+/g, ' ').trim()
      const plan = body.slice(body.indexOf('\n', body.indexOf('Query Text:') + text.length) + 1).trimEnd()
      let rows = 0
      for (const m of plan.matchAll(/(?:Scan)[^\n]*actual time=[\d.]+\.\.[\d.]+ rows=([\d.]+) loops=(\d+)/g))
        rows += Number(m[1]) * Number(m[2])
      for (const m of plan.matchAll(/Rows Removed by (?:Filter|Index Recheck): (\d+)/g)) rows += Number(m[1])
      const b = /Buffers: shared((?: \w+=\d+)+)/.exec(plan)?.[1] ?? ''
      const buffers = [...b.matchAll(/(hit|read)=(\d+)/g)].reduce((s, m) => s + Number(m[2]), 0)
      return { text, plan, rows: Math.round(rows), buffers }
    })
}

export async function benchScale(o: Options): Promise<void> {
  const { log } = o
  const started = performance.now()
  const db = new pg.Client({ connectionString: o.url })
  await db.connect()
  db.on('error', () => {}) // the server stopping at the end of a failed run: the run's own error is the one told
  // auto_explain in every session started from now (the service's too), off until the plans are taken
  await db.query(`ALTER SYSTEM SET session_preload_libraries = 'auto_explain'`)
  await db.query(`ALTER SYSTEM SET auto_explain.log_min_duration = -1`)
  await db.query(`ALTER SYSTEM SET auto_explain.log_analyze = on`)
  await db.query(`ALTER SYSTEM SET auto_explain.log_buffers = on`)
  await db.query(`ALTER SYSTEM SET auto_explain.log_timing = on`)
  await db.query('SELECT pg_reload_conf()')

  const receiverPort = o.port + 1
  let received = 0
  const receiver = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      received++
      res.writeHead(200).end('OK')
    })
  })
  await new Promise<void>((r) => receiver.listen(receiverPort, '127.0.0.1', r))
  const hook = `http://127.0.0.1:${receiverPort}/hook`

  const sites: Record<'tpl' | 'big' | 'small', Site> = {
    tpl: { id: 'scale-template', token: '' },
    big: { id: 'scale-big', token: '' },
    small: { id: 'scale-small', token: '' },
  }
  for (const s of Object.values(sites)) {
    s.token = `sk_${randomBytes(32).toString('base64url')}`
    await db.query('INSERT INTO "Site" (id, "notifyUrl") VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [s.id, hook])
    await db.query('INSERT INTO "SiteToken" (id, "siteId", "tokenHash", hint) VALUES ($1, $2, $3, $4)', [
      randomUUID(),
      s.id,
      createHash('sha256').update(s.token).digest('hex'),
      s.token.slice(0, 9),
    ])
  }
  const metricsToken = randomBytes(24).toString('hex')
  const env = {
    DATABASE_URL: o.url,
    SECRET_KEY: randomBytes(32).toString('hex'),
    PUBLIC_BASE_URL: `http://127.0.0.1:${o.port}`,
    RATE_LIMIT_PER_MINUTE: '0',
    METRICS_TOKEN: metricsToken,
    NEXT_TELEMETRY_DISABLED: '1',
    NOTIFY_ALLOW_NETWORKS: '127.0.0.0/8',
  }
  // requests on an instance without the scheduler and the worker (their statements would mix with the requests'
  // plans); the drains on a second instance that runs both
  const app = startService(o, o.port, { ...env, SCHEDULER: 'off', NOTIFICATIONS_WORKER: 'off' })
  let worker: ChildProcess | undefined
  const origin = `http://127.0.0.1:${o.port}`
  try {
    await healthy(o.port)
    const api = (s: Site) => ({ Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' })
    const signIn = async (s: Site) => {
      const r = await request(o.port, {
        path: '/dashboard/actions/sign-in',
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ siteId: s.id, token: s.token }),
      })
      const cookie = /^(payin_dashboard=[^;]+)/.exec(String(r.headers['set-cookie'] ?? ''))?.[1]
      if (!cookie) throw new Error(`sign-in to ${s.id}: ${r.status} ${r.body}`)
      s.cookie = cookie
    }
    for (const s of Object.values(sites)) await signIn(s)
    const dash = (s: Site) => ({ Cookie: s.cookie!, Origin: origin })
    const call = (h: Record<string, string>, p: string, method: string, body: unknown) =>
      request(o.port, {
        path: p,
        method,
        headers: { ...h, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => {
        if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${r.body}`)
        return { status: r.status, body: JSON.parse(r.body || '{}') as Record<string, unknown> }
      })
    const t: TemplateApi = {
      put: (p, body) => call(api(sites.tpl), `/api/sites/${sites.tpl.id}${p}`, 'PUT', body),
      dashboard: (p, body) => call(dash(sites.tpl), `/dashboard/actions${p}`, 'POST', body),
    }
    await makeTemplates(t)
    log('templates made through the API and the dashboard')

    // the fill
    const fills: Record<'big' | 'small', Fill> = {} as never
    const total = KINDS.reduce((s, k) => s + k.copies, 0)
    for (const [key, count] of [
      ['small', (k: { copies: number }) => Math.max(1, Math.round((k.copies * SMALL) / total))],
      ['big', (k: { copies: number }) => Math.round(k.copies * SCALE)],
    ] as const) {
      log(`filling ${sites[key].id}`)
      fills[key] = await copyTemplates(db, {
        templateSite: sites.tpl.id,
        siteId: sites[key].id,
        count,
        log,
        bulk: key === 'big',
      })
      log(`${sites[key].id}: ${JSON.stringify(fills[key])}`)
    }
    // a search by last four digits answers a page of those payments: on the big site (a million random last fours)
    // any last four fills it, on the small one (a thousand) it would find one payment, and the two would compare a
    // page of 20 rows with one of 1. The small site's last fours are ten values, so its searches fill a page too.
    await db.query(
      `UPDATE "Payment" SET "maskedPan" = left("maskedPan", length("maskedPan") - 4) || lpad((abs(hashtext(id::text)) % 10)::text, 4, '0')
       WHERE "siteId" = $1 AND "maskedPan" IS NOT NULL`,
      [sites.small.id],
    )
    // the overview's figures: the fill's statements counted their rows per hour (migration payment_stats); an
    // instance's scheduler folds those changes, as it would after any write
    const f0 = performance.now()
    const folder = startService(o, o.port + 2, { ...env, NOTIFICATIONS_WORKER: 'off' })
    const foldSeconds = await until0(
      db,
      `SELECT (SELECT count(*) FROM "PaymentStatChange") + (SELECT count(*) FROM "NotificationStatChange") AS n`,
      [],
      f0,
    )
    process.kill(-folder.pid!, 'SIGTERM')
    log(`the overview's counted changes folded in ${foldSeconds.toFixed(0)} s`)
    const t0 = performance.now()
    await db.query('VACUUM ANALYZE')
    const vacuumSeconds = (performance.now() - t0) / 1000
    log(`VACUUM ANALYZE: ${vacuumSeconds.toFixed(0)} s`)

    // sizes: every table of a site's data, with its indexes and TOAST
    const tables = [
      ...['Payment', 'Bill', 'Capture', 'Refund', 'Notification', 'NotificationAttempt', 'AuditEntry'],
      ...['PaymentStat', 'NotificationStat'],
    ]
    const sizes: Record<string, { bytes: number; rows: number }> = {}
    for (const tb of tables) {
      const { rows } = await db.query(
        `SELECT pg_total_relation_size('"${tb}"')::bigint AS bytes, pg_indexes_size('"${tb}"')::bigint AS idx, (SELECT count(*) FROM "${tb}") AS n`,
      )
      sizes[tb] = { bytes: Number(rows[0].bytes), rows: Number(rows[0].n) }
    }

    // what the requests read: ids of each site's rows, and the cursors of page 500 (on the small site, of its last
    // full page: a page of one row would read less than any page of the big site, and flatter it)
    const ids: Record<
      string,
      { payments: string[]; bills: string[]; last4: string[]; cursors: Record<string, string> }
    > = {}
    const cursorAt = async (table: string, siteId: string) => {
      const { rows } = await db.query(
        `SELECT "createdAt", id FROM "${table}" WHERE "siteId" = $1 ORDER BY "createdAt" DESC, id DESC
         OFFSET LEAST($2, (SELECT count(*) FROM "${table}" WHERE "siteId" = $1) - 21) LIMIT 1`,
        [siteId, (PAGE - 1) * 20 - 1],
      )
      const r = rows[0]
      return Buffer.from(JSON.stringify([(r.createdAt as Date).toISOString(), r.id])).toString('base64url')
    }
    for (const key of ['big', 'small'] as const) {
      const id = sites[key].id
      const p = await db.query(
        `SELECT "paymentId", "maskedPan" FROM "Payment" TABLESAMPLE SYSTEM (5) WHERE "siteId" = $1 LIMIT 500`,
        [id],
      )
      const b = await db.query(
        `SELECT "billId" FROM "Bill" WHERE "siteId" = $1 AND fingerprint IS NOT NULL ORDER BY random() LIMIT 500`,
        [id],
      )
      ids[key] = {
        payments: p.rows.map((r) => r.paymentId),
        bills: b.rows.map((r) => r.billId),
        last4: p.rows.filter((r) => r.maskedPan).map((r) => String(r.maskedPan).slice(-4)),
        cursors: {
          payments: await cursorAt('Payment', id),
          bills: await cursorAt('Bill', id),
          notifications: await cursorAt('Notification', id),
        },
      }
    }

    // the API's notification list pages by a header (Payin-Next-Cursor; the body stays the array clients know)
    const nextCursor = (r: { headers: http.IncomingHttpHeaders }) => {
      const v = r.headers['payin-next-cursor']
      return typeof v === 'string' && v ? v : null
    }
    const apiPaging =
      nextCursor(
        await request(o.port, { path: `/api/sites/${sites.big.id}/notifications`, headers: api(sites.big) }),
      ) !== null
    // is there an overview at /dashboard (signed in: 200), or does it redirect to the payments?
    const overview =
      (await request(o.port, { path: '/dashboard', headers: { Cookie: sites.big.cookie! } })).status === 200

    type Scenario = {
      name: string
      dashboardPage?: boolean
      lastFour?: boolean
      target: (s: 'big' | 'small') => Target
    }
    const scenarios: Scenario[] = [
      {
        name: 'API: read a payment',
        target: (k) => () => ({
          path: `/api/sites/${sites[k].id}/payments/${pick(ids[k].payments)}`,
          headers: api(sites[k]),
        }),
      },
      {
        name: 'API: bill details',
        target: (k) => () => ({
          path: `/api/sites/${sites[k].id}/bills/${pick(ids[k].bills)}/details`,
          headers: api(sites[k]),
        }),
      },
      {
        name: 'API: notification list, first page',
        target: (k) => () => ({ path: `/api/sites/${sites[k].id}/notifications`, headers: api(sites[k]) }),
      },
    ]
    if (apiPaging) {
      // the cursor of a deep page: followed from the first page, 20 pages in
      const deep: Record<string, string> = {}
      for (const k of ['big', 'small'] as const) {
        let cursor = ''
        for (let i = 0; i < 20; i++) {
          const next = nextCursor(
            await request(o.port, {
              path: `/api/sites/${sites[k].id}/notifications${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
              headers: api(sites[k]),
            }),
          )
          if (!next) break
          cursor = next
        }
        deep[k] = cursor
      }
      scenarios.push({
        name: 'API: notification list, page 20',
        target: (k) => () => ({
          path: `/api/sites/${sites[k].id}/notifications?cursor=${encodeURIComponent(deep[k])}`,
          headers: api(sites[k]),
        }),
      })
    }
    for (const list of ['payments', 'bills', 'notifications'] as const) {
      scenarios.push(
        {
          name: `dashboard: ${list}, first page`,
          dashboardPage: true,
          target: (k) => () => ({ path: `/dashboard/${list}`, headers: dash(sites[k]) }),
        },
        {
          name: `dashboard: ${list}, page ${PAGE}`,
          dashboardPage: true,
          target: (k) => () => ({ path: `/dashboard/${list}?after=${ids[k].cursors[list]}`, headers: dash(sites[k]) }),
        },
      )
    }
    scenarios.push(
      {
        name: 'dashboard: search by payment id',
        dashboardPage: true,
        target: (k) => () => ({ path: `/dashboard/payments?q=${pick(ids[k].payments)}`, headers: dash(sites[k]) }),
      },
      {
        name: 'dashboard: search by bill id',
        dashboardPage: true,
        target: (k) => () => ({ path: `/dashboard/payments?q=${pick(ids[k].bills)}`, headers: dash(sites[k]) }),
      },
      {
        name: 'dashboard: search by last four digits (a page of matches on both sites: the small one has ten last fours)',
        dashboardPage: true,
        lastFour: true,
        target: (k) => () => ({ path: `/dashboard/payments?q=${pick(ids[k].last4)}`, headers: dash(sites[k]) }),
      },
    )
    if (overview)
      scenarios.push({
        name: 'dashboard: overview',
        dashboardPage: true,
        target: (k) => () => ({ path: '/dashboard', headers: dash(sites[k]) }),
      })
    // the metrics are the instance's, not a site's: the same request on both sides
    scenarios.push({
      name: "metrics scrape (/api/metrics: the instance's, the same request on both sides)",
      target: () => () => ({ path: '/api/metrics', headers: { Authorization: `Bearer ${metricsToken}` } }),
    })

    // the plans: each request once per site with auto_explain on, between markers of our own in the log
    const logFile = path.join(o.dataDir, 'server.log')
    const logStart = fs.statSync(logFile).size
    await db.query(`ALTER SYSTEM SET auto_explain.log_min_duration = 0`)
    await db.query('SELECT pg_reload_conf()')
    await new Promise((r) => setTimeout(r, 500)) // the reload reaches every backend
    const marker = new pg.Client({ connectionString: o.url })
    await marker.connect()
    marker.on('error', () => {})
    for (const s of scenarios)
      for (const k of ['big', 'small'] as const) {
        await request(o.port, s.target(k)()) // a warm cache, as a merchant's second look has
        await marker.query(`SELECT 'scale-marker ${s.name.replace(/'/g, "''")} | ${k}'`)
        const r = await request(o.port, s.target(k)())
        if (r.status !== 200) log(`${s.name} (${k}): ${r.status}`)
        await marker.query(`SELECT 'scale-marker-end'`)
      }
    await marker.end()
    await db.query(`ALTER SYSTEM SET auto_explain.log_min_duration = -1`)
    await db.query('SELECT pg_reload_conf()')
    const logged = fs.readFileSync(logFile).subarray(logStart).toString('utf8')
    const entries = logged.split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/)
    const plans = new Map<string, Statement[]>()
    let current: string | null = null
    let bucket: string[] = []
    for (const e of entries) {
      const m = /'scale-marker ((?:[^']|'')*)'/.exec(e)
      if (m) {
        current = m[1].replace(/''/g, "'")
        bucket = []
      } else if (e.includes("'scale-marker-end'")) {
        if (current) plans.set(current, statementsOf(bucket))
        current = null
      } else if (current) bucket.push(e)
    }

    // the measurements
    const results: {
      s: Scenario
      fig: Record<string, Latency>
    }[] = []
    for (const s of scenarios) {
      const fig: Record<string, Latency> = {}
      // both sites' requests first, unmeasured, until the route's code is compiled hot in the instance: measured
      // cold, the site measured first (the big one) paid the warm-up alone
      for (const k of ['big', 'small'] as const) await load(o.port, s.target(k), 4, WARM_SECONDS)
      // at one connection, the figures the ratios are taken of, the two sites' requests alternate in one window: the
      // machine's speed drifts (a shared VM: the same request's p50 moved by a third between two 4 s windows), and
      // so both sites meet the same drift
      const one = await alternate(o.port, [s.target('big'), s.target('small')], 2 * SECONDS)
      fig.big1 = one[0]
      fig.small1 = one[1]
      for (const k of ['big', 'small'] as const)
        for (const c of CONNECTIONS.filter((c) => c > 1)) {
          fig[`${k}${c}`] = await load(o.port, s.target(k), c, SECONDS)
        }
      results.push({ s, fig })
      log(
        `${s.name}: big p50 ${ms(fig.big1.p50)} p95 ${ms(fig.big1.p95)} | small p50 ${ms(fig.small1.p50)} p95 ${ms(fig.small1.p95)} | at 32: big p50 ${ms(fig.big32.p50)} small ${ms(fig.small32.p50)}`,
      )
    }

    // the drains, on an instance with the scheduler and the delivery worker
    worker = startService(o, o.port + 2, env)
    await healthy(o.port + 2)
    const pendingSql = `SELECT count(*) AS n FROM "Notification" WHERE "siteId" = $1 AND state = 'PENDING'`
    // the scheduler: DRAIN waiting 3-D Secure payments whose expiry falls due at once
    const dueAt = new Date(Date.now() + 4000)
    await copyTemplates(db, {
      templateSite: sites.tpl.id,
      siteId: sites.big.id,
      count: () => DRAIN,
      from: 50_000_000,
      kinds: [DUE_KIND_INDEX],
      age: `interval '10 minutes'`,
      override: { Payment: { dueAt: `'${dueAt.toISOString()}'::timestamptz` } },
    })
    const dueFrom = performance.now() + (dueAt.getTime() - Date.now())
    const schedulerSeconds = await until0(
      db,
      // a range of the (siteId, dueAt) index, where only the drain's payments are (a scan of the site would load the
      // machine); an expiry leaves dueAt as it was
      `SELECT count(*) AS n FROM "Payment" WHERE "siteId" = $1 AND "dueAt" IS NOT NULL AND status = 'WAITING'`,
      [sites.big.id],
      dueFrom,
    )
    log(`scheduler: ${DRAIN} due changes in ${schedulerSeconds.toFixed(1)} s`)
    // their notifications are delivered meanwhile; the worker's own drain starts from none pending
    await until0(db, pendingSql, [sites.big.id], performance.now())
    // DRAIN pending notifications of the big site, due at once: the seconds the worker took to deliver them all
    const drainDeliveries = async (from: number, what: string) => {
      const nextAt = new Date(Date.now() + 4000)
      const receivedBefore = received
      await copyTemplates(db, {
        templateSite: sites.tpl.id,
        siteId: sites.big.id,
        count: () => DRAIN,
        from,
        kinds: [0],
        age: `interval '1 minute'`,
        override: {
          Notification: {
            state: `'PENDING'`,
            attempts: '0',
            nextAttemptAt: `'${nextAt.toISOString()}'::timestamptz`,
            deliveredAt: 'NULL',
            leaseUntil: 'NULL',
          },
        },
      })
      const seconds = await until0(db, pendingSql, [sites.big.id], performance.now() + (nextAt.getTime() - Date.now()))
      log(
        `delivery worker, ${what}: ${DRAIN} notifications in ${seconds.toFixed(1)} s (${received - receivedBefore} posts)`,
      )
      return seconds
    }
    // as deployed: at most NOTIFY_SITE_CONCURRENCY (4) deliveries of one site under way, so one site's drain is
    // bounded by 4 / (a delivery's time); then the worker's own bound, with one site allowed all its 32 places
    const deliverySeconds = await drainDeliveries(60_000_000, 'one site, 4 at a time')
    process.kill(-worker.pid!, 'SIGTERM')
    worker = startService(o, o.port + 3, { ...env, SCHEDULER: 'off', NOTIFY_SITE_CONCURRENCY: '32' })
    await healthy(o.port + 3)
    const workerSeconds = await drainDeliveries(70_000_000, 'one site, 32 at a time')
    process.kill(-worker.pid!, 'SIGTERM')
    worker = undefined

    // a reset of the big site while the small one keeps making payments
    const write: Target = () => ({
      path: `/api/sites/${sites.small.id}/payments/w-${randomUUID()}`,
      method: 'PUT',
      headers: api(sites.small),
      body: JSON.stringify({
        paymentMethod: { type: 'CARD', pan: '4111111111111111', expiryDate: '12/30', cvv2: '123' },
        amount: { value: '10.00', currency: 'RUB' },
        flags: ['SALE'],
      }),
    })
    const writers = 4
    const baseline = await load(o.port, write, writers, SECONDS * 2)
    const bigPayments = Number(
      (await db.query('SELECT count(*) AS n FROM "Payment" WHERE "siteId" = $1', [sites.big.id])).rows[0].n,
    )
    let resetDone!: () => void
    const resetOver = new Promise<void>((r) => (resetDone = r))
    const during = load(o.port, write, writers, 1, resetOver)
    await new Promise((r) => setTimeout(r, 1000))
    const r0 = performance.now()
    const reset = await request(o.port, {
      path: `/api/sites/${sites.big.id}/sandbox/reset`,
      method: 'POST',
      headers: api(sites.big),
      body: JSON.stringify({ confirm: sites.big.id }),
    })
    const resetSeconds = (performance.now() - r0) / 1000
    resetDone()
    const amid = await during
    const left = Number(
      (await db.query('SELECT count(*) AS n FROM "Payment" WHERE "siteId" = $1', [sites.big.id])).rows[0].n,
    )
    log(
      `reset of ${bigPayments} payments: ${reset.status} in ${resetSeconds.toFixed(1)} s (${left} left); small site's writes p99 ${ms(baseline.p99)} → ${ms(amid.p99)} ms`,
    )

    // the results
    const totalBytes = tables.reduce((s, tb) => s + sizes[tb].bytes, 0)
    const payments = sizes.Payment.rows
    const met = (ok: boolean) => (ok ? 'pass' : '**fail**')
    const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(1)}×` : '–')
    const readOf = (name: string, k: string) => {
      const st = plans.get(`${name} | ${k}`)
      if (!st) return '–'
      return `${st.reduce((s, x) => s + x.rows, 0).toLocaleString('en')} / ${st.reduce((s, x) => s + x.buffers, 0).toLocaleString('en')} (${st.length})`
    }
    const rows = results.map(({ s, fig }) => {
      const flat = fig.big1.p50 <= 1.5 * fig.small1.p50
      const targets = [`p50 ≤ 1.5× small: ${met(flat)}`]
      if (s.dashboardPage) targets.push(`p95 ≤ 150 ms: ${met(fig.big1.p95 <= 150)}`)
      const errors = Object.values(fig).reduce((e, f) => e + f.errors, 0)
      return `| ${s.name} | ${ms(fig.big1.p50)} / ${ms(fig.big1.p95)} | ${ms(fig.small1.p50)} / ${ms(fig.small1.p95)} | ${ratio(fig.big1.p50, fig.small1.p50)} | ${ms(fig.big32.p50)} / ${ms(fig.big32.p95)} | ${ms(fig.small32.p50)} / ${ms(fig.small32.p95)} | ${ratio(fig.big32.p50, fig.small32.p50)} | ${readOf(s.name, 'big')} | ${readOf(s.name, 'small')} | ${errors} | ${targets.join('; ')} |`
    })
    const fmt = (n: number) => n.toLocaleString('en')
    const bf = fills.big
    const section = [
      SECTION,
      '',
      `Written by \`BENCH_ONLY=scale npm run bench\` (bench/scale.ts; the fill: bench/scale-seed.ts) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} cores, BENCH_SCALE=${SCALE}, ${SECONDS} s per measurement after ${WARM_SECONDS} s of each site's requests unmeasured; ${((performance.now() - started) / 60000).toFixed(0)} min in all.`,
      `The big site \`${sites.big.id}\`: ${fmt(bf.payments)} payments (${fmt(bf.bills)} bills: ${fmt(Math.round(200_000 * SCALE))} made by the API, the others the implicit bills of payments made without one), ${fmt(bf.captures)} captures and ${fmt(bf.refunds)} refunds (made in the dashboard: ${fmt(bf.audit)} audit entries), ${fmt(bf.notifications)} notifications with ${fmt(bf.attempts)} delivery attempts, written oldest first (as a site's traffic is: its pages hold it in time order) in ${bf.seconds.toFixed(0)} s (then the overview's counted changes folded by a scheduler, ${foldSeconds.toFixed(0)} s, and VACUUM ANALYZE, ${vacuumSeconds.toFixed(0)} s). The small site \`${sites.small.id}\`: ${fmt(fills.small.payments)} payments of the same mix (${fmt(fills.small.notifications)} notifications).`,
      "The mix: a year of ages (recent traffic denser), Visa, Mastercard and MIR cards with any last four digits, 9% declined, 7% two-step and captured, 3% partly refunded, 19% on a bill made by the API; each kind is made once through the API and the dashboard and copied by SQL with new ids, dates and last four digits, so every column is the service's own (masked card numbers only).",
      `Latency in ms, p50 / p95, by a client of this process (${CONNECTIONS.join(' and ')} connections, each request's ids chosen at random among the site's; at 1 connection the two sites' requests alternate in one ${2 * SECONDS} s window, so that both meet the same drift of the machine's speed), on the instance without the scheduler and the worker. "Rows / buffers (statements)": what PostgreSQL read for one such request (auto_explain with ANALYZE and BUFFERS on the bench's PostgreSQL, a warm cache): rows of every scan plus the rows its filters removed, shared buffers hit or read; the plans are in bench/scale-plans.md. Page ${PAGE}: by the dashboard's cursor (lib/dashboard/dashboard-cursor.ts; the small site has fewer pages: its last full one).`,
      '',
      '| request | big, 1 conn. | small, 1 conn. | big/small | big, 32 conn. | small, 32 conn. | big/small | big: rows / buffers | small: rows / buffers | errors | targets |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
      ...(apiPaging
        ? []
        : [
            '| API: notification list, deep page | deep page: needs keyset paging (issue 32 point 3) | | | | | | | | | |',
          ]),
      ...(overview
        ? []
        : [
            '| dashboard: overview | `/dashboard` redirects to the payments (no overview yet): not measured | | | | | | | | | |',
          ]),
      '',
      '| measure | value | target | |',
      '|---|---|---|---|',
      `| the scheduler draining ${fmt(DRAIN)} due changes (3-D Secure expiries on the big site) | ${schedulerSeconds.toFixed(1)} s, ${fmt(Math.round(DRAIN / schedulerSeconds))}/s | ≥ 500/s | ${met(DRAIN / schedulerSeconds >= 500)} |`,
      `| the delivery worker draining ${fmt(DRAIN)} pending notifications of one site to a loopback receiver, as deployed (NOTIFY_SITE_CONCURRENCY=4: at most 4 of a site's deliveries under way, across instances) | ${deliverySeconds.toFixed(1)} s, ${fmt(Math.round(DRAIN / deliverySeconds))}/s | ≥ 200/s | ${met(DRAIN / deliverySeconds >= 200)}${DRAIN / deliverySeconds >= 200 ? '' : ': bounded by the 4 deliveries of one site under way (the cap keeps one site from taking every place; the next line lifts it)'} |`,
      `| the same with one site allowed all the worker's places (NOTIFY_SITE_CONCURRENCY=32): the worker's own rate | ${workerSeconds.toFixed(1)} s, ${fmt(Math.round(DRAIN / workerSeconds))}/s | ≥ 200/s | ${met(DRAIN / workerSeconds >= 200)} |`,
      `| sandbox reset of the big site (${fmt(bigPayments)} payments) | ${reset.status} after ${resetSeconds.toFixed(1)} s, ${fmt(left)} payments left | 200 in ≤ 60 s | ${met(reset.status === 200 && resetSeconds <= 60)} |`,
      `| the small site's payments meanwhile (${writers} clients), p99 | ${ms(amid.p99)} ms (baseline ${ms(baseline.p99)} ms, ${ratio(amid.p99, baseline.p99)}; ${amid.errors} errors of ${amid.n}) | ≤ 2× baseline | ${met(amid.p99 <= 2 * baseline.p99 && amid.errors === 0)} |`,
      `| bytes per payment, all of a site's tables with their indexes and TOAST | ${fmt(Math.round(totalBytes / payments))} (${(totalBytes / 2 ** 30).toFixed(2)} GiB for ${fmt(payments)} payments) | | |`,
      ...tables.map(
        (tb) =>
          `| — \`${tb}\`: ${fmt(sizes[tb].rows)} rows | ${fmt(Math.round(sizes[tb].bytes / payments))} bytes per payment, ${fmt(Math.round(sizes[tb].bytes / Math.max(1, sizes[tb].rows)))} per row | | |`,
      ),
    ]
    replaceSection('bench/RESULTS.md', section)
    const planDoc = [
      '# Scale bench: the statements of each request and their plans',
      '',
      `Written by bench/scale.ts with the "Scale" section of bench/RESULTS.md (BENCH_SCALE=${SCALE}): auto_explain (log_analyze, log_buffers) on the bench's PostgreSQL, each request sent once after a first one that warms the cache.`,
      '',
    ]
    for (const s of scenarios)
      for (const k of ['big', 'small'] as const) {
        const st = plans.get(`${s.name} | ${k}`) ?? []
        planDoc.push(`## ${s.name} — ${k} site`, '')
        for (const x of st)
          planDoc.push(
            `${x.rows.toLocaleString('en')} rows, ${x.buffers.toLocaleString('en')} buffers: \`${x.text.slice(0, 300).replace(/`/g, "'")}${x.text.length > 300 ? '…' : ''}\``,
            '',
            '```',
            ...x.plan.split('\n').slice(0, 40),
            '```',
            '',
          )
      }
    fs.writeFileSync('bench/scale-plans.md', planDoc.join('\n'))
    log('the Scale section written to bench/RESULTS.md, the plans to bench/scale-plans.md')
  } finally {
    await db.query(`ALTER SYSTEM RESET ALL`).catch(() => {})
    await db.end()
    receiver.close()
    if (worker?.pid) process.kill(-worker.pid, 'SIGTERM')
    if (app.pid) process.kill(-app.pid, 'SIGTERM')
    await new Promise((r) => setTimeout(r, 1000))
  }
}

/** replaces this bench's section of the results (or adds it at the end), leaving the others as they are */
export function replaceSection(file: string, section: string[]): void {
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').replace(/\n+$/, '').split('\n') : []
  let start = lines.indexOf(SECTION)
  let end: number
  if (start >= 0) {
    end = lines.findIndex((l, i) => i > start && l.startsWith('## '))
    if (end < 0) end = lines.length
  } else start = end = lines.length
  const before = lines.slice(0, start)
  while (before.length && before[before.length - 1] === '') before.pop()
  const after = lines.slice(end)
  fs.writeFileSync(file, [...before, '', ...section, ...(after.length ? ['', ...after] : []), ''].join('\n'))
}
