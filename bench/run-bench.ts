// npm run bench: the production build on a fresh embedded PostgreSQL, driven by autocannon at fixed
// connections and duration per scenario, beside a floor (bench/floor-server.ts: node:http + pg doing
// the same database work). Writes bench/RESULTS.md.
//   env: BENCH_CONNECTIONS (32), BENCH_DURATION seconds (10), DATABASE_POOL_SIZE (the service's, and the floor's),
//   BENCH_ONLY (a word of the scenarios to run; then only those run, and the figures are printed, not written),
//   BENCH_PROFILE (a directory for a CPU profile of the service),
//   BENCH_PORT (4201: the service; the floor on the next port, a second instance on the one after),
//   BENCH_PG_PORT (54359), BENCH_PG_DIR (data/bench-pg): for two benches on one machine.
//   BENCH_ONLY=lighthouse: only the payment page in the browser (bench/lighthouse.ts: Lighthouse and the
//   page's script weight), which the full bench also runs; a figure short of its target exits non-zero.
//   It rewrites only its own section of bench/RESULTS.md.
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

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32)
const DURATION = Number(process.env.BENCH_DURATION || 10)
const POOL = Number(process.env.DATABASE_POOL_SIZE || 10)
const ONLY = process.env.BENCH_ONLY
const APP_PORT = Number(process.env.BENCH_PORT || 4201)
const FLOOR_PORT = APP_PORT + 1
const PG = { dataDir: process.env.BENCH_PG_DIR || 'data/bench-pg', port: Number(process.env.BENCH_PG_PORT || 54359), database: 'payin_bench' }
const log = (l: string) => console.log(`[bench] ${l}`)

interface Figures {
  rps: number
  p50: number
  p99: number
  errors: number
}

function drive(url: string, request: autocannon.Request, headers: Record<string, string>, seconds = DURATION): Promise<Figures> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: CONNECTIONS, duration: seconds, headers, requests: [request] },
      (err, r) => {
        if (err) return reject(err)
        resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx })
      },
    )
  })
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
  await db.query('INSERT INTO "SiteToken" (id, "siteId", "tokenHash", hint) VALUES ($1, $2, $3, $4)', [randomUUID(), site, createHash('sha256').update(token).digest('hex'), token.slice(0, 9)])

  const appEnv = {
    ...process.env,
    DATABASE_URL: url,
    SECRET_KEY: randomBytes(32).toString('hex'),
    PUBLIC_BASE_URL: `http://127.0.0.1:${APP_PORT}`,
    RATE_LIMIT_PER_MINUTE: '0',
    NOTIFICATIONS_WORKER: 'off',
    DATABASE_POOL_SIZE: String(POOL),
    NEXT_TELEMETRY_DISABLED: '1',
  }
  // BENCH_PROFILE=<dir>: the service runs under node --cpu-prof, its profile written there at exit
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
  const app = spawn(process.execPath, [...profile, '--import', 'tsx', 'scripts/http-server.ts'], {
    env: { ...appEnv, PORT: String(APP_PORT), HOST: '127.0.0.1' },
    stdio: 'ignore',
    detached: true,
  })
  const floor = await startFloor(url, FLOOR_PORT, POOL)
  const appBase = `http://127.0.0.1:${APP_PORT}`
  const floorBase = `http://127.0.0.1:${FLOOR_PORT}`
  try {
    for (let i = 0; i < 300; i++) {
      if (await fetch(`${appBase}/api/health`).then((r) => r.ok, () => false)) break
      await new Promise((r) => setTimeout(r, 100))
    }
    const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
    const put = (path: string, body: unknown) => fetch(`${appBase}/api/sites/${site}${path}`, { method: 'PUT', headers: auth, body: JSON.stringify(body) }).then((r) => r.json())
    const card = (value: string) => ({ paymentMethod: { type: 'CARD', pan: '4111111111111111', expiryDate: '12/30', cvv2: '123' }, amount: { value, currency: 'RUB' }, flags: ['SALE'] })
    const readIds: string[] = []
    const refundIds: string[] = []
    const invoices: string[] = []
    for (let i = 0; i < 100; i++) {
      readIds.push(`read-${i}`)
      await put(`/payments/read-${i}`, card('100.00'))
      refundIds.push(`big-${i}`)
      await put(`/payments/big-${i}`, card('1000000.00'))
      invoices.push((await put(`/bills/page-${i}`, { amount: { value: '1490.00', currency: 'RUB' }, comment: 'Order', expirationDateTime: new Date(Date.now() + 86400_000 * 10).toISOString() })).invoiceUid)
    }
    // the payment page in the browser, before any load (bench/lighthouse.ts)
    const browserPage = !ONLY || ONLY === 'lighthouse' ? await benchPaymentPage({ baseUrl: appBase, pagePath: `/pay/${invoices[0]}` }) : undefined
    if (browserPage && !browserPage.ok) process.exitCode = 1 // once the results are written
    if (ONLY === 'lighthouse') {
      replaceBrowserSection('bench/RESULTS.md', browserPage!.markdown) // that section alone
      log('its section written to bench/RESULTS.md')
      return
    }
    let n = 0
    const next = <T,>(xs: T[]) => xs[n++ % xs.length]
    const uniq = () => `${Date.now().toString(36)}-${(n++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`
    const billBody = () => JSON.stringify({ amount: { value: '10.00', currency: 'RUB' }, flags: ['SALE'], expirationDateTime: new Date(Date.now() + 86400_000).toISOString() })

    const scenarios: { name: string; target?: string; app: autocannon.Request; floor: autocannon.Request }[] = [
      {
        name: 'create a one-step card payment',
        target: '≥ 50% of the floor, p99 ≤ 50 ms',
        app: { method: 'PUT', body: JSON.stringify(card('10.00')), setupRequest: (r) => ({ ...r, path: `/api/sites/${site}/payments/b-${uniq()}` }) },
        floor: { method: 'PUT', body: JSON.stringify(card('10.00')), setupRequest: (r) => ({ ...r, path: `/sites/${site}/payments/f-${uniq()}` }) },
      },
      {
        name: 'read a payment',
        target: '≥ 60% of the floor',
        app: { method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/sites/${site}/payments/${next(readIds)}` }) },
        floor: { method: 'GET', setupRequest: (r) => ({ ...r, path: `/sites/${site}/payments/${next(readIds)}` }) },
      },
      {
        name: 'partial refund (0.01 of 1,000,000.00)',
        app: { method: 'PUT', body: JSON.stringify({ amount: { value: '0.01', currency: 'RUB' } }), setupRequest: (r) => ({ ...r, path: `/api/sites/${site}/payments/${next(refundIds)}/refunds/b-${uniq()}` }) },
        floor: { method: 'PUT', body: JSON.stringify({ amount: { value: '0.01', currency: 'RUB' } }), setupRequest: (r) => ({ ...r, path: `/sites/${site}/payments/${next(refundIds)}/refunds/f-${uniq()}` }) },
      },
      {
        name: 'create a bill',
        app: { method: 'PUT', setupRequest: (r) => ({ ...r, body: billBody(), path: `/api/sites/${site}/bills/b-${uniq()}` }) },
        floor: { method: 'PUT', setupRequest: (r) => ({ ...r, body: billBody(), path: `/sites/${site}/bills/f-${uniq()}` }) },
      },
      {
        name: 'render /pay/<invoiceUid>',
        target: 'p50 ≤ 100 ms',
        app: { method: 'GET', setupRequest: (r) => ({ ...r, path: `/pay/${next(invoices)}` }) },
        floor: { method: 'GET', setupRequest: (r) => ({ ...r, path: `/pay/${next(invoices)}` }) },
      },
    ]

    // what Next.js alone costs on this machine: an API route that does nothing (the 404 catch-all) and
    // the home page (server-rendered, no database)
    if (ONLY) {
      for (const s of scenarios.filter((x) => x.name.includes(ONLY))) {
        await drive(appBase, s.app, auth, 2)
        const a = await drive(appBase, s.app, auth)
        const f = await drive(floorBase, s.floor, auth)
        log(`${s.name}: service ${a.rps.toFixed(0)} req/s p50 ${a.p50} ms p99 ${a.p99} ms errors ${a.errors} | floor ${f.rps.toFixed(0)} req/s | ${((a.rps / f.rps) * 100).toFixed(0)}%`)
      }
      return
    }
    const bounds: string[] = []
    for (const [name, path] of [
      ['bound: an API route doing nothing (Next.js only)', '/api/nothing-here'],
      ['bound: a page without data (Next.js rendering only)', '/'],
    ] as const) {
      await drive(appBase, { method: 'GET', path }, {}, 2)
      const b = await drive(appBase, { method: 'GET', path }, {})
      log(`${name}: ${b.rps.toFixed(0)} req/s p50 ${b.p50} ms p99 ${b.p99} ms`)
      bounds.push(`| ${name} | ${b.rps.toFixed(0)} | ${b.p50} | ${b.p99} | | | | | | |`)
    }
    const rows: string[] = []
    for (const s of scenarios) {
      await drive(appBase, s.app, auth, 2) // warm-up
      const a = await drive(appBase, s.app, auth)
      const f = await drive(floorBase, s.floor, auth)
      const ratio = a.rps / f.rps
      log(`${s.name}: service ${a.rps.toFixed(0)} req/s p50 ${a.p50} ms p99 ${a.p99} ms errors ${a.errors} | floor ${f.rps.toFixed(0)} req/s p50 ${f.p50} ms p99 ${f.p99} ms | ${(ratio * 100).toFixed(0)}%`)
      rows.push(`| ${s.name} | ${a.rps.toFixed(0)} | ${a.p50} | ${a.p99} | ${a.errors} | ${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${(ratio * 100).toFixed(0)}% | ${s.target ?? ''} |`)
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
        if (await fetch(`http://127.0.0.1:${APP_PORT + 2}/api/health`).then((r) => r.ok, () => false)) break
        await new Promise((r) => setTimeout(r, 100))
      }
      const create = scenarios[0].app
      const half = (base: string) =>
        new Promise<Figures>((resolve, reject) =>
          autocannon({ url: base, connections: CONNECTIONS / 2, duration: DURATION, headers: auth, requests: [create] }, (err, r) =>
            err ? reject(err) : resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx }),
          ),
        )
      const [x, y] = await Promise.all([half(appBase), half(`http://127.0.0.1:${APP_PORT + 2}`)])
      twoInstances = `| create a one-step card payment, two instances (${CONNECTIONS / 2} connections each) | ${(x.rps + y.rps).toFixed(0)} | ${Math.max(x.p50, y.p50)} | ${Math.max(x.p99, y.p99)} | ${x.errors + y.errors} | | | | | |`
      log(`two instances: ${(x.rps + y.rps).toFixed(0)} req/s (p99 ${Math.max(x.p99, y.p99)} ms)`)
    } finally {
      if (second.pid) process.kill(-second.pid, 'SIGTERM')
    }
    if (twoInstances) rows.push(twoInstances)
    rows.push(...bounds)
    const cpu = os.cpus()[0]?.model ?? 'unknown'
    const header = [
      '# Benchmark results',
      '',
      `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, PostgreSQL 18 (embedded, fsync on).`,
      `autocannon: ${CONNECTIONS} connections, ${DURATION} s per scenario after a 2 s warm-up; service and floor each with a pool of ${POOL} connections; the service's rate limit off.`,
      'The floor is a minimal node:http server doing the same database work with `pg` directly (bench/floor-server.ts); the ratio is the service\'s throughput over the floor\'s.',
      '',
      '| scenario | service req/s | p50 ms | p99 ms | errors | floor req/s | floor p50 | floor p99 | service/floor | target |',
      '|---|---|---|---|---|---|---|---|---|---|',
    ]
    const notesFile = 'bench/NOTES.md'
    const notes = fs.existsSync(notesFile) ? ['', fs.readFileSync(notesFile, 'utf8').trim()] : []
    fs.writeFileSync('bench/RESULTS.md', [...header, ...rows, ...(browserPage?.markdown ?? []), ...notes, ''].join('\n'))
    log('written to bench/RESULTS.md')
  } finally {
    await db.end()
    floor.close()
    if (app.pid) process.kill(-app.pid, 'SIGTERM')
    await new Promise((r) => setTimeout(r, 1000))
    await stopEmbeddedPostgres(PG)
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
