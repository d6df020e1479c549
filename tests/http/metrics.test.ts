// GET /api/metrics: off unless METRICS_TOKEN is set, then opened by that token only; the front door's
// request counts (scripts/http-server.ts) and the route's database gauges in one registry; route
// templates, never ids, as labels; the database's counts as they are at scrape time.
// The instance here has a database of its own (no other test's payments in its counts), no scheduler
// and no notification worker (a pending notification stays pending, an overdue change stays overdue).
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import { after, before, test } from 'node:test'
import pg from 'pg'
import { ROUTE_TEMPLATES } from '../../lib/observability/route-template.ts'
import { keepServerOutput } from '../support/server-output.ts'
import {
  assertErrorShape,
  BASE_URL,
  cardPayment,
  client,
  newSite,
  request,
  rub,
  twoStepPayment,
  uid,
} from '../support/api.ts'
import { freshDatabase, sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { scrape, type Scrape } from '../support/prometheus.ts'

const port = Number(new URL(BASE_URL).port)
const DATABASE = 'payin_metrics'
const TOKEN = randomBytes(24).toString('base64url')
const POOL_SIZE = 2
let instance: Instance

/** polls `check` until it holds (a deadline, not a sleep: each round asks again at once after 50 ms) */
async function until(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** the sum of every sample of `name` carrying (at least) these labels */
const total = (m: Scrape, name: string, labels: Record<string, string>) =>
  m.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0)

/** a GET with its target sent as written (fetch would resolve its dot segments first), on a connection of its own */
function rawGet(base: string, target: string, headers: Record<string, string> = {}): Promise<number> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = http.get({ hostname, port, path: target, headers, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode!))
    })
    req.on('error', reject)
  })
}

/**
 * sessions of the instance waiting for a lock: its request pool's (application_name payin-<pid>), and with `probes` its
 * probes' too (payin-<pid>-…)
 */
async function waitingForLocks(watcher: pg.Client, pid: number, probes: boolean): Promise<number> {
  const { rows } = await watcher.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND wait_event_type = 'Lock' AND (application_name = $1 OR ($2 AND starts_with(application_name, $1 || '-')))`,
    [`payin-${pid}`, probes],
  )
  return rows[0].n
}

before(async () => {
  const url = await freshDatabase(DATABASE)
  // this file's sites and statements use that database
  process.env.DATABASE_URL = url
  instance = await startInstance(port + 150, {
    DATABASE_URL: url,
    // as a file or a secret store may give it: the spaces and line end around it are not part of it
    METRICS_TOKEN: `  ${TOKEN}\n`,
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    SCHEDULER: 'off',
    NOTIFICATIONS_WORKER: 'off',
  })
})

after(() => instance?.kill())

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

test('off by default: without METRICS_TOKEN the endpoint answers every method what an unknown path does (404, no Allow), whatever the token', async () => {
  // an instance with the default settings (the suite passes its METRICS_TOKEN to the instances it starts)
  const off = await startInstance(port + 155, { METRICS_TOKEN: '', SCHEDULER: 'off', NOTIFICATIONS_WORKER: 'off' })
  try {
    for (const method of METHODS) {
      const unknown = await request(method, '/api/no-such-endpoint', { base: off.base })
      assert.equal(unknown.status, 404, `${method} of an unknown path`)
      for (const path of ['/api/metrics', '/partner/v1/metrics']) {
        for (const token of [undefined, TOKEN]) {
          const a = await request(method, path, { base: off.base, token })
          assert.equal(a.status, 404, `${method} ${path}`)
          assert.equal(a.headers.get('allow'), null, `${method} ${path} names the methods it allows`)
          assert.equal(a.headers.get('content-type'), unknown.headers.get('content-type'))
          if (method !== 'HEAD') {
            assertErrorShape(a, 404, 'payin.resource.not.found')
            assert.equal(a.body.description, unknown.body.description)
          }
        }
      }
    }
  } finally {
    off.kill()
  }
})

test('a METRICS_TOKEN shorter than 16 characters: the server refuses to start, saying why in one line', async () => {
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/http-server.ts'], {
    env: { ...process.env, PORT: String(port + 156), HOST: '127.0.0.1', METRICS_TOKEN: ' too-short-123 ' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  server.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  // its exit, or the line of a server that started after all
  const outcome = await new Promise<string>((resolve) => {
    server.on('exit', (c) => resolve(`exit ${c}`))
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (chunk.includes('[payin] listening')) {
        process.kill(server.pid!, 'SIGKILL')
        resolve('listening')
      }
    })
  })
  keepServerOutput('metrics-too-short', stderr)
  assert.equal(outcome, 'exit 1')
  assert.equal(
    stderr,
    '[payin] METRICS_TOKEN has 13 characters, fewer than 16: use a long random value (openssl rand -hex 32), or leave it unset to turn metrics off\n',
  )
  assert.ok(!stderr.includes('too-short-123'), 'the token itself is not printed')
})

test("the suite's server, with METRICS_TOKEN: its token opens them, another does not", async () => {
  const suiteToken = process.env.METRICS_TOKEN
  assert.ok(suiteToken, 'scripts/run-tests.ts passes the server its METRICS_TOKEN')
  const m = await scrape(BASE_URL, suiteToken)
  assert.ok(
    m.count('payin_http_requests_total', { route: '/api/health', method: 'GET', status: '200' }) >= 1,
    'the suite waited for its health',
  )
  assertErrorShape(await request('GET', '/api/metrics', { token: TOKEN }), 401, 'auth.unauthorized')
})

test("with METRICS_TOKEN: only that token opens them (not none, not another, not a site's API token)", async () => {
  const site = await newSite('metrics-site')
  // the site's token is good for its site's API on this instance
  assert.equal((await client(site, '/api', instance.base).get(`/payments/${uid('none')}`)).status, 404)
  const refusals = [
    await request('GET', '/api/metrics', { base: instance.base }),
    await request('GET', '/api/metrics', { base: instance.base, token: `${TOKEN}x` }),
    await request('GET', '/api/metrics', { base: instance.base, token: TOKEN.slice(0, -1) }),
    await request('GET', '/api/metrics', { base: instance.base, token: site.token }),
    await request('GET', '/api/metrics', { base: instance.base, headers: { Authorization: TOKEN } }),
  ]
  for (const r of refusals) {
    assertErrorShape(r, 401, 'auth.unauthorized')
    assert.doesNotMatch(r.text, /payin_|process_/)
  }
  // on, the endpoint is a route like any: another method is a 405 naming GET
  const posted = await request('POST', '/api/metrics', { base: instance.base, token: TOKEN })
  assertErrorShape(posted, 405, 'http.method.not.allowed')
  assert.equal(posted.headers.get('allow'), 'GET')
  const m = await scrape(instance.base, TOKEN)
  assert.equal(m.answer.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8')
  assert.equal(m.answer.headers.get('cache-control'), 'no-store')
  assert.match(m.answer.text, /^# TYPE payin_http_requests_total counter$/m)
  assert.match(m.answer.text, /^# TYPE payin_http_request_duration_seconds histogram$/m)
  // Node's process metrics, under their standard names
  assert.ok(m.value('process_cpu_seconds_total')! > 0)
  assert.ok(m.value('process_resident_memory_bytes')! > 0)
  assert.ok(m.value('nodejs_heap_size_used_bytes')! > 0)
  // the alias prefixes reach it too
  assert.equal((await request('GET', '/partner/payin/v1/metrics', { base: instance.base, token: TOKEN })).status, 200)
})

test("the front door's counts reach the route's answer: each request under its route's template and status, no id in any label", async () => {
  const site = await newSite('metrics-routes')
  const api = client(site, '/api', instance.base)
  const alias = client(site, '/partner/payin/v1', instance.base)
  const one = { route: '/api/sites/{siteId}/payments/{paymentId}' }
  const before = await scrape(instance.base, TOKEN)

  const paymentId = uid('pay-metrics')
  assert.equal((await api.put(`/payments/${paymentId}`, cardPayment())).status, 200)
  for (let i = 0; i < 3; i++) assert.equal((await api.get(`/payments/${paymentId}`)).status, 200)
  assert.equal((await alias.get(`/payments/${paymentId}`)).status, 200)
  const unknown = uid('pay-unknown')
  assert.equal((await api.get(`/payments/${unknown}`)).status, 404)
  // answered by the front door itself, before Next.js: counted all the same
  const refused = await request('GET', `/api/sites/${site.siteId}/payments/${paymentId}%zz`, {
    base: instance.base,
    token: site.token,
  })
  assertErrorShape(refused, 400, 'validation.error')
  // an unknown path: `other`, not its path
  const stray = `/no-such-page-${uid()}`
  assert.equal((await request('GET', stray, { base: instance.base })).status, 404)

  const after = await scrape(instance.base, TOKEN)
  const delta = (name: string, labels: Record<string, string>) => after.count(name, labels) - before.count(name, labels)
  assert.equal(delta('payin_http_requests_total', { ...one, method: 'PUT', status: '200' }), 1)
  assert.equal(
    delta('payin_http_requests_total', { ...one, method: 'GET', status: '200' }),
    4,
    'three reads and one through the alias',
  )
  assert.equal(delta('payin_http_requests_total', { ...one, method: 'GET', status: '404' }), 1)
  assert.equal(delta('payin_http_requests_total', { ...one, method: 'GET', status: '400' }), 1)
  assert.ok(delta('payin_http_requests_total', { route: 'other', method: 'GET', status: '404' }) >= 1)
  // the histogram times the same requests by status class: the API's successes by method too (the four
  // reads apart from the creation), its refusals (the 404 and the 400) by route and class alone
  assert.equal(delta('payin_http_request_duration_seconds_count', { ...one, method: 'GET', status_class: '2xx' }), 4)
  assert.equal(delta('payin_http_request_duration_seconds_count', { ...one, method: 'PUT', status_class: '2xx' }), 1)
  assert.ok(delta('payin_http_request_duration_seconds_sum', { ...one, method: 'GET', status_class: '2xx' }) > 0)
  assert.equal(
    delta('payin_http_request_duration_seconds_bucket', { ...one, method: 'GET', status_class: '2xx', le: '+Inf' }),
    4,
  )
  assert.equal(delta('payin_http_request_duration_seconds_count', { ...one, status_class: '4xx' }), 2)
  const timed = after.samples.filter((s) => s.name.startsWith('payin_http_request_duration_seconds'))
  assert.ok(!timed.some((s) => 'status' in s.labels), 'the histogram has no exact status')
  assert.ok(
    !timed.some((s) => s.labels.status_class === '4xx' && 'method' in s.labels),
    'a refusal is timed without its method',
  )

  const text = after.answer.text
  for (const secret of [site.siteId, site.token, paymentId, unknown, stray])
    assert.ok(!text.includes(secret), `${secret} is in the metrics`)
  const routes = new Set(after.samples.filter((s) => s.labels.route !== undefined).map((s) => s.labels.route))
  const allowed = new Set<string>([...ROUTE_TEMPLATES, 'other', '/_next/static/*', '/_next/*', '/_pay/*'])
  for (const route of routes) assert.ok(allowed.has(route), `route label ${route} is not a template`)
})

test("what any client can send does not multiply the histogram's series: every method on a page, on an API route, and a method of its own", async () => {
  const before = await scrape(instance.base, TOKEN)
  // PROPFIND and PURGE: methods Node's parser takes, outside the known set
  for (const method of [...METHODS, 'PROPFIND', 'PURGE']) {
    for (const path of ['/docs', '/api/ready', `/pay/${uid('bill')}`])
      await request(method, path, { base: instance.base })
  }
  const after = await scrape(instance.base, TOKEN)
  const series = (route: string) =>
    after.samples.filter((s) => s.name === 'payin_http_request_duration_seconds_count' && s.labels.route === route)
  // a page: one series per status class it answered, whatever the methods
  for (const page of ['/docs', '/pay/{invoiceUid}']) {
    const classes = new Set(
      after.samples
        .filter((s) => s.name === 'payin_http_requests_total' && s.labels.route === page)
        .map((s) => `${s.labels.status[0]}xx`),
    )
    assert.deepEqual(
      series(page)
        .map((s) => s.labels.status_class)
        .sort(),
      [...classes].sort(),
      page,
    )
    assert.ok(
      series(page).every((s) => !('method' in s.labels)),
      page,
    )
  }
  // an API route: GET and HEAD answered 200 by method, every refusal together
  assert.deepEqual(
    series('/api/ready')
      .map((s) => `${s.labels.method ?? '-'} ${s.labels.status_class}`)
      .sort(),
    ['- 4xx', 'GET 2xx', 'HEAD 2xx'],
  )
  // the counter keeps each method (the unknown ones as other) and status
  const counted = (labels: Record<string, string>) =>
    total(after, 'payin_http_requests_total', labels) - total(before, 'payin_http_requests_total', labels)
  assert.equal(counted({ route: '/api/ready', method: 'other' }), 2)
  assert.equal(counted({ route: '/api/ready', method: 'DELETE', status: '405' }), 1)
})

test('the route label is that of the route a target names: dot segments resolved as Next.js resolves them; a method outside the known set is other', async () => {
  const auth = { Authorization: `Bearer ${TOKEN}` }
  const before = await scrape(instance.base, TOKEN)
  // resolved by Next.js to /api/metrics, refused by the front door (a dot segment reaching an API path), counted there
  for (const target of ['/_next/../api/metrics', '/api/./metrics', '/api/%2e/metrics'])
    assert.equal(await rawGet(instance.base, target, auth), 400, target)
  const odd = await request('PROPFIND', '/api/health', { base: instance.base })
  const after = await scrape(instance.base, TOKEN)
  const delta = (labels: Record<string, string>) =>
    total(after, 'payin_http_requests_total', labels) - total(before, 'payin_http_requests_total', labels)
  // the first scrape; the three refused
  assert.equal(delta({ route: '/api/metrics', method: 'GET', status: '200' }), 1)
  assert.equal(delta({ route: '/api/metrics', method: 'GET', status: '400' }), 3)
  assert.equal(delta({ route: '/_next/*' }), 0)
  assert.equal(delta({ route: 'other', status: '200' }), 0)
  assert.equal(delta({ route: '/api/health', method: 'other', status: String(odd.status) }), 1)
  assert.ok(!after.samples.some((s) => s.labels.method === 'PROPFIND'))
})

test('a slow scrape does not hold up readiness: each reads on a connection of its own', async () => {
  const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL })
  const locker = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await watcher.connect()
  await locker.connect()
  try {
    // the scrape's read of the counts waits for this lock (for up to its 2 s statement timeout)
    await locker.query('BEGIN')
    await locker.query('LOCK "Capture" IN ACCESS EXCLUSIVE MODE')
    let scraped = false
    const scraping = scrape(instance.base, TOKEN).finally(() => (scraped = true))
    await until(
      'the scrape to wait for the lock',
      async () => (await waitingForLocks(watcher, instance.proc.pid!, true)) > 0,
      5000,
    )
    const ready = await request('GET', '/api/ready', { base: instance.base })
    assert.equal(ready.status, 200, ready.text)
    assert.equal(scraped, false, 'readiness answered only after the scrape')
    await locker.query('ROLLBACK')
    assert.equal((await scraping).answer.status, 200)
  } finally {
    await locker.end()
    await watcher.end()
  }
})

test('payments, captures and refunds by status, as the database holds them at scrape time', async () => {
  const api = client(await newSite('metrics-status'), '/api', instance.base)
  const before = await scrape(instance.base, TOKEN)
  const sale = await api.newPayment(cardPayment())
  const held = await api.newPayment(twoStepPayment())
  await api.newPayment(cardPayment({}, { pan: '4000000000000002' }))
  const waiting = await api.newPayment(cardPayment({}, { pan: '4000000000003220' }))
  assert.equal((await api.paymentNow(waiting)).status.value, 'WAITING')
  assert.equal(
    (await api.put(`/payments/${held}/captures/${uid('cap')}`, { amount: rub('100.00') })).body.status.value,
    'COMPLETED',
  )
  assert.equal(
    (await api.put(`/payments/${sale}/refunds/${uid('ref')}`, { amount: rub('10.00') })).body.status.value,
    'COMPLETED',
  )

  const after = await scrape(instance.base, TOKEN)
  const delta = (name: string, labels: Record<string, string>) =>
    after.value(name, labels)! - before.value(name, labels)!
  assert.equal(after.value('payin_db_stats_up'), 1)
  assert.ok(after.value('payin_db_stats_duration_seconds')! > 0)
  assert.equal(delta('payin_payments', { status: 'COMPLETED' }), 2)
  assert.equal(delta('payin_payments', { status: 'DECLINED' }), 1)
  assert.equal(delta('payin_payments', { status: 'WAITING' }), 1)
  assert.equal(delta('payin_captures', { status: 'COMPLETED' }), 1)
  assert.equal(delta('payin_captures', { status: 'DECLINED' }), 0)
  assert.equal(delta('payin_refunds', { status: 'COMPLETED' }), 1)
  // the gauges are the database's counts, not this process's
  const [counts] = await sql(
    `SELECT count(*) FILTER (WHERE status = 'COMPLETED')::int AS completed, count(*) FILTER (WHERE status = 'DECLINED')::int AS declined FROM "Payment"`,
  )
  assert.equal(after.value('payin_payments', { status: 'COMPLETED' }), counts.completed)
  assert.equal(after.value('payin_payments', { status: 'DECLINED' }), counts.declined)
})

test("the outbox's backlog and its oldest pending notification's age; the scheduler's lag", async () => {
  const api = client(await newSite('metrics-outbox'), '/api', instance.base)
  const before = await scrape(instance.base, TOKEN)
  assert.equal(before.value('payin_scheduler_lag_seconds'), 0, 'nothing overdue yet')
  // no worker runs on this database: the notification of this payment waits in the outbox
  const notified = await api.newPayment(cardPayment({ callbackUrl: 'https://shop.example/payin' }))
  const [row] = await sql(
    `UPDATE "Notification" SET "createdAt" = now() - interval '1 hour' WHERE "resourceId" = $1 RETURNING state`,
    [notified],
  )
  assert.equal(row.state, 'PENDING')
  // a 3-D Secure challenge left unfinished, whose expiry fell due two minutes ago (no scheduler applies it here)
  const waiting = await api.newPayment(cardPayment({}, { pan: '4000000000003220' }))
  await sql(`UPDATE "Payment" SET "dueAt" = now() - interval '120 seconds' WHERE "paymentId" = $1`, [waiting])

  const after = await scrape(instance.base, TOKEN)
  assert.equal(
    after.value('payin_notification_outbox_backlog')! - before.value('payin_notification_outbox_backlog')!,
    1,
  )
  assert.equal(
    after.value('payin_notifications', { state: 'PENDING' }),
    after.value('payin_notification_outbox_backlog'),
  )
  const age = after.value('payin_notification_outbox_oldest_pending_age_seconds')!
  assert.ok(age >= 3600 && age < 3600 + 120, `oldest pending age ${age}`)
  const lag = after.value('payin_scheduler_lag_seconds')!
  assert.ok(lag >= 120 && lag < 120 + 120, `scheduler lag ${lag}`)

  // delivered and applied: the backlog and the lag are gone
  await sql(`UPDATE "Notification" SET state = 'DELIVERED', "deliveredAt" = now() WHERE "resourceId" = $1`, [notified])
  await sql(`UPDATE "Payment" SET "dueAt" = NULL, status = 'DECLINED' WHERE "paymentId" = $1`, [waiting])
  const done = await scrape(instance.base, TOKEN)
  assert.equal(done.value('payin_notification_outbox_backlog'), before.value('payin_notification_outbox_backlog'))
  assert.equal(done.value('payin_scheduler_lag_seconds'), 0)
  assert.equal(
    done.value('payin_notifications', { state: 'DELIVERED' })! -
      before.value('payin_notifications', { state: 'DELIVERED' })!,
    1,
  )
})

test("the request pool's connections: in use while requests hold them, requests waiting for one when all are, none once they are done", async () => {
  const site = await newSite('metrics-pool')
  const api = client(site, '/api', instance.base)
  const paymentId = await api.newPayment(cardPayment())
  const pid = instance.proc.pid!
  const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL })
  const holder = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await watcher.connect()
  await holder.connect()
  try {
    let rest!: Scrape
    await until(
      "the payment's connection to be returned",
      async () => (rest = await scrape(instance.base, TOKEN)).value('payin_db_pool_in_use_connections') === 0,
    )
    assert.equal(rest.value('payin_db_pool_max_connections'), POOL_SIZE)
    assert.equal(rest.value('payin_db_pool_waiting_requests'), 0)

    // the payment's row locked by the test: each refund holds a pooled connection while it waits for the lock
    await holder.query('BEGIN')
    await holder.query('SELECT 1 FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2 FOR UPDATE', [
      site.siteId,
      paymentId,
    ])
    const refunds = Array.from({ length: POOL_SIZE + 2 }, () =>
      api.put(`/payments/${paymentId}/refunds/${uid('ref')}`, { amount: rub('1.00') }),
    )
    await until(
      'every pooled connection to wait for the row lock',
      async () => (await waitingForLocks(watcher, pid, false)) === POOL_SIZE,
    )
    // the refunds beyond the pool's size wait for a connection
    let held!: Scrape
    await until(
      'requests to wait for a connection',
      async () => ((held = await scrape(instance.base, TOKEN)).value('payin_db_pool_waiting_requests') ?? 0) > 0,
    )
    assert.equal(held.value('payin_db_pool_in_use_connections'), POOL_SIZE)
    assert.equal(held.value('payin_db_pool_connections'), POOL_SIZE)
    assert.equal(held.value('payin_db_pool_idle_connections'), 0)
    // at most one wait per request without a connection (the refunds beyond the pool's size), and the
    // process's own occasional clean-up of rate-limit windows (one request in a thousand starts it)
    const waiting = held.value('payin_db_pool_waiting_requests')!
    assert.ok(waiting <= refunds.length - POOL_SIZE + 1, `${waiting} waiting`)

    await holder.query('COMMIT')
    for (const r of await Promise.all(refunds)) assert.equal(r.status, 200, JSON.stringify(r.body))
    let done!: Scrape
    await until(
      'the connections to be returned',
      async () => (done = await scrape(instance.base, TOKEN)).value('payin_db_pool_in_use_connections') === 0,
    )
    assert.equal(done.value('payin_db_pool_waiting_requests'), 0)
    assert.equal(done.value('payin_db_pool_idle_connections'), done.value('payin_db_pool_connections'))
  } finally {
    await holder.end()
    await watcher.end()
  }
})
