// npm run bench: the production build on a fresh embedded PostgreSQL, driven by autocannon at fixed
// connections and duration per scenario, beside a floor (bench/floor-server.ts: node:http + pg doing
// the same database work). Writes bench/RESULTS.md.
//   env: BENCH_CONNECTIONS (32), BENCH_DURATION seconds (10), DATABASE_POOL_SIZE (the service's, and the floor's),
//   BENCH_ONLY (a word of the scenarios to run; then only those run, and the figures are printed, not written),
//   BENCH_PROFILE (a directory for a CPU profile of the service), BENCH_FLOOR=0 (with BENCH_ONLY: skip the floor),
//   BENCH_PORT (4201: the service; the floor on the next port, a second instance on the one after),
//   BENCH_PG_PORT (54359), BENCH_PG_DIR (data/bench-pg): for two benches on one machine.
//   BENCH_RETRIES (2: how often a measurement disturbed by other processes is taken again)
//   BENCH_ONLY=gate: only the site-write gate's figures (siteGate below: MultiXact ids per 10,000 payments on one
//   site, sandbox resets amid 32 writing clients), printed; the full bench writes them too.
//   BENCH_ONLY=scale: only the scale bench (bench/scale.ts: a big site of a year's traffic beside a small one; its own
//   env there, BENCH_SCALE=0.05 for a quick look), which the full bench runs last; it rewrites only its own section
//   of bench/RESULTS.md (and bench/scale-plans.md).
//   BENCH_ONLY=lighthouse: only the payment page in the browser (bench/lighthouse.ts: Lighthouse and the
//   page's script weight), which the full bench also runs; a figure short of its target exits non-zero.
//   It rewrites only its own section of bench/RESULTS.md.
// Next.js's own bounds are measured in the same run, on the same server: an empty route handler
// (app/api/bench-empty, which answers 204 only because the bench starts the server with BENCH_BOUNDS=1)
// and a page without data (the home page). The targets of issue 13 are ratios to them.
import autocannon from 'autocannon'
import { spawn } from 'node:child_process'
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import pg from 'pg'
import { applyMigrations } from '../lib/db/migrations.ts'
import { startEmbeddedPostgres, stopEmbeddedPostgres } from '../lib/db/embedded-postgres.ts'
import { buildIfChanged } from '../scripts/app-build.ts'
import { startFloor } from './floor-server.ts'
import { benchPaymentPage, replaceBrowserSection } from './lighthouse.ts'
import { benchScale } from './scale.ts'

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32)
const DURATION = Number(process.env.BENCH_DURATION || 10)
const POOL = Number(process.env.DATABASE_POOL_SIZE || 10)
const ONLY = process.env.BENCH_ONLY
/** the logo of the theme of the bills whose page Lighthouse measures themed: an SVG of 96 × 48, as a merchant's */
const THEME_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 48" width="96" height="48">' +
  '<rect width="96" height="48" rx="8" fill="#134e4a"/><text x="48" y="31" font-size="18" text-anchor="middle" ' +
  'fill="#fff">Shop</text></svg>'
const APP_PORT = Number(process.env.BENCH_PORT || 4201)
const FLOOR_PORT = APP_PORT + 1
const PG = {
  dataDir: process.env.BENCH_PG_DIR || 'data/bench-pg',
  port: Number(process.env.BENCH_PG_PORT || 54359),
  database: 'payin_bench',
}
const log = (l: string) => console.log(`[bench] ${l}`)

interface Figures {
  rps: number
  p50: number
  p99: number
  errors: number
  /**
   * CPU seconds used while it ran: the service's processes, PostgreSQL's, this process (the load generator and the
   * floor), and any other process's
   */
  cpu?: { service: number; postgres: number; bench: number; other: number; seconds: number }
}

// CPU time from /proc (Linux; elsewhere the figures are left out): utime + stime of the service's process
// group, of this bench's PostgreSQL processes, and of this process
const TICK = 100
/** CPU seconds the whole machine has been busy (all cores: user, nice, system, irq, softirq, steal) */
function machineBusy(): number {
  const [, user, nice, system, , , irq, softirq, steal] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .split(/\s+/)
    .map(Number)
  return (user + nice + system + irq + softirq + steal) / TICK
}

function cpuSnapshot(
  serviceGroup: number | undefined,
): { service: number; postgres: number; bench: number; machine: number; at: number } | null {
  if (!fs.existsSync('/proc/self/stat')) return null
  // this bench's PostgreSQL: its postmaster (first line of postmaster.pid) and the backends it started
  let postmaster = -1
  try {
    postmaster = Number(fs.readFileSync(`${PG.dataDir}/postmaster.pid`, 'utf8').split('\n')[0])
  } catch {
    // not running (no postmaster.pid): no PostgreSQL process is counted
  }
  let service = 0
  let postgres = 0
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      continue
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields after the name: state ppid pgrp … utime (14th of the line) stime (15th)
    const ticks = Number(f[11]) + Number(f[12])
    if (Number(f[2]) === serviceGroup) service += ticks
    // the postmaster with the backends it has reaped (cutime, cstime), so that one ending between two
    // snapshots still counts
    else if (comm === 'postgres' && Number(pid) === postmaster) postgres += ticks + Number(f[13]) + Number(f[14])
    else if (comm === 'postgres' && Number(f[1]) === postmaster) postgres += ticks
  }
  const u = process.cpuUsage()
  return {
    service: service / TICK,
    postgres: postgres / TICK,
    bench: (u.user + u.system) / 1e6,
    machine: machineBusy(),
    at: performance.now() / 1000,
  }
}
let serviceGroup: number | undefined

/** waits (at most a minute) until the machine is at least 90% idle over two seconds */
async function quiet(): Promise<void> {
  if (!fs.existsSync('/proc/stat')) return
  const cores = os.cpus().length
  for (let i = 0; i < 30; i++) {
    const a = machineBusy()
    await new Promise((r) => setTimeout(r, 2000))
    if ((machineBusy() - a) / 2 / cores < 0.1) return
  }
}

// a measurement during which other processes used more than this share of a core is taken again
// (BENCH_RETRIES times at most, 2), after waiting for a quiet machine: the machine may be shared
const DISTURBED = 0.15
const RETRIES = Number(process.env.BENCH_RETRIES ?? 2)

async function drive(
  url: string,
  request: autocannon.Request,
  headers: Record<string, string>,
  seconds = DURATION,
): Promise<Figures> {
  for (let attempt = 0; ; attempt++) {
    if (seconds >= DURATION) await quiet()
    const f = await driveOnce(url, request, headers, seconds)
    const others = f.cpu ? f.cpu.other / f.cpu.seconds : 0
    if (seconds < DURATION || others <= DISTURBED || attempt >= RETRIES) return f
    log(`other processes used ${(others * 100).toFixed(0)}% of a core meanwhile: measuring again`)
  }
}

function driveOnce(
  url: string,
  request: autocannon.Request,
  headers: Record<string, string>,
  seconds = DURATION,
): Promise<Figures> {
  const before = cpuSnapshot(serviceGroup)
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, requests: [request] }, (err, r) => {
      if (err) return reject(err)
      const after = cpuSnapshot(serviceGroup)
      const cpu =
        before && after
          ? {
              service: after.service - before.service,
              postgres: after.postgres - before.postgres,
              bench: after.bench - before.bench,
              other: Math.max(
                0,
                after.machine -
                  before.machine -
                  (after.service - before.service) -
                  (after.postgres - before.postgres) -
                  (after.bench - before.bench),
              ),
              seconds: after.at - before.at,
            }
          : undefined
      resolve({
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors + r.timeouts + r.non2xx,
        cpu,
      })
    })
  })
}

/** `0.84 (0.30)`: the service's CPU milliseconds per request, PostgreSQL's in brackets */
function cpuMs(f: Figures): string {
  if (!f.cpu || !f.rps) return ''
  const n = f.rps * f.cpu.seconds
  return `${((f.cpu.service / n) * 1000).toFixed(2)} (${((f.cpu.postgres / n) * 1000).toFixed(2)})`
}

/** `service 1.02 ms CPU/request (98% of a core), postgres 0.31 ms, load generator 0.20 ms` */
function cpuPerRequest(f: Figures): string {
  if (!f.cpu || !f.rps) return ''
  const n = f.rps * f.cpu.seconds
  const ms = (s: number) => ((s / n) * 1000).toFixed(2)
  return `service ${ms(f.cpu.service)} ms CPU/request (${((f.cpu.service / f.cpu.seconds) * 100).toFixed(0)}% of a core), postgres ${ms(f.cpu.postgres)} ms, bench process ${ms(f.cpu.bench)} ms; other processes ${((f.cpu.other / f.cpu.seconds) * 100).toFixed(0)}% of a core`
}

async function main() {
  await buildIfChanged(log)
  await stopEmbeddedPostgres(PG, 'immediate').catch(() => {})
  fs.rmSync(PG.dataDir, { recursive: true, force: true })
  const { url } = await startEmbeddedPostgres(PG)
  await applyMigrations(url)

  // a site and token, payments to read and refund, bills to render
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  const site = 'bench'
  const token = `sk_${randomBytes(32).toString('base64url')}`
  await db.query('INSERT INTO "Site" (id) VALUES ($1)', [site])
  await db.query(
    `INSERT INTO "SiteTheme" ("siteId", code, name, "backgroundColor", "buttonColor", "buttonTextColor", logo,
         "logoType", "logoHash", "logoWidth", "logoHeight") VALUES ($1, 'bench', 'Bench shop', '#fff7ed', '#9a3412',
         '#ffffff', $2, 'image/svg+xml', $3, 96, 48)`,
    [site, Buffer.from(THEME_LOGO), createHash('sha256').update(THEME_LOGO).digest('base64url')],
  )
  await db.query('INSERT INTO "SiteToken" (id, "siteId", "tokenHash", hint) VALUES ($1, $2, $3, $4)', [
    randomUUID(),
    site,
    createHash('sha256').update(token).digest('hex'),
    token.slice(0, 9),
  ])

  // the site the gate's figures are taken on (its resets delete only its own data)
  const gateSite = 'gate'
  const gateToken = `sk_${randomBytes(32).toString('base64url')}`
  await db.query('INSERT INTO "Site" (id) VALUES ($1)', [gateSite])
  await db.query('INSERT INTO "SiteToken" (id, "siteId", "tokenHash", hint) VALUES ($1, $2, $3, $4)', [
    randomUUID(),
    gateSite,
    createHash('sha256').update(gateToken).digest('hex'),
    gateToken.slice(0, 9),
  ])

  const appEnv = {
    ...process.env,
    DATABASE_URL: url,
    SECRET_KEY: randomBytes(32).toString('hex'),
    PUBLIC_BASE_URL: `http://127.0.0.1:${APP_PORT}`,
    RATE_LIMIT_PER_MINUTE: '0',
    NOTIFICATIONS_WORKER: 'off',
    DATABASE_POOL_SIZE: String(POOL),
    NEXT_TELEMETRY_DISABLED: '1',
    // app/api/bench-empty answers 204 (an empty route handler) instead of the contract's 404
    BENCH_BOUNDS: '1',
  }
  // BENCH_PROFILE=<dir>: the service runs under node --cpu-prof, its profile written there at exit
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
  const app = spawn(process.execPath, [...profile, '--import', 'tsx', 'scripts/http-server.ts'], {
    env: { ...appEnv, PORT: String(APP_PORT), HOST: '127.0.0.1' },
    stdio: 'ignore',
    detached: true,
  })
  serviceGroup = app.pid
  const floor = await startFloor(url, FLOOR_PORT, POOL)
  const appBase = `http://127.0.0.1:${APP_PORT}`
  const floorBase = `http://127.0.0.1:${FLOOR_PORT}`
  try {
    for (let i = 0; i < 300; i++) {
      if (
        await fetch(`${appBase}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break
      await new Promise((r) => setTimeout(r, 100))
    }
    const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
    const put = (path: string, body: unknown) =>
      fetch(`${appBase}/api/sites/${site}${path}`, { method: 'PUT', headers: auth, body: JSON.stringify(body) }).then(
        (r) => r.json(),
      )
    const card = (value: string) => ({
      paymentMethod: { type: 'CARD', pan: '4111111111111111', expiryDate: '12/30', cvv2: '123' },
      amount: { value, currency: 'RUB' },
      flags: ['SALE'],
    })
    const readIds: string[] = []
    const refundIds: string[] = []
    const invoices: string[] = []
    const themedInvoices: string[] = []
    for (let i = 0; i < 100; i++) {
      readIds.push(`read-${i}`)
      await put(`/payments/read-${i}`, card('100.00'))
      refundIds.push(`big-${i}`)
      await put(`/payments/big-${i}`, card('1000000.00'))
      invoices.push(
        (
          await put(`/bills/page-${i}`, {
            amount: { value: '1490.00', currency: 'RUB' },
            comment: 'Order',
            expirationDateTime: new Date(Date.now() + 86400_000 * 10).toISOString(),
          })
        ).invoiceUid,
      )
    }
    // a bill naming the site's theme: the page Lighthouse measures themed
    themedInvoices.push(
      (
        await put('/bills/page-themed', {
          amount: { value: '1490.00', currency: 'RUB' },
          comment: 'Order',
          expirationDateTime: new Date(Date.now() + 86400_000 * 10).toISOString(),
          customFields: { themeCode: 'bench' },
        })
      ).invoiceUid,
    )
    const gate = () =>
      siteGate(appBase, db, gateSite, { Authorization: `Bearer ${gateToken}`, 'Content-Type': 'application/json' })
    if (ONLY === 'gate') {
      for (const line of await gate()) console.log(line)
      return
    }
    // the payment page in the browser, before any load (bench/lighthouse.ts): as it is, and dressed in a theme
    const browserPages =
      !ONLY || ONLY === 'lighthouse'
        ? [
            await benchPaymentPage({ baseUrl: appBase, pagePath: `/pay/${invoices[0]}` }),
            await benchPaymentPage({ baseUrl: appBase, pagePath: `/pay/${themedInvoices[0]}`, themed: true }),
          ]
        : []
    if (browserPages.some((p) => !p.ok)) process.exitCode = 1 // once the results are written
    if (ONLY === 'lighthouse') {
      for (const p of browserPages) replaceBrowserSection('bench/RESULTS.md', p.markdown) // those sections alone
      log('their sections written to bench/RESULTS.md')
      return
    }
    let n = 0
    const next = <T>(xs: T[]) => xs[n++ % xs.length]
    const uniq = () => `${Date.now().toString(36)}-${(n++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`
    const billBody = () =>
      JSON.stringify({
        amount: { value: '10.00', currency: 'RUB' },
        flags: ['SALE'],
        expirationDateTime: new Date(Date.now() + 86400_000).toISOString(),
      })

    const scenarios: { name: string; target?: string; app: autocannon.Request; floor: autocannon.Request }[] = [
      {
        name: 'create a one-step card payment',
        target: '≥ 50% of the floor, p99 ≤ 50 ms',
        app: {
          method: 'PUT',
          body: JSON.stringify(card('10.00')),
          setupRequest: (r) => ({ ...r, path: `/api/sites/${site}/payments/b-${uniq()}` }),
        },
        floor: {
          method: 'PUT',
          body: JSON.stringify(card('10.00')),
          setupRequest: (r) => ({ ...r, path: `/sites/${site}/payments/f-${uniq()}` }),
        },
      },
      {
        name: 'read a payment',
        target: '≥ 60% of the floor',
        app: { method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/sites/${site}/payments/${next(readIds)}` }) },
        floor: { method: 'GET', setupRequest: (r) => ({ ...r, path: `/sites/${site}/payments/${next(readIds)}` }) },
      },
      {
        name: 'partial refund (0.01 of 1,000,000.00)',
        app: {
          method: 'PUT',
          body: JSON.stringify({ amount: { value: '0.01', currency: 'RUB' } }),
          setupRequest: (r) => ({ ...r, path: `/api/sites/${site}/payments/${next(refundIds)}/refunds/b-${uniq()}` }),
        },
        floor: {
          method: 'PUT',
          body: JSON.stringify({ amount: { value: '0.01', currency: 'RUB' } }),
          setupRequest: (r) => ({ ...r, path: `/sites/${site}/payments/${next(refundIds)}/refunds/f-${uniq()}` }),
        },
      },
      {
        name: 'create a bill',
        app: {
          method: 'PUT',
          setupRequest: (r) => ({ ...r, body: billBody(), path: `/api/sites/${site}/bills/b-${uniq()}` }),
        },
        floor: {
          method: 'PUT',
          setupRequest: (r) => ({ ...r, body: billBody(), path: `/sites/${site}/bills/f-${uniq()}` }),
        },
      },
      {
        name: 'render /pay/<invoiceUid>',
        target: 'p50 ≤ 100 ms',
        app: { method: 'GET', setupRequest: (r) => ({ ...r, path: `/pay/${next(invoices)}` }) },
        floor: { method: 'GET', setupRequest: (r) => ({ ...r, path: `/pay/${next(invoices)}` }) },
      },
    ]

    // what Next.js alone costs on this machine: an empty route handler (no wrapper, no database) and
    // the home page (server-rendered, no database)
    const BOUND_ROUTE = { name: 'bound: an empty route handler (Next.js only)', path: '/api/bench-empty' }
    const BOUND_PAGE = { name: 'bound: a page without data (Next.js rendering only)', path: '/' }
    // not targets' measures: what Next.js alone costs for a read's answer (a payment's JSON) and for a
    // request with a JSON body in and out (the creation's body), to tell Next's share of them from ours
    const BOUND_JSON = {
      name: "bound: an empty route handler answering a payment's JSON with the API's headers (Next.js only)",
      path: '/api/bench-empty?json',
    }
    const BOUND_BODY = {
      name: "bound: an empty route handler reading the creation's body, answering {} (Next.js only)",
      path: '/api/bench-empty',
      body: JSON.stringify(card('10.00')),
    }
    const bound = async (b: { name: string; path: string; body?: string }): Promise<Figures> => {
      const request: autocannon.Request = b.body
        ? { method: 'PUT', path: b.path, body: b.body }
        : { method: 'GET', path: b.path }
      const headers: Record<string, string> = b.body ? { 'Content-Type': 'application/json' } : {}
      await drive(appBase, request, headers, 2)
      const f = await drive(appBase, request, headers)
      log(
        `${b.name}: ${f.rps.toFixed(0)} req/s p50 ${f.p50} ms p99 ${f.p99} ms errors ${f.errors} | ${cpuPerRequest(f)}`,
      )
      return f
    }
    const pct = (x: number) => `${(x * 100).toFixed(0)}%`
    if (ONLY) {
      const chosen = scenarios.filter((x) => x.name.includes(ONLY))
      // under a profile, the bounds only when asked for (BENCH_ONLY=bound): the profile is then the scenario's alone
      const withBounds = ONLY.includes('bound') || !process.env.BENCH_PROFILE
      const routeBound =
        withBounds && (ONLY.includes('bound') || chosen.some((s) => !s.name.startsWith('render')))
          ? await bound(BOUND_ROUTE)
          : null
      const pageBound =
        withBounds && (ONLY.includes('bound') || chosen.some((s) => s.name.startsWith('render')))
          ? await bound(BOUND_PAGE)
          : null
      if (withBounds && (ONLY.includes('bound') || chosen.some((s) => s.name.startsWith('create a one-step'))))
        await bound(BOUND_BODY)
      if (withBounds && (ONLY.includes('bound') || chosen.some((s) => s.name.startsWith('read'))))
        await bound(BOUND_JSON)
      for (const s of chosen) {
        await drive(appBase, s.app, auth, 2)
        const a = await drive(appBase, s.app, auth)
        const f = process.env.BENCH_FLOOR === '0' ? null : await drive(floorBase, s.floor, auth)
        const b = s.name.startsWith('render') ? pageBound : routeBound
        log(
          `${s.name}: service ${a.rps.toFixed(0)} req/s p50 ${a.p50} ms p99 ${a.p99} ms errors ${a.errors}` +
            (f ? ` | floor ${f.rps.toFixed(0)} req/s | ${pct(a.rps / f.rps)} of the floor` : '') +
            (b ? ` | ${pct(a.rps / b.rps)} of the Next.js bound` : '') +
            ` | ${cpuPerRequest(a)}`,
        )
      }
      return
    }
    const routeBound = await bound(BOUND_ROUTE)
    const pageBound = await bound(BOUND_PAGE)
    const bodyBound = await bound(BOUND_BODY)
    const jsonBound = await bound(BOUND_JSON)
    const bounds = (
      [
        [BOUND_ROUTE, routeBound],
        [BOUND_PAGE, pageBound],
        [BOUND_JSON, jsonBound],
        [BOUND_BODY, bodyBound],
      ] as const
    ).map(([b, f]) => `| ${b.name} | ${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.errors} | | | | | | ${cpuMs(f)} |`)
    const measured = new Map<string, Figures>()
    const rows: string[] = []
    for (const s of scenarios) {
      await drive(appBase, s.app, auth, 2) // warm-up
      const a = await drive(appBase, s.app, auth)
      const f = await drive(floorBase, s.floor, auth)
      const ratio = a.rps / f.rps
      measured.set(s.name, a)
      log(
        `${s.name}: service ${a.rps.toFixed(0)} req/s p50 ${a.p50} ms p99 ${a.p99} ms errors ${a.errors} | floor ${f.rps.toFixed(0)} req/s p50 ${f.p50} ms p99 ${f.p99} ms | ${(ratio * 100).toFixed(0)}%`,
      )
      rows.push(
        `| ${s.name} | ${a.rps.toFixed(0)} | ${a.p50} | ${a.p99} | ${a.errors} | ${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${(ratio * 100).toFixed(0)}% | ${s.target ?? ''} | ${cpuMs(a)} |`,
      )
    }
    // scale-out: the same creation load spread over two instances on the one database
    const second = spawn(process.execPath, ['--import', 'tsx', 'scripts/http-server.ts'], {
      env: { ...appEnv, PORT: String(APP_PORT + 2), HOST: '127.0.0.1' },
      stdio: 'ignore',
      detached: true,
    })
    let twoInstances = ''
    try {
      for (let i = 0; i < 300; i++) {
        if (
          await fetch(`http://127.0.0.1:${APP_PORT + 2}/api/health`).then(
            (r) => r.ok,
            () => false,
          )
        )
          break
        await new Promise((r) => setTimeout(r, 100))
      }
      const create = scenarios[0].app
      const half = (base: string) =>
        new Promise<Figures>((resolve, reject) =>
          autocannon(
            { url: base, connections: CONNECTIONS / 2, duration: DURATION, headers: auth, requests: [create] },
            (err, r) =>
              err
                ? reject(err)
                : resolve({
                    rps: r.requests.average,
                    p50: r.latency.p50,
                    p99: r.latency.p99,
                    errors: r.errors + r.timeouts + r.non2xx,
                  }),
          ),
        )
      const [x, y] = await Promise.all([half(appBase), half(`http://127.0.0.1:${APP_PORT + 2}`)])
      twoInstances = `| create a one-step card payment, two instances (${CONNECTIONS / 2} connections each) | ${(x.rps + y.rps).toFixed(0)} | ${Math.max(x.p50, y.p50)} | ${Math.max(x.p99, y.p99)} | ${x.errors + y.errors} | | | | | | |`
      log(`two instances: ${(x.rps + y.rps).toFixed(0)} req/s (p99 ${Math.max(x.p99, y.p99)} ms)`)
    } finally {
      if (second.pid) process.kill(-second.pid, 'SIGTERM')
    }
    if (twoInstances) rows.push(twoInstances)
    const gateSection = await gate()
    rows.push(...bounds)
    const cpu = os.cpus()[0]?.model ?? 'unknown'
    const header = [
      '# Benchmark results',
      '',
      `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, PostgreSQL 18 (embedded, fsync on).`,
      `autocannon: ${CONNECTIONS} connections, ${DURATION} s per scenario after a 2 s warm-up; service and floor each with a pool of ${POOL} connections; the service's rate limit off.`,
      "The floor is a minimal node:http server doing the same database work with `pg` directly (bench/floor-server.ts); the ratio is the service's throughput over the floor's.",
      `Each measurement starts on a quiet machine and is taken again (at most ${RETRIES} times) when other processes used more than ${DISTURBED * 100}% of a core meanwhile.`,
      '',
      '| scenario | service req/s | p50 ms | p99 ms | errors | floor req/s | floor p50 | floor p99 | service/floor | target | service CPU ms/request (PostgreSQL) |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    ]
    // issue 13's targets: the work per request against Next.js's own bounds, measured in this run
    const creation = measured.get(scenarios[0].name)!
    const read = measured.get(scenarios[1].name)!
    const page = measured.get(scenarios[4].name)!
    const met = (ok: boolean) => (ok ? 'met' : 'not met')
    const against = [
      '',
      "## Against Next.js's own bounds (same run)",
      '',
      "The service's throughput over that of Next.js doing nothing on the same server: the empty route handler for API requests, the page without data for the payment page.",
      '',
      '| measure | value | target | |',
      '|---|---|---|---|',
      `| create a one-step card payment / empty route handler | ${creation.rps.toFixed(0)} / ${routeBound.rps.toFixed(0)} = ${pct(creation.rps / routeBound.rps)} | ≥ 60% | ${met(creation.rps / routeBound.rps >= 0.6)} |`,
      `| create a one-step card payment, p99 | ${creation.p99} ms | ≤ 60 ms | ${met(creation.p99 <= 60)} |`,
      `| read a payment / empty route handler | ${read.rps.toFixed(0)} / ${routeBound.rps.toFixed(0)} = ${pct(read.rps / routeBound.rps)} | ≥ 80% | ${met(read.rps / routeBound.rps >= 0.8)} |`,
      `| render /pay/<invoiceUid> / page without data | ${page.rps.toFixed(0)} / ${pageBound.rps.toFixed(0)} = ${pct(page.rps / pageBound.rps)} | ≥ 70% | ${met(page.rps / pageBound.rps >= 0.7)} |`,
    ]
    const notesFile = 'bench/NOTES.md'
    const notes = fs.existsSync(notesFile) ? ['', fs.readFileSync(notesFile, 'utf8').trim()] : []
    fs.writeFileSync(
      'bench/RESULTS.md',
      [...header, ...rows, ...against, ...gateSection, ...browserPages.flatMap((p) => p.markdown), ...notes, ''].join(
        '\n',
      ),
    )
    log('written to bench/RESULTS.md')
  } finally {
    await db.end()
    floor.close()
    if (app.pid) process.kill(-app.pid, 'SIGTERM')
    await new Promise((r) => setTimeout(r, 1000))
    await stopEmbeddedPostgres(PG)
  }
}

/** the next MultiXact id, as of a checkpoint made now */
async function nextMultiXact(db: pg.Client): Promise<number> {
  await db.query('CHECKPOINT')
  const { rows } = await db.query('SELECT next_multixact_id::text AS next FROM pg_control_checkpoint()')
  return Number(rows[0].next)
}

/**
 * The site-write gate (issue 27; docs/design/site-write.md): how many MultiXact ids PostgreSQL consumes for
 * 10,000 one-step card payments made by CONNECTIONS clients on one site (a share lock on the site's row took
 * one for every new set of concurrent lockers; the gate, an advisory lock, takes none), and sandbox resets of
 * that site sent while CONNECTIONS clients write to it: each one's status and time (it must answer 200 within
 * 2 s). The MultiXact count does not depend on the machine's load; the times do. Markdown lines.
 */
async function siteGate(base: string, db: pg.Client, site: string, headers: Record<string, string>) {
  const PAYMENTS = 10_000
  const RESETS = 5
  let n = 0
  const payment: autocannon.Request = {
    method: 'PUT',
    body: JSON.stringify({
      paymentMethod: { type: 'CARD', pan: '4111111111111111', expiryDate: '12/30', cvv2: '123' },
      amount: { value: '10.00', currency: 'RUB' },
      flags: ['SALE'],
    }),
    setupRequest: (r) => ({
      ...r,
      path: `/api/sites/${site}/payments/g-${Date.now().toString(36)}-${(n++).toString(36)}`,
    }),
  }
  const load = (o: { amount?: number; duration?: number }) =>
    new Promise<autocannon.Result>((resolve, reject) =>
      autocannon({ url: base, connections: CONNECTIONS, headers, requests: [payment], ...o }, (err, r) =>
        err ? reject(err) : resolve(r),
      ),
    )
  await load({ amount: 1000 }) // warm-up
  const before = await nextMultiXact(db)
  const made = await load({ amount: PAYMENTS })
  const consumed = (await nextMultiXact(db)) - before
  const perTenThousand = Math.round((consumed * 10_000) / PAYMENTS)
  log(
    `MultiXact ids per 10,000 payments (${CONNECTIONS} clients, one site): ${perTenThousand} (${made.non2xx} non-2xx)`,
  )

  // resets amid the writes: one every 1.5 s after the first second
  const writing = load({ duration: 2 + RESETS * 1.5 })
  const resets: { status: number; ms: number }[] = []
  await new Promise((r) => setTimeout(r, 1000))
  for (let i = 0; i < RESETS; i++) {
    const started = performance.now()
    const r = await fetch(`${base}/api/sites/${site}/sandbox/reset`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ confirm: site }),
    })
    await r.arrayBuffer()
    resets.push({ status: r.status, ms: Math.round(performance.now() - started) })
    await new Promise((r) => setTimeout(r, 1000))
  }
  const writes = await writing
  const slowest = Math.max(...resets.map((r) => r.ms))
  const statuses = resets.map((r) => r.status).join(', ')
  log(
    `resets amid ${CONNECTIONS} writing clients: ${statuses}; ${resets.map((r) => r.ms).join(', ')} ms` +
      ` (the writes: ${writes.requests.average.toFixed(0)} req/s, ${writes.non2xx} non-2xx)`,
  )
  return [
    '',
    '## The site-write gate (issue 27)',
    '',
    `${PAYMENTS.toLocaleString('en')} one-step card payments by ${CONNECTIONS} clients on one site; then ${RESETS} sandbox resets of that site, one every 1.5 s, while ${CONNECTIONS} clients keep making payments on it. MultiXact ids are counted by PostgreSQL (\`pg_control_checkpoint()\` after a \`CHECKPOINT\`, before and after) and do not depend on the machine's load; the resets' times do. See docs/design/site-write.md.`,
    '',
    '| measure | value | target |',
    '|---|---|---|',
    `| MultiXact ids consumed per 10,000 payments | ${perTenThousand} | 0 |`,
    `| sandbox resets amid ${CONNECTIONS} writing clients: statuses | ${statuses} | 200, never 503 |`,
    `| the slowest reset | ${slowest} ms | ≤ 2000 ms |`,
    `| payments answered other than 2xx meanwhile | ${writes.non2xx} | 0 |`,
  ]
}

/** the scale bench on the bench's PostgreSQL (a fresh one when run alone, else the one the bench left) */
async function scale(fresh: boolean) {
  await buildIfChanged(log)
  if (fresh) {
    await stopEmbeddedPostgres(PG, 'immediate').catch(() => {})
    fs.rmSync(PG.dataDir, { recursive: true, force: true })
  }
  const { url } = await startEmbeddedPostgres(PG)
  try {
    await applyMigrations(url)
    await benchScale({ url, dataDir: PG.dataDir, port: APP_PORT, log })
  } finally {
    await stopEmbeddedPostgres(PG)
  }
}

;(ONLY === 'scale' ? scale(true) : main().then(() => (ONLY ? undefined : scale(false)))).catch((e) => {
  console.error(e)
  process.exit(1)
})
