// Delivery isolation: a site whose receiver stalls delays only its own notifications. Two instances
// with workers on a database of their own (no other test's worker takes these rows); one site's 24
// callbacks are held by the receiver for as long as the test wants, another site's notification must
// still arrive at once, and the stalled site never has more than NOTIFY_SITE_CONCURRENCY (4) deliveries
// under way across both instances.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import pg from 'pg'
import { applyMigrations } from '../../lib/db/migrations.ts'
import { BASE_URL, cardPayment, client, newSite, uid } from '../support/api.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { receiver } from '../support/notification-receiver.ts'

const rx = receiver()
let hook: string
let instances: Instance[] = []
const port = Number(new URL(BASE_URL).port)

before(async () => {
  const main = process.env.DATABASE_URL!
  const url = main.replace(/\/[^/?]+(\?|$)/, '/payin_isolation$1')
  const admin = new pg.Client({ connectionString: main })
  await admin.connect()
  await admin.query('DROP DATABASE IF EXISTS payin_isolation')
  await admin.query('CREATE DATABASE payin_isolation')
  await admin.end()
  await applyMigrations(url)
  // this file's sites are made on that database too
  process.env.DATABASE_URL = url
  hook = await rx.start()
  const env = {
    DATABASE_URL: url,
    NOTIFICATIONS_WORKER: 'on',
    NOTIFY_ALLOW_NETWORKS: '127.0.0.0/8',
    // longer than the test holds the stalled callbacks: they stay under way
    NOTIFY_TIMEOUT_MS: '60000',
    NOTIFY_POLL_MS: '200',
  }
  instances = await Promise.all([startInstance(port + 60, env), startInstance(port + 70, env)])
})

after(() => {
  rx.release()
  for (const i of instances) i.kill()
  rx.close()
})

test("one site's stalled receiver does not delay another site's notifications", async () => {
  const [a, b] = instances
  const slow = client(await newSite('stalled'), '/api', a.base)
  const fast = client(await newSite('prompt'), '/api', b.base)

  const stalled = Array.from({ length: 24 }, () => uid('pay'))
  for (const id of stalled) await slow.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/stall/${id}` }))
  // the stalled site's deliveries fill its share and hang there
  await rx.waitFor(() => rx.stalledNow === 4)

  const id = uid('pay')
  const started = Date.now()
  const created = await fast.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/fast/${id}` }))
  assert.equal(created.status, 200, created.text)
  await rx.waitFor(() => rx.forPath(`/fast/${id}`).length === 1, 10_000)
  const waited = rx.forPath(`/fast/${id}`)[0].at - started
  // it arrived while every stalled callback was still held, within the 2 s of a first attempt (+1 s margin)
  assert.equal(rx.stalledNow, 4)
  assert.ok(waited < 3000, `the other site's notification took ${waited} ms`)
  // bounded per site across both instances
  assert.equal(rx.stalledMax, 4)

  // once the receiver answers, the stalled site's backlog is delivered, each once
  rx.release()
  await rx.waitFor(() => stalled.every((s) => rx.forPath(`/stall/${s}`).length >= 1), 30_000)
  for (const s of stalled) assert.equal(rx.forPath(`/stall/${s}`).length, 1, s)
  assert.ok(rx.stalledMax <= 4, `at most 4 at once, saw ${rx.stalledMax}`)
})
