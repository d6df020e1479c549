// The sandbox reset against the site's writes running at the same moment, and SANDBOX_CLOCK=off's metrics
// (found in review): a reset while a capture of the site is being written finishes, both answered 200,
// and leaves no capture of a deleted payment; a payment made while a reset runs stays with its
// notification, or both go; with the clock switched off, a site advanced while it was on has nothing
// overdue on real time, and the scheduler's lag says so. The locks are held by the test's own session,
// and each step waits for the sessions it expects to wait for a lock (no sleeps for the ordering).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { BASE_URL, cardPayment, client, newSite, twoStepPayment, uid } from '../support/api.ts'
import { freshDatabase, sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'

const port = Number(new URL(BASE_URL).port)

/** the sessions waiting, directly or behind another waiter, for the locks `holder` holds */
async function lockWaiters(watcher: pg.Client, holder: pg.Client): Promise<number> {
  const { rows } = await watcher.query(
    `WITH RECURSIVE chain(pid) AS (
       SELECT $1::int
       UNION SELECT a.pid FROM pg_stat_activity a JOIN chain c ON c.pid = ANY (pg_blocking_pids(a.pid)))
     SELECT count(*)::int - 1 AS n FROM chain`,
    [(holder as unknown as { processID: number }).processID],
  )
  return rows[0].n
}

/** polls until at least `n` sessions wait for the holder's locks (deadline 10 s) */
async function untilWaiting(watcher: pg.Client, holder: pg.Client, n: number): Promise<void> {
  const deadline = Date.now() + 10_000
  while ((await lockWaiters(watcher, holder)) < n) {
    if (Date.now() > deadline) throw new Error(`fewer than ${n} sessions wait for the test's lock`)
    await sleep(20)
  }
}

describe('the sandbox reset and concurrent writes of the site', () => {
  let holder: pg.Client
  let watcher: pg.Client
  before(async () => {
    holder = new pg.Client({ connectionString: process.env.DATABASE_URL })
    watcher = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await holder.connect()
    await watcher.connect()
  })
  after(async () => {
    await holder?.end()
    await watcher?.end()
  })

  test('a reset while a capture of the site is being written finishes (no 500), leaving no capture of a deleted payment', async () => {
    const site = await newSite('reset-race-cap')
    const api = client(site)
    const paymentId = uid('held')
    assert.equal((await api.put(`/payments/${paymentId}`, twoStepPayment())).body.status.value, 'COMPLETED')
    // the capture's transaction holds the payment's row for a while (here: as long as this session does)
    await holder.query('BEGIN')
    await holder.query(`SELECT id FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2 FOR UPDATE`, [site.siteId, paymentId])
    const capture = api.put(`/payments/${paymentId}/captures/${uid('cap')}`, {})
    await untilWaiting(watcher, holder, 1)
    const reset = api.post('/sandbox/reset', { confirm: site.siteId })
    await untilWaiting(watcher, holder, 2)
    await holder.query('COMMIT')
    const [c, r] = await Promise.all([capture, reset])
    assert.equal(c.status, 200, c.text)
    assert.equal(r.status, 200, r.text)
    const [left] = await sql(
      `SELECT (SELECT count(*) FROM "Capture" c WHERE c."siteId" = $1 AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p.id = c."paymentRef"))::int AS orphans`,
      [site.siteId],
    )
    assert.equal(left.orphans, 0)
  })

  test('a payment made while a reset runs: either it and its notification stay, or both go', async () => {
    const site = await newSite('reset-race-pay')
    const api = client(site)
    await sql(`UPDATE "Site" SET "notifyUrl" = 'http://127.0.0.1:9/hook' WHERE id = $1`, [site.siteId])
    const held = uid('held')
    assert.equal((await api.put(`/payments/${held}`, twoStepPayment())).body.status.value, 'COMPLETED')
    assert.equal((await api.put(`/payments/${held}/captures/${uid('cap')}`, {})).status, 200)
    // the reset waits at its captures (this session holds one) after it has deleted the notifications
    await holder.query('BEGIN')
    await holder.query(`SELECT id FROM "Capture" WHERE "siteId" = $1 FOR UPDATE`, [site.siteId])
    const reset = api.post('/sandbox/reset', { confirm: site.siteId })
    await untilWaiting(watcher, holder, 1)
    const during = uid('during')
    const made = await api.put(`/payments/${during}`, cardPayment())
    assert.equal(made.body.status.value, 'COMPLETED', made.text)
    await holder.query('COMMIT')
    assert.equal((await reset).status, 200)
    const rows = await sql(
      `SELECT n."resourceId", EXISTS (SELECT 1 FROM "Payment" p WHERE p.id = n."resourceRef") AS "paymentExists"
       FROM "Notification" n WHERE n."siteId" = $1 AND n.type = 'PAYMENT'`,
      [site.siteId],
    )
    for (const row of rows) assert.ok(row.paymentExists, `a notification of payment ${row.resourceId}, which the reset deleted, is still queued`)
  })
})

describe('SANDBOX_CLOCK=off and the metrics', () => {
  const DATABASE = 'payin_clock_off_metrics'
  const TOKEN = 'clock-off-metrics-token-0123456789'
  let off: Instance
  let suiteUrl: string | undefined
  before(async () => {
    suiteUrl = process.env.DATABASE_URL
    const url = await freshDatabase(DATABASE)
    process.env.DATABASE_URL = url
    off = await startInstance(port + 230, { DATABASE_URL: url, SANDBOX_CLOCK: 'off', METRICS_TOKEN: TOKEN, SCHEDULER: 'off', NOTIFICATIONS_WORKER: 'off' })
  })
  after(() => {
    off?.kill()
    process.env.DATABASE_URL = suiteUrl
  })

  test("a site advanced three days while on: with the clock off nothing is overdue, and the scheduler's lag says so", async () => {
    const site = await newSite('off-metrics')
    // the offset it was given while the clock was on
    await sql(`UPDATE "Site" SET "clockOffsetMs" = $2 WHERE id = $1`, [site.siteId, 3 * 86_400_000])
    const api = client(site, '/api', off.base)
    // a 3-D Secure challenge on real time: due in 15 minutes
    const r = await api.put(`/payments/${uid('p')}`, cardPayment({}, { pan: '4000000000003220' }))
    assert.equal(r.body.status.value, 'WAITING', r.text)
    const metrics = await (await fetch(`${off.base}/api/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text()
    const lag = Number(/^payin_scheduler_lag_seconds (\S+)$/m.exec(metrics)?.[1])
    assert.equal(lag, 0, `payin_scheduler_lag_seconds ${lag} with nothing overdue on real time`)
  })
})
