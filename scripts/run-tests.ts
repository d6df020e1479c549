// The whole suite, as CI runs it: type check, production build, a fresh embedded PostgreSQL, the
// server (scripts/http-server.ts) on it, unit and HTTP tests, then — with the server stopped — the check that
// no card number reached the database or the server log. Everything started here is stopped here.
import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { applyMigrations } from '../lib/db/migrations.ts'
import { startEmbeddedPostgres, stopEmbeddedPostgres } from '../lib/db/embedded-postgres.ts'
import pg from 'pg'
import { printReport, runStress } from './stress.ts'

const log = (line: string) => console.log(`[test] ${line}`)
const PORT = Number(process.env.TEST_PORT || 3999)
const PG = { dataDir: process.env.TEST_PG_DIR || 'data/test-pg', port: Number(process.env.TEST_PG_PORT || 54339), database: 'payin_test' }
const SERVER_LOG = path.resolve(process.env.TEST_SERVER_LOG || 'data/test-server.log')
const BASE_URL = `http://127.0.0.1:${PORT}`

// TEST_ONLY=notif,bills runs just the unit and HTTP test files whose names hold one of the words (no
// audit, browser, stress or after-suite checks): for working on a part; CI runs everything.
// TEST_E2E=dashboard likewise runs the browser journeys whose file names hold one of the words (with the
// HTTP files TEST_ONLY names, if any).
const only = (process.env.TEST_ONLY ?? '').split(',').filter(Boolean)
const onlyE2e = (process.env.TEST_E2E ?? '').split(',').filter(Boolean)
const partial = only.length > 0 || onlyE2e.length > 0
const files = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.test.ts') && (!partial || only.some((w) => f.includes(w))))
        .sort()
        .map((f) => path.join(dir, f))
    : []

const totals = { passed: 0, failed: 0 }

/** runs node's test runner on the files (with `imports` loaded into each test process) and adds its counts to the totals */
function nodeTests(label: string, testFiles: string[], env: Record<string, string>, imports: string[] = []): void {
  if (!testFiles.length) return
  log(`${label}: ${testFiles.length} file(s)`)
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', ...imports.flatMap((m) => ['--import', m]), '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=180000', ...testFiles],
    { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
  process.stdout.write(r.stdout)
  process.stderr.write(r.stderr)
  const count = (word: string) => Number(new RegExp(`^ℹ ${word} (\\d+)$`, 'm').exec(r.stdout)?.[1] ?? 0)
  totals.passed += count('pass')
  totals.failed += count('fail') + count('cancelled')
  if (r.status !== 0 && count('fail') + count('cancelled') === 0) totals.failed += 1 // the runner itself failed
}

/** Debian's Chromium for the browser tests, installed with apt-get when missing */
function ensureChromium(): void {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (fs.existsSync(chromium)) return
  if (process.getuid?.() !== 0) throw new Error(`${chromium} is missing: install Debian's chromium package (apt-get install chromium)`)
  log('installing Chromium (apt-get install chromium) ...')
  execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'] })
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
}

/** runs the Playwright journeys in e2e/ and adds their counts to the totals */
function browserTests(env: Record<string, string>): void {
  if (!fs.existsSync('e2e') || !fs.readdirSync('e2e').some((f) => f.endsWith('.spec.ts'))) return
  ensureChromium()
  log('browser tests (Playwright, Chromium)')
  const r = spawnSync('node_modules/.bin/playwright', ['test', ...onlyE2e], { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  process.stdout.write(r.stdout)
  process.stderr.write(r.stderr)
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}`, 'm').exec(r.stdout)?.[1] ?? 0)
  totals.passed += count('passed')
  totals.failed += count('failed') + count('flaky') + count('did not run')
  if (r.status !== 0 && count('failed') === 0) totals.failed += 1
}

async function waitForHealth(server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}); see ${SERVER_LOG}`)
    try {
      const res = await fetch(`${BASE_URL}/api/health`)
      if (res.ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error('the server did not become healthy within 60 s')
}

function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || !server.pid) return Promise.resolve()
  const exited = new Promise<void>((r) => server.once('exit', () => r()))
  process.kill(-server.pid, 'SIGTERM')
  const force = setTimeout(() => server.pid && process.kill(-server.pid, 'SIGKILL'), 10_000)
  return exited.finally(() => clearTimeout(force))
}

/**
 * Durability: with fsync and synchronous commit on, a crash of PostgreSQL (an immediate stop, no
 * checkpoint) loses no acknowledged payment: every row is back after WAL recovery.
 */
async function durabilityCheck(url: string): Promise<void> {
  const query = async (sql: string) => {
    const c = new pg.Client({ connectionString: url })
    await c.connect()
    try {
      return (await c.query(sql)).rows
    } finally {
      await c.end()
    }
  }
  const [{ fsync }] = await query('SHOW fsync')
  const [{ synchronous_commit }] = await query('SHOW synchronous_commit')
  const [before] = await query('SELECT count(*)::int AS n, coalesce(sum("refundedMinor"), 0)::text AS refunded FROM "Payment"')
  await stopEmbeddedPostgres(PG, 'immediate')
  await startEmbeddedPostgres(PG)
  const [after] = await query('SELECT count(*)::int AS n, coalesce(sum("refundedMinor"), 0)::text AS refunded FROM "Payment"')
  const ok = fsync === 'on' && synchronous_commit === 'on' && before.n > 0 && before.n === after.n && before.refunded === after.refunded
  log(`durability: fsync=${fsync}, synchronous_commit=${synchronous_commit}; ${before.n} payments before a crash of PostgreSQL, ${after.n} after recovery: ${ok ? 'ok' : 'FAILED'}`)
  if (ok) totals.passed += 1
  else totals.failed += 1
}

async function main(): Promise<number> {
  log('type check (tsc --noEmit)')
  if (spawnSync('node_modules/.bin/tsc', ['--noEmit'], { stdio: 'inherit' }).status !== 0) totals.failed += 1
  else totals.passed += 1

  nodeTests('unit tests', files('tests/unit'), {})

  // the production dependencies against the registry's advisories (passes as "not checked" where the
  // registry does not serve them)
  if (!partial) {
    log('dependency audit (npm audit --omit=dev)')
    const audit = spawnSync(process.execPath, ['scripts/audit.mjs'], { encoding: 'utf8' })
    process.stdout.write(audit.stdout + audit.stderr)
    if (audit.status !== 0) totals.failed += 1
    else if (!/not checked/.test(audit.stdout)) totals.passed += 1
  }

  log('production build (npm run build)')
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } })

  await stopEmbeddedPostgres(PG, 'immediate').catch(() => {})
  fs.rmSync(PG.dataDir, { recursive: true, force: true })
  const { url } = await startEmbeddedPostgres(PG)
  await applyMigrations(url)
  log(`database ready: ${url}`)

  const secret = randomBytes(32).toString('hex')
  const serverEnv = {
    ...process.env,
    DATABASE_URL: url,
    SECRET_KEY: secret,
    PORT: String(PORT),
    PUBLIC_BASE_URL: BASE_URL,
    MOBILE_OPERATOR_DELAY_MS: '1500',
    // notification tests start instances with workers of their own
    NOTIFICATIONS_WORKER: 'off',
    // every payer of the suite comes from 127.0.0.1: the per-client limit of the payment page is tested
    // on an instance of its own (tests/http/page-attempts.test.ts)
    PAGE_CLIENT_ATTEMPTS: '100000',
    // so is every dashboard sign-in: its limits are tested on an instance of their own (tests/http/dashboard-sessions.test.ts)
    DASHBOARD_SIGN_IN_FAILURES_PER_CLIENT: '100000',
    NEXT_TELEMETRY_DISABLED: '1',
  }
  fs.writeFileSync(SERVER_LOG, '')
  const out = fs.openSync(SERVER_LOG, 'a')
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/http-server.ts'], {
    env: { ...serverEnv, HOST: '127.0.0.1' },
    stdio: ['ignore', out, out],
    detached: true,
  })
  try {
    await waitForHealth(server)
    log(`server ready on ${BASE_URL} (log: ${path.relative(process.cwd(), SERVER_LOG)})`)
    // SERVER_PGID: the server's process group, whose memory a test watches
    const testEnv = { BASE_URL, DATABASE_URL: url, SECRET_KEY: secret, MOBILE_OPERATOR_DELAY_MS: serverEnv.MOBILE_OPERATOR_DELAY_MS, SERVER_LOG, SERVER_PGID: String(server.pid), TEST_PG_PORT: String(PG.port) }
    // the page-weight test loads the payment page in Chromium
    if (files('tests/http').some((f) => f.includes('page-weight'))) ensureChromium()
    // every answer the HTTP tests receive is checked against the OpenAPI document (tests/support/openapi-check.ts)
    nodeTests('HTTP tests', files('tests/http'), testEnv, ['./tests/support/openapi-check.ts'])
    if (!partial || onlyE2e.length) browserTests(testEnv)
  } finally {
    await stopServer(server)
  }
  if (partial) {
    await stopEmbeddedPostgres(PG)
    return totals.failed ? 1 : 0
  }
  // the stress test: two instances of its own on a database of its own, one killed half-way
  const stressUrl = url.replace(/\/[^/]+$/, '/payin_stress')
  try {
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query('CREATE DATABASE payin_stress')
    await admin.end()
    await applyMigrations(stressUrl)
    log('stress test (two instances, one killed with SIGKILL half-way)')
    const report = await runStress({
      databaseUrl: stressUrl,
      requests: Number(process.env.STRESS_REQUESTS || 2000),
      clients: 16,
      ports: [PORT + 10, PORT + 20],
      log: (line) => log(`stress: ${line}`),
    })
    printReport(report, (line) => log(`stress: ${line}`))
    if (report.violations.length) totals.failed += 1
    else totals.passed += 1
  } catch (e) {
    console.error(e)
    totals.failed += 1
  }
  try {
    await durabilityCheck(stressUrl)
  } catch (e) {
    console.error(e)
    totals.failed += 1
  }
  try {
    nodeTests('after the suite', files('tests/after'), { DATABASE_URL: url, STRESS_DATABASE_URL: stressUrl, SERVER_LOG })
  } finally {
    await stopEmbeddedPostgres(PG)
  }
  return totals.failed ? 1 : 0
}

main()
  .catch((e) => {
    console.error(e)
    totals.failed += 1
    return 1
  })
  .then((code) => {
    console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed`)
    process.exit(code)
  })
