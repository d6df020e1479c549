// The whole suite, as CI runs it: lint, type check, production build, a fresh embedded PostgreSQL, the
// server (scripts/http-server.ts) on it, unit and HTTP tests, then — with the server stopped — the check that
// no card number reached the database or the server log; last, the HTTP tests once more on Debian's
// PostgreSQL 15 (what DATABASE_URL users may run), with a server of their own. Everything started here is
// stopped here.
import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { applyMigrations } from '../lib/db/migrations.ts'
import {
  embeddedPasswordFile,
  redactDatabaseUrl,
  startEmbeddedPostgres,
  stopEmbeddedPostgres,
} from '../lib/db/embedded-postgres.ts'
import pg from 'pg'
import { aptInstall, ensureDebianPackage as ensureDebianProgram, withoutServiceStarts } from './debian-package.ts'
import { lint } from './lint.ts'
import { printReport, runStress } from './stress.ts'
import { printProxyReport, runProxyStress } from './stress-proxy.ts'
import { phaseReport, timed } from './test-timing.ts'
import { portsLine, testPorts } from './test-ports.ts'

const log = (line: string) => console.log(`[test] ${line}`)
// Every port of the run, from TEST_PORT_BASE (default 3999) and its overrides (scripts/test-ports.ts), which refuses
// one that fetch cannot reach or that lies in the ephemeral range before anything starts
const PORTS = (() => {
  try {
    return testPorts()
  } catch (e) {
    console.error(`[test] ${(e as Error).message}`)
    process.exit(2)
  }
})()
const PORT = PORTS.server
const PG = {
  dataDir: process.env.TEST_PG_DIR || 'data/test-pg',
  port: PORTS.pg,
  database: 'payin_test',
}
const SERVER_LOG = path.resolve(process.env.TEST_SERVER_LOG || 'data/test-server.log')
// the output of every other server the run starts (tests' instances, the stress test's): a file each, read
// by the after-suite card-data check with SERVER_LOG (tests/support/server-output.ts)
const SERVER_LOG_DIR = path.resolve(process.env.TEST_SERVER_LOG_DIR || 'data/test-server-logs')
// every distinct statement text each process of the run sends (lib/db/statement-log.ts), checked after the suite by
// tests/after/site-scoped-statements.test.ts
const STATEMENT_LOG_DIR = path.resolve(process.env.TEST_STATEMENT_LOG_DIR || 'data/test-statements')
const BASE_URL = `http://127.0.0.1:${PORT}`
// Debian's PostgreSQL 15 (package postgresql-15), on a data folder and port of its own (TEST_PG15_PORT, else the
// suite's PostgreSQL's plus two; the others beside it are the tests' own: PG_OFFSETS in scripts/test-ports.ts)
const PG15 = {
  dataDir: process.env.TEST_PG15_DIR || 'data/test-pg15',
  port: PORTS.pg15,
  database: 'payin_test',
  binDir: process.env.TEST_PG15_BIN_DIR || '/usr/lib/postgresql/15/bin',
}

// TEST_ONLY=notif,bills runs just the unit and HTTP test files whose names hold one of the words (no
// audit, browser, stress or after-suite checks): for working on a part; CI runs everything.
// TEST_E2E=dashboard likewise runs the browser journeys whose file names hold one of the words (with the
// HTTP files TEST_ONLY names, if any).
// TEST_PG15: a full run ends with the HTTP tests on Debian's PostgreSQL 15: its binaries, installed with
// apt-get when missing as root (as CI runs); a user other than root without them is told so and the pass
// is left out. TEST_PG15=on requires it (and adds it to a TEST_ONLY run), TEST_PG15=off leaves it out, and
// TEST_PG15=only runs the unit and HTTP tests (TEST_ONLY's, else all) on PostgreSQL 15 alone.
const only = (process.env.TEST_ONLY ?? '').split(',').filter(Boolean)
const onlyE2e = (process.env.TEST_E2E ?? '').split(',').filter(Boolean)
const pg15Mode = process.env.TEST_PG15 || 'default'
if (!['default', 'on', 'off', 'only'].includes(pg15Mode)) throw new Error(`TEST_PG15=${pg15Mode}: on, off or only`)
const pg15Only = pg15Mode === 'only'
const partial = only.length > 0 || onlyE2e.length > 0 || pg15Only
const onPg18 = !pg15Only
let onPg15 = pg15Only || pg15Mode === 'on' || (pg15Mode === 'default' && !partial)
const files = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter(
          (f) =>
            f.endsWith('.test.ts') &&
            (only.length ? only.some((w) => f.includes(w)) : !partial || (pg15Only && !onlyE2e.length)),
        )
        .sort()
        .map((f) => path.join(dir, f))
    : []

// The HTTP test files run this many at a time against the one server. Each file works on sites of its own
// (and starts instances on ports of its own), and most of a file's time is spent waiting (on the server, on
// PostgreSQL, on an instance starting, on the sandbox's delays): five at once keep two cores busy.
const HTTP_CONCURRENCY = 5
// The longest HTTP files (about 10–50 s each, the rest 1–5 s), started first so that the run does not end on
// one of them alone; the others follow by name. An order only: no file depends on another.
const LONG_HTTP_FILES = [
  'prototype-keys',
  'fuzz',
  'notifications',
  'readme-examples',
  'dev-mode',
  'scheduler-backlog',
  'embedded-pg-auth',
  'graceful-shutdown',
  'site-command',
  'readiness',
]
/** the files, the long ones (by their place in LONG_HTTP_FILES) first */
const longFirst = (testFiles: string[]) => {
  const rank = (f: string) => {
    const i = LONG_HTTP_FILES.indexOf(path.basename(f, '.test.ts'))
    return i < 0 ? LONG_HTTP_FILES.length : i
  }
  return [...testFiles].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
}
// The pass on PostgreSQL 15 leaves out the files whose subject is the HTTP layer and never the database
// (message framing, headers, media types, body limits, the request log, the validation fuzzers, the page's
// script budget, the OpenAPI document, Lighthouse on the dashboard's pages), and the development-mode test, which
// runs on an embedded PostgreSQL 18 of its own whatever the pass: on PostgreSQL 15 they would test the same thing
// again. Their statements are those of the files that stay (creating and reading payments and bills).
const NOT_ON_PG15 = [
  'dashboard-lighthouse',
  'dev-mode',
  'front-door',
  'fuzz',
  'hostile-bytes',
  'media-types',
  'message-framing',
  'openapi',
  'output-masking',
  'page-weight',
  'prototype-keys',
  'request-bodies',
  'request-log',
  'security-headers',
]

const totals = { passed: 0, failed: 0 }
// each node test run's file timings (tests/support/file-timings.ts), listed at the end
const TIMINGS_DIR = path.resolve(process.env.TEST_TIMINGS_DIR || 'data/test-timings')
const fileTimings: { label: string; file: string }[] = []

interface NodeTestOptions {
  /** modules loaded into each test process */
  imports?: string[]
  /** how many files run at once (2 unless said) */
  concurrency?: number
}

/** runs node's test runner on the files, in their order, and adds its counts to the totals */
async function nodeTests(
  label: string,
  testFiles: string[],
  env: Record<string, string>,
  o: NodeTestOptions = {},
): Promise<void> {
  if (testFiles.length) await timed(label, () => nodeTestRun(label, testFiles, env, o))
}

function nodeTestRun(
  label: string,
  testFiles: string[],
  env: Record<string, string>,
  { imports = [], concurrency = 2 }: NodeTestOptions,
): void {
  const before = { ...totals }
  log(`${label}: ${testFiles.length} file(s)`)
  const timings = path.join(TIMINGS_DIR, `${label.replace(/\W+/g, '-')}.txt`)
  fileTimings.push({ label, file: timings })
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      ...imports.flatMap((m) => ['--import', m]),
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./tests/support/file-timings.ts',
      `--test-reporter-destination=${timings}`,
      `--test-concurrency=${concurrency}`,
      '--test-timeout=180000',
      ...testFiles,
    ],
    { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
  process.stdout.write(r.stdout)
  process.stderr.write(r.stderr)
  const count = (word: string) => Number(new RegExp(`^ℹ ${word} (\\d+)$`, 'm').exec(r.stdout)?.[1] ?? 0)
  totals.passed += count('pass')
  totals.failed += count('fail') + count('cancelled')
  if (r.status !== 0 && count('fail') + count('cancelled') === 0) totals.failed += 1 // the runner itself failed
  log(`${label}: ${totals.passed - before.passed} passed, ${totals.failed - before.failed} failed`)
}

/** a program from Debian's package, installed with apt-get when missing (as root; else a clear error) */
const ensureDebianPackage = (file: string, pkg: string) => ensureDebianProgram(file, pkg, log)

/** Debian's Chromium for the browser tests */
const ensureChromium = () => ensureDebianPackage(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', 'chromium')

/** runs the Playwright journeys in e2e/ and adds their counts to the totals */
function browserTests(env: Record<string, string>): void {
  if (!fs.existsSync('e2e') || !fs.readdirSync('e2e').some((f) => f.endsWith('.spec.ts'))) return
  ensureChromium()
  log('browser tests (Playwright, Chromium)')
  const r = spawnSync('node_modules/.bin/playwright', ['test', ...onlyE2e], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  process.stdout.write(r.stdout)
  process.stderr.write(r.stderr)
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}`, 'm').exec(r.stdout)?.[1] ?? 0)
  totals.passed += count('passed')
  totals.failed += count('failed') + count('flaky') + count('did not run')
  if (r.status !== 0 && count('failed') === 0) totals.failed += 1
}

/**
 * Debian's PostgreSQL 15 server binaries: installed with apt-get when missing (as root), the binaries
 * only. The package's own cluster is neither started (a policy-rc.d refuses service starts while it
 * installs) nor kept (dropped when the installation made it): nothing listens on 5432 afterwards.
 */
function ensurePostgres15(): void {
  if (fs.existsSync(path.join(PG15.binDir, 'postgres'))) return
  if (process.getuid?.() !== 0)
    throw new Error(
      `${PG15.binDir} is missing: install Debian's postgresql-15 package (apt-get install postgresql-15), or run with TEST_PG15=off`,
    )
  log('installing PostgreSQL 15 (apt-get install postgresql-15) ...')
  const hadCluster = fs.existsSync('/etc/postgresql/15/main')
  withoutServiceStarts(() => {
    aptInstall(['postgresql-15'], ['--no-install-recommends'])
    if (!hadCluster && fs.existsSync('/etc/postgresql/15/main'))
      execFileSync('pg_dropcluster', ['--stop', '15', 'main'], { stdio: ['ignore', 'ignore', 'inherit'] })
  })
  if (!fs.existsSync(path.join(PG15.binDir, 'postgres')))
    throw new Error(`postgresql-15 installed, but ${PG15.binDir}/postgres is missing`)
}

async function waitForHealth(server: ChildProcess, serverLog: string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}); see ${serverLog}`)
    try {
      const res = await fetch(`${BASE_URL}/api/health`)
      if (res.ok) return
    } catch {
      // not listening yet: asked again
    }
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
  const [before] = await query(
    'SELECT count(*)::int AS n, coalesce(sum("refundedMinor"), 0)::text AS refunded FROM "Payment"',
  )
  await stopEmbeddedPostgres(PG, 'immediate')
  await startEmbeddedPostgres(PG)
  const [after] = await query(
    'SELECT count(*)::int AS n, coalesce(sum("refundedMinor"), 0)::text AS refunded FROM "Payment"',
  )
  const ok =
    fsync === 'on' &&
    synchronous_commit === 'on' &&
    before.n > 0 &&
    before.n === after.n &&
    before.refunded === after.refunded
  log(
    `durability: fsync=${fsync}, synchronous_commit=${synchronous_commit}; ${before.n} payments before a crash of PostgreSQL, ${after.n} after recovery: ${ok ? 'ok' : 'FAILED'}`,
  )
  if (ok) totals.passed += 1
  else totals.failed += 1
}

async function main(): Promise<number> {
  fs.rmSync(SERVER_LOG_DIR, { recursive: true, force: true })
  fs.mkdirSync(SERVER_LOG_DIR, { recursive: true })
  fs.rmSync(TIMINGS_DIR, { recursive: true, force: true })
  fs.mkdirSync(TIMINGS_DIR, { recursive: true })
  process.env.SERVER_LOG_DIR = SERVER_LOG_DIR
  fs.rmSync(STATEMENT_LOG_DIR, { recursive: true, force: true })
  fs.mkdirSync(STATEMENT_LOG_DIR, { recursive: true })
  process.env.STATEMENT_LOG_DIR = STATEMENT_LOG_DIR
  log(portsLine(PORTS))
  // formatting, ESLint and the dependency rules (scripts/lint.ts, `npm run lint`): one line each when clean
  log('lint (npm run lint)')
  if (!(await timed('lint', lint))) totals.failed += 1
  else totals.passed += 1
  await nodeTests('unit tests', files('tests/unit'), {})

  // the production dependencies against the registry's advisories (passes as "not checked" where the
  // registry does not serve them)
  if (!partial) {
    log('dependency audit (npm audit --omit=dev)')
    const audit = await timed('dependency audit', () =>
      spawnSync(process.execPath, ['scripts/audit.mjs'], { encoding: 'utf8' }),
    )
    process.stdout.write(audit.stdout + audit.stderr)
    if (audit.status !== 0) totals.failed += 1
    else if (!/not checked/.test(audit.stdout)) totals.passed += 1
  }

  log('production build (npm run build)')
  await timed('production build', () =>
    execFileSync('npm', ['run', 'build', '--silent'], {
      stdio: ['ignore', 'inherit', 'inherit'],
      // the type check below is the build's own (next.config.mjs): run once, not twice
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', PAYIN_BUILD_SKIP_TYPE_CHECK: '1' },
    }),
  )
  // after the build, which writes the route types Next.js's check would include (next-env.d.ts)
  log('type check (tsc --noEmit)')
  const tsc = await timed('type check', () => spawnSync('node_modules/.bin/tsc', ['--noEmit'], { stdio: 'inherit' }))
  if (tsc.status !== 0) totals.failed += 1
  else totals.passed += 1

  // PostgreSQL 15 ready (or known to be out) before the long run on 18, not after it
  if (onPg15) {
    if (pg15Mode === 'default' && process.getuid?.() !== 0 && !fs.existsSync(path.join(PG15.binDir, 'postgres'))) {
      onPg15 = false
      log(
        `the HTTP tests on PostgreSQL 15 are left out: ${PG15.binDir} is missing and only root installs it (apt-get install postgresql-15; CI runs as root)`,
      )
    } else await timed('PostgreSQL 15 binaries', ensurePostgres15)
  }
  if (onPg18) {
    await stopEmbeddedPostgres(PG, 'immediate').catch(() => {})
    fs.rmSync(PG.dataDir, { recursive: true, force: true })
    fs.rmSync(embeddedPasswordFile(PG.dataDir), { force: true })
    const { url } = await timed('PostgreSQL 18 start', () => startEmbeddedPostgres(PG))
    try {
      await timed('migrations', () => applyMigrations(url))
      log(`database ready: ${redactDatabaseUrl(url)}`)
      await httpTests({
        label: 'HTTP tests',
        files: files('tests/http'),
        databaseUrl: url,
        serverLog: SERVER_LOG,
        browser: !partial || onlyE2e.length > 0,
      })
      if (!partial) await afterTheHttpTests(url)
    } finally {
      await stopEmbeddedPostgres(PG)
    }
  }
  if (onPg15) await httpTestsOnPostgres15()
  return totals.failed ? 1 : 0
}

/**
 * The server (scripts/http-server.ts) on the database, the HTTP tests against it and, with `browser`, the
 * browser tests; the server is stopped afterwards.
 */
async function httpTests(o: {
  label: string
  /** the HTTP test files of the pass */
  files: string[]
  databaseUrl: string
  serverLog: string
  browser: boolean
  binDir?: string
}): Promise<void> {
  const secret = randomBytes(32).toString('hex')
  const serverEnv = {
    ...process.env,
    DATABASE_URL: o.databaseUrl,
    SECRET_KEY: secret,
    PORT: String(PORT),
    PUBLIC_BASE_URL: BASE_URL,
    MOBILE_OPERATOR_DELAY_MS: '1500',
    // notification tests start instances with workers of their own
    NOTIFICATIONS_WORKER: 'off',
    // every refused class refused, loopback included (the default), whatever the shell that runs the suite exports:
    // loopback allowed is tested on instances of their own (tests/http/notifications, webhooks-listen)
    NOTIFY_ALLOW_NETWORKS: '',
    // every payer of the suite comes from 127.0.0.1: the per-client limit of the payment page is tested
    // on an instance of its own (tests/http/page-attempts.test.ts)
    PAGE_CLIENT_ATTEMPTS: '100000',
    // so is every dashboard sign-in: its limits are tested on an instance of their own
    // (tests/http/dashboard-sessions.test.ts)
    DASHBOARD_SIGN_IN_FAILURES_PER_CLIENT: '100000',
    // GET /api/metrics on (tests/http/metrics.test.ts; the README's curl example); off is tested on an instance of its
    // own
    METRICS_TOKEN: randomBytes(24).toString('hex'),
    NEXT_TELEMETRY_DISABLED: '1',
  }
  fs.writeFileSync(o.serverLog, '')
  const out = fs.openSync(o.serverLog, 'a')
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/http-server.ts'], {
    env: { ...serverEnv, HOST: '127.0.0.1' },
    stdio: ['ignore', out, out],
    detached: true,
  })
  fs.closeSync(out)
  try {
    await timed(`server start (${o.label})`, () => waitForHealth(server, o.serverLog))
    log(`server ready on ${BASE_URL} (log: ${path.relative(process.cwd(), o.serverLog)})`)
    // TEST_PG_PORT: where tests that start an embedded database of their own put it (beside it);
    // TEST_PG_BIN_DIR: the PostgreSQL binaries of the pass (PostgreSQL 15's), for the tests that make data folders
    const testEnv = {
      BASE_URL,
      DATABASE_URL: o.databaseUrl,
      SECRET_KEY: secret,
      MOBILE_OPERATOR_DELAY_MS: serverEnv.MOBILE_OPERATOR_DELAY_MS,
      SERVER_LOG: o.serverLog,
      TEST_PORT_BASE: String(PORTS.base),
      TEST_PG_PORT: String(PG.port),
      METRICS_TOKEN: serverEnv.METRICS_TOKEN,
      ...(o.binDir ? { TEST_PG_BIN_DIR: o.binDir } : {}),
    }
    // the page-weight test loads the payment page in Chromium
    if (o.files.some((f) => f.includes('page-weight'))) ensureChromium()
    // the README's examples run with curl
    if (o.files.some((f) => f.includes('readme-examples'))) ensureDebianPackage('/usr/bin/curl', 'curl')
    // the domain's services called directly on the same database, no HTTP between (tests/service)
    // (their own fixtures, written through the service's pool, are not the service's statements: not recorded)
    await nodeTests(o.label.replace('HTTP', 'service'), files('tests/service'), { ...testEnv, STATEMENT_LOG_DIR: '' })
    // every answer the HTTP tests receive is checked against the OpenAPI document (tests/support/openapi-check.ts)
    await nodeTests(o.label, longFirst(o.files), testEnv, {
      imports: ['./tests/support/openapi-check.ts'],
      concurrency: HTTP_CONCURRENCY,
    })
    if (o.browser) await timed('browser tests', () => browserTests(testEnv))
  } finally {
    await stopServer(server)
  }
}

/** after the HTTP tests, with their server stopped: the stress test, durability, and the checks of tests/after */
async function afterTheHttpTests(url: string): Promise<void> {
  // the stress test: two instances of its own on a database of its own, one killed half-way
  const stressUrl = url.replace(/\/[^/]+$/, '/payin_stress')
  try {
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query('CREATE DATABASE payin_stress')
    await admin.end()
    await applyMigrations(stressUrl)
    log('stress test (two instances, one killed with SIGKILL half-way)')
    const report = await timed('stress test', () =>
      runStress({
        databaseUrl: stressUrl,
        requests: Number(process.env.STRESS_REQUESTS || 2000),
        clients: 16,
        ports: [PORT + 10, PORT + 20],
        log: (line) => log(`stress: ${line}`),
      }),
    )
    printReport(report, (line) => log(`stress: ${line}`))
    if (report.violations.length) totals.failed += 1
    else totals.passed += 1
  } catch (e) {
    console.error(e)
    totals.failed += 1
  }
  // again with three instances behind HAProxy (Debian's package, installed when missing), one killed half-way and
  // one drained: the invariants, the payment page's per-client limit and readiness (scripts/stress-proxy.ts)
  try {
    log('stress test behind HAProxy (three instances, one killed with SIGKILL half-way, one drained)')
    const proxied = await timed('stress test behind HAProxy', () =>
      runProxyStress({
        databaseUrl: stressUrl,
        requests: Number(process.env.STRESS_PROXY_REQUESTS || 1000),
        clients: 12,
        ports: [PORT + 290, PORT + 291, PORT + 292],
        proxyPort: PORT + 295,
        log: (line) => log(`stress behind HAProxy: ${line}`),
      }),
    )
    printReport(proxied.stress, (line) => log(`stress behind HAProxy: ${line}`))
    printProxyReport(proxied, (line) => log(`stress behind HAProxy: ${line}`))
    for (const check of proxied.checks) totals[check.ok ? 'passed' : 'failed'] += 1
  } catch (e) {
    console.error(e)
    totals.failed += 1
  }
  try {
    await timed('durability', () => durabilityCheck(stressUrl))
  } catch (e) {
    console.error(e)
    totals.failed += 1
  }
  await nodeTests('after the suite', files('tests/after'), {
    DATABASE_URL: url,
    STRESS_DATABASE_URL: stressUrl,
    SERVER_LOG,
  })
}

/**
 * The HTTP tests once more, on Debian's PostgreSQL 15 (the oldest version supported with DATABASE_URL): a
 * fresh data folder run by the same code as the embedded database (as an unprivileged user), migrated,
 * and a server of its own on it.
 */
async function httpTestsOnPostgres15(): Promise<void> {
  ensurePostgres15()
  await stopEmbeddedPostgres(PG15, 'immediate').catch(() => {})
  fs.rmSync(PG15.dataDir, { recursive: true, force: true })
  fs.rmSync(embeddedPasswordFile(PG15.dataDir), { force: true })
  try {
    const { url } = await timed('PostgreSQL 15 start', () => startEmbeddedPostgres(PG15))
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    const version = (await admin.query<{ server_version: string }>('SHOW server_version').finally(() => admin.end()))
      .rows[0].server_version
    if (!version.startsWith('15.')) throw new Error(`${PG15.binDir} runs PostgreSQL ${version}, not 15`)
    await timed('migrations (PostgreSQL 15)', () => applyMigrations(url))
    log(`PostgreSQL ${version} ready (${PG15.binDir}): ${redactDatabaseUrl(url)}`)
    const serverLog = SERVER_LOG.replace(/(\.log)?$/, '-pg15$1')
    await httpTests({
      label: 'HTTP tests on PostgreSQL 15',
      // the files TEST_ONLY names, else all but NOT_ON_PG15's
      files: files('tests/http').filter((f) => only.length || !NOT_ON_PG15.includes(path.basename(f, '.test.ts'))),
      databaseUrl: url,
      serverLog,
      browser: pg15Only && onlyE2e.length > 0,
      binDir: PG15.binDir,
    })
    // no card number in that database or that server's log either
    if (!partial)
      await nodeTests('after the suite on PostgreSQL 15', files('tests/after'), {
        DATABASE_URL: url,
        SERVER_LOG: serverLog,
      })
  } finally {
    await stopEmbeddedPostgres(PG15)
  }
}

const started = performance.now()
main()
  .catch((e) => {
    console.error(e)
    totals.failed += 1
    return 1
  })
  .then((code) => {
    log('time by phase (wall, and CPU of every process the run started):')
    for (const line of phaseReport((performance.now() - started) / 1000)) log(`  ${line}`)
    for (const { label, file } of fileTimings) {
      const slowest = fs.existsSync(file)
        ? fs
            .readFileSync(file, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => l.split(' '))
            .sort((a, b) => Number(b[0]) - Number(a[0]))
            .slice(0, 8)
        : []
      if (slowest.length)
        log(`slowest files of ${label}: ${slowest.map(([s, f]) => `${path.basename(f)} ${s} s`).join(', ')}`)
    }
    console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed`)
    process.exit(code)
  })
