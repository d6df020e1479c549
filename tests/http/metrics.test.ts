// GET /api/metrics: off unless METRICS_TOKEN is set, then opened by that token only; the front door's
// request counts (scripts/http-server.ts) and the route's database gauges in one registry; route
// templates, never ids, as labels; the database's counts as they are at scrape time.
// The instance here has a database of its own (no other test's payments in its counts), no scheduler
// and no notification worker (a pending notification stays pending, an overdue change stays overdue).
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, test } from 'node:test'
import pg from 'pg'
import { applyMigrations } from '../../lib/db/migrations.ts'
import { ROUTE_TEMPLATES } from '../../lib/observability/route-template.ts'
import { assertErrorShape, BASE_URL, cardPayment, client, newSite, request, rub, twoStepPayment, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { scrape } from '../support/prometheus.ts'

const port = Number(new URL(BASE_URL).port)
const DATABASE = 'payin_metrics'
const TOKEN = randomBytes(24).toString('base64url')
const POOL_SIZE = 4
let instance: Instance

before(async () => {
  const main = process.env.DATABASE_URL!
  const admin = new pg.Client({ connectionString: main })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`)
  await admin.query(`CREATE DATABASE ${DATABASE}`)
  await admin.end()
  const url = main.replace(/\/[^/?]+(\?|$)/, `/${DATABASE}$1`)
  await applyMigrations(url)
  // this file's sites and statements use that database
  process.env.DATABASE_URL = url
  instance = await startInstance(port + 150, {
    DATABASE_URL: url,
    METRICS_TOKEN: TOKEN,
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    SCHEDULER: 'off',
    NOTIFICATIONS_WORKER: 'off',
  })
})

after(() => instance?.kill())

test('off by default: without METRICS_TOKEN the endpoint answers 404 like any unknown path, whatever the token', async () => {
  // an instance with the default settings (the suite passes its METRICS_TOKEN to the instances it starts)
  const off = await startInstance(port + 155, { METRICS_TOKEN: '', SCHEDULER: 'off', NOTIFICATIONS_WORKER: 'off' })
  try {
    for (const path of ['/api/metrics', '/partner/v1/metrics']) {
      assertErrorShape(await request('GET', path, { base: off.base }), 404, 'payin.resource.not.found')
      assertErrorShape(await request('GET', path, { base: off.base, token: TOKEN }), 404, 'payin.resource.not.found')
    }
    // the same answer as a path that does not exist
    assertErrorShape(await request('GET', '/api/no-such-endpoint', { base: off.base }), 404, 'payin.resource.not.found')
  } finally {
    off.kill()
  }
})

test("the suite's server, with METRICS_TOKEN: its token opens them, another does not", async () => {
  const suiteToken = process.env.METRICS_TOKEN
  assert.ok(suiteToken, 'scripts/run-tests.ts passes the server its METRICS_TOKEN')
  const m = await scrape(BASE_URL, suiteToken)
  assert.ok(m.count('payin_http_requests_total', { route: '/api/health', method: 'GET', status: '200' }) >= 1, 'the suite waited for its health')
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
  const refused = await request('GET', `/api/sites/${site.siteId}/payments/${paymentId}%zz`, { base: instance.base, token: site.token })
  assertErrorShape(refused, 400, 'validation.error')
  // an unknown path: `other`, not its path
  const stray = `/no-such-page-${uid()}`
  assert.equal((await request('GET', stray, { base: instance.base })).status, 404)

  const after = await scrape(instance.base, TOKEN)
  const delta = (name: string, labels: Record<string, string>) => after.count(name, labels) - before.count(name, labels)
  assert.equal(delta('payin_http_requests_total', { ...one, method: 'PUT', status: '200' }), 1)
  assert.equal(delta('payin_http_requests_total', { ...one, method: 'GET', status: '200' }), 4, 'three reads and one through the alias')
  assert.equal(delta('payin_http_requests_total', { ...one, method: 'GET', status: '404' }), 1)
  assert.equal(delta('payin_http_requests_total', { ...one, method: 'GET', status: '400' }), 1)
  assert.ok(delta('payin_http_requests_total', { route: 'other', method: 'GET', status: '404' }) >= 1)
  // the histogram counts the same requests
  assert.equal(delta('payin_http_request_duration_seconds_count', { ...one, method: 'GET', status: '200' }), 4)
  assert.ok(delta('payin_http_request_duration_seconds_sum', { ...one, method: 'GET', status: '200' }) > 0)
  assert.equal(delta('payin_http_request_duration_seconds_bucket', { ...one, method: 'GET', status: '200', le: '+Inf' }), 4)

  const text = after.answer.text
  for (const secret of [site.siteId, site.token, paymentId, unknown, stray]) assert.ok(!text.includes(secret), `${secret} is in the metrics`)
  const routes = new Set(after.samples.filter((s) => s.labels.route !== undefined).map((s) => s.labels.route))
  const allowed = new Set<string>([...ROUTE_TEMPLATES, 'other', '/_next/static/*', '/_next/*', '/_pay/*'])
  for (const route of routes) assert.ok(allowed.has(route), `route label ${route} is not a template`)
})

test('payments, captures and refunds by status, as the database holds them at scrape time', async () => {
  const api = client(await newSite('metrics-status'), '/api', instance.base)
  const before = await scrape(instance.base, TOKEN)
  const sale = await api.newPayment(cardPayment())
  const held = await api.newPayment(twoStepPayment())
  await api.newPayment(cardPayment({}, { pan: '4000000000000002' }))
  const waiting = await api.newPayment(cardPayment({}, { pan: '4000000000003220' }))
  assert.equal((await api.paymentNow(waiting)).status.value, 'WAITING')
  assert.equal((await api.put(`/payments/${held}/captures/${uid('cap')}`, { amount: rub('100.00') })).body.status.value, 'COMPLETED')
  assert.equal((await api.put(`/payments/${sale}/refunds/${uid('ref')}`, { amount: rub('10.00') })).body.status.value, 'COMPLETED')

  const after = await scrape(instance.base, TOKEN)
  const delta = (name: string, labels: Record<string, string>) => after.value(name, labels)! - before.value(name, labels)!
  assert.equal(after.value('payin_db_stats_up'), 1)
  assert.ok(after.value('payin_db_stats_duration_seconds')! > 0)
  assert.equal(delta('payin_payments', { status: 'COMPLETED' }), 2)
  assert.equal(delta('payin_payments', { status: 'DECLINED' }), 1)
  assert.equal(delta('payin_payments', { status: 'WAITING' }), 1)
  assert.equal(delta('payin_captures', { status: 'COMPLETED' }), 1)
  assert.equal(delta('payin_captures', { status: 'DECLINED' }), 0)
  assert.equal(delta('payin_refunds', { status: 'COMPLETED' }), 1)
  // the gauges are the database's counts, not this process's
  const [counts] = await sql(`SELECT count(*) FILTER (WHERE status = 'COMPLETED')::int AS completed, count(*) FILTER (WHERE status = 'DECLINED')::int AS declined FROM "Payment"`)
  assert.equal(after.value('payin_payments', { status: 'COMPLETED' }), counts.completed)
  assert.equal(after.value('payin_payments', { status: 'DECLINED' }), counts.declined)
})

test("the outbox's backlog and its oldest pending notification's age; the scheduler's lag", async () => {
  const api = client(await newSite('metrics-outbox'), '/api', instance.base)
  const before = await scrape(instance.base, TOKEN)
  assert.equal(before.value('payin_scheduler_lag_seconds'), 0, 'nothing overdue yet')
  // no worker runs on this database: the notification of this payment waits in the outbox
  const notified = await api.newPayment(cardPayment({ callbackUrl: 'https://shop.example/payin' }))
  const [row] = await sql(`UPDATE "Notification" SET "createdAt" = now() - interval '1 hour' WHERE "resourceId" = $1 RETURNING state`, [notified])
  assert.equal(row.state, 'PENDING')
  // a 3-D Secure challenge left unfinished, whose expiry fell due two minutes ago (no scheduler applies it here)
  const waiting = await api.newPayment(cardPayment({}, { pan: '4000000000003220' }))
  await sql(`UPDATE "Payment" SET "dueAt" = now() - interval '120 seconds' WHERE "paymentId" = $1`, [waiting])

  const after = await scrape(instance.base, TOKEN)
  assert.equal(after.value('payin_notification_outbox_backlog')! - before.value('payin_notification_outbox_backlog')!, 1)
  assert.equal(after.value('payin_notifications', { state: 'PENDING' }), after.value('payin_notification_outbox_backlog'))
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
  assert.equal(done.value('payin_notifications', { state: 'DELIVERED' })! - before.value('payin_notifications', { state: 'DELIVERED' })!, 1)
})

test("the request pool's connections: its size, open, idle, in use, waiting", async () => {
  const api = client(await newSite('metrics-pool'), '/api', instance.base)
  await api.newPayment(cardPayment())
  const m = await scrape(instance.base, TOKEN)
  assert.equal(m.value('payin_db_pool_max_connections'), POOL_SIZE)
  const open = m.value('payin_db_pool_connections')!
  assert.ok(open >= 1 && open <= POOL_SIZE, `open ${open}`)
  assert.equal(m.value('payin_db_pool_idle_connections')! + m.value('payin_db_pool_in_use_connections')!, open)
  assert.equal(m.value('payin_db_pool_waiting_requests'), 0)
})
