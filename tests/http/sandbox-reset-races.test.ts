// The sandbox reset against the site's writes running at the same moment, and SANDBOX_CLOCK=off's metrics
// (found in reviews): a reset while a capture of the site is being written finishes, both answered 200,
// and leaves no capture of a deleted payment; a reset among dozens of captures and refunds answers 200
// and leaves nothing of what it deleted; writes that start while a reset runs wait for it, then run on the
// clock it left (a payment and a bill dated on real time, a capture of a deleted payment 404, a payment
// kept with its notification); with the clock switched off, a site advanced while it was on has nothing
// overdue on real time, and the scheduler's lag says so. The locks are held by the test's own session,
// and each step waits for the sessions it expects to wait for a lock (no sleeps for the ordering).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { assertErrorShape, BASE_URL, cardPayment, client, newSite, rub, twoStepPayment, uid } from '../support/api.ts'
import { freshDatabase, lockSessions, sql, untilWaiting } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'

const port = Number(new URL(BASE_URL).port)

// the test's own sessions: one holds the locks a step is made to wait for, the other watches who waits
const sessions = lockSessions()

describe('the sandbox reset and concurrent writes of the site', () => {
  test('a reset while a capture of the site is being written finishes (no 500), leaving no capture of a deleted payment', async () => {
    const site = await newSite('reset-race-cap')
    const api = client(site)
    const paymentId = uid('held')
    assert.equal((await api.put(`/payments/${paymentId}`, twoStepPayment())).body.status.value, 'COMPLETED')
    // the capture's transaction holds the payment's row for a while (here: as long as this session does)
    await sessions.holder.query('BEGIN')
    await sessions.holder.query(`SELECT id FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2 FOR UPDATE`, [
      site.siteId,
      paymentId,
    ])
    const capture = api.put(`/payments/${paymentId}/captures/${uid('cap')}`, {})
    await untilWaiting(sessions.watcher, sessions.holder, 1)
    const reset = api.post('/sandbox/reset', { confirm: site.siteId })
    await untilWaiting(sessions.watcher, sessions.holder, 2)
    await sessions.holder.query('COMMIT')
    const [c, r] = await Promise.all([capture, reset])
    assert.equal(c.status, 200, c.text)
    assert.equal(r.status, 200, r.text)
    const [left] = await sql(
      `SELECT (SELECT count(*) FROM "Capture" c WHERE c."siteId" = $1 AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p.id = c."paymentRef"))::int AS orphans`,
      [site.siteId],
    )
    assert.equal(left.orphans, 0)
  })

  test('a payment made while a reset runs waits for it, then stays with its notification', async () => {
    const site = await newSite('reset-race-pay')
    const api = client(site)
    await sql(`UPDATE "Site" SET "notifyUrl" = 'http://127.0.0.1:9/hook' WHERE id = $1`, [site.siteId])
    const held = uid('held')
    assert.equal((await api.put(`/payments/${held}`, twoStepPayment())).body.status.value, 'COMPLETED')
    assert.equal((await api.put(`/payments/${held}/captures/${uid('cap')}`, {})).status, 200)
    // the reset waits at its captures (this session holds one) after it has deleted the notifications
    await sessions.holder.query('BEGIN')
    await sessions.holder.query(`SELECT id FROM "Capture" WHERE "siteId" = $1 FOR UPDATE`, [site.siteId])
    const reset = api.post('/sandbox/reset', { confirm: site.siteId })
    await untilWaiting(sessions.watcher, sessions.holder, 1)
    // a payment made now waits for the reset (the gate of a write of the site: lib/sandbox/site-write.ts)
    const during = uid('during')
    const making = api.put(`/payments/${during}`, cardPayment())
    const waiting = untilWaiting(sessions.watcher, sessions.holder, 2)
    waiting.catch(() => {}) // answered by `making` when the payment did not wait
    await Promise.race([making, waiting])
    await sessions.holder.query('COMMIT')
    assert.equal((await reset).status, 200)
    const made = await making
    assert.equal(made.body.status.value, 'COMPLETED', made.text)
    const rows = await sql(
      `SELECT n."resourceId", EXISTS (SELECT 1 FROM "Payment" p WHERE p.id = n."resourceRef") AS "paymentExists"
       FROM "Notification" n WHERE n."siteId" = $1 AND n.type = 'PAYMENT'`,
      [site.siteId],
    )
    for (const row of rows)
      assert.ok(
        row.paymentExists,
        `a notification of payment ${row.resourceId}, which the reset deleted, is still queued`,
      )
    assert.deepEqual(
      rows.map((row) => row.resourceId),
      [during],
      'the payment made after the reset keeps its notification',
    )
  })
})

describe("the sandbox reset amid the site's traffic", () => {
  test('a reset among dozens of captures and refunds of the site answers 200 each time, and leaves nothing of a payment it deleted', async () => {
    const site = await newSite('reset-stream')
    const api = client(site)
    for (let round = 0; round < 4; round++) {
      // held payments to capture and paid ones to refund, then all of it at once with a reset among it
      const held = await Promise.all(Array.from({ length: 20 }, () => api.newPayment(twoStepPayment())))
      const paid = await Promise.all(Array.from({ length: 20 }, () => api.newPayment(cardPayment())))
      const refund = (id: string) => api.put(`/payments/${id}/refunds/${uid('ref')}`, { amount: rub('30.00') })
      const writes = [...held.map((id) => api.put(`/payments/${id}/captures/${uid('cap')}`, {})), ...paid.map(refund)]
      const reset = api.post('/sandbox/reset', { confirm: site.siteId })
      writes.push(...paid.map(refund), ...paid.map(refund))
      const r = await reset
      assert.equal(r.status, 200, `round ${round}: ${r.text}`)
      // each write was made before the reset (200) or found its payment gone (404), never a 5xx
      for (const w of await Promise.all(writes))
        assert.ok(w.status === 200 || w.status === 404, `round ${round}: ${w.status} ${w.text}`)
    }
    const [left] = await sql(
      `SELECT (SELECT count(*) FROM "Capture" c WHERE c."siteId" = $1 AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p.id = c."paymentRef"))::int AS captures,
              (SELECT count(*) FROM "Refund" f WHERE f."siteId" = $1 AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p.id = f."paymentRef"))::int AS refunds,
              (SELECT count(*) FROM "Notification" n WHERE n."siteId" = $1 AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p.id = n."resourceRef")
                 AND NOT EXISTS (SELECT 1 FROM "Capture" c WHERE c.id = n."resourceRef") AND NOT EXISTS (SELECT 1 FROM "Refund" f WHERE f.id = n."resourceRef"))::int AS notifications,
              (SELECT count(*) FROM "Payment" p WHERE p."siteId" = $1
                 AND p."refundedMinor" <> (SELECT coalesce(sum(f."amountMinor"), 0) FROM "Refund" f WHERE f."paymentRef" = p.id AND f.status = 'COMPLETED'))::int AS "wrongTotals"`,
      [site.siteId],
    )
    assert.deepEqual(left, { captures: 0, refunds: 0, notifications: 0, wrongTotals: 0 })
  })
})

describe('writes that start while a reset runs', () => {
  test('wait for it, then run on the clock it left: a payment and a bill dated on real time, a capture of a deleted payment 404', async () => {
    const site = await newSite('reset-during')
    const api = client(site)
    await sql(`UPDATE "Site" SET "notifyUrl" = 'http://127.0.0.1:9/hook' WHERE id = $1`, [site.siteId])
    const held = await api.newPayment(twoStepPayment())
    assert.equal((await api.post('/sandbox/clock/advance', { seconds: 30 * 86400 })).status, 200)
    // the reset takes the site's gate, then waits at the site's bills (this session holds one)
    await sessions.holder.query('BEGIN')
    await sessions.holder.query(`SELECT id FROM "Bill" WHERE "siteId" = $1 FOR UPDATE`, [site.siteId])
    const reset = api.post('/sandbox/reset', { confirm: site.siteId })
    await untilWaiting(sessions.watcher, sessions.holder, 1)
    // writes of the site made now: a 3-D Secure payment (due in 15 minutes of the site's time), a bill, a capture
    const payId = uid('during')
    const billId = uid('bill')
    const paidId = uid('paid')
    const payment = api.put(`/payments/${payId}`, cardPayment({}, { pan: '4000000000003220' }))
    const bill = api.put(`/bills/${billId}`, {
      amount: rub('10.00'),
      expirationDateTime: new Date(Date.now() + 40 * 86400_000).toISOString(),
    })
    const capture = api.put(`/payments/${held}/captures/${uid('cap')}`, {})
    const paid = api.put(`/payments/${paidId}`, cardPayment())
    // each waits behind the reset (or, past the gate, has answered already on the old clock)
    const settled = Promise.all([payment, bill, capture, paid])
    const waiting = untilWaiting(sessions.watcher, sessions.holder, 5)
    waiting.catch(() => {}) // answered by `settled` when the writes did not wait
    await Promise.race([settled, waiting])
    await sessions.holder.query('COMMIT')
    assert.equal((await reset).status, 200)
    const [p, b, c, done] = await settled
    assert.equal(p.status, 200, p.text)
    assert.equal(p.body.status.value, 'WAITING', p.text)
    const realNow = Date.now()
    assert.ok(
      Math.abs(Date.parse(p.body.createdDateTime) - realNow) < 60_000,
      `the payment is dated ${p.body.createdDateTime}, on the clock the reset took away`,
    )
    const [row] = await sql(`SELECT "dueAt" FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2`, [
      site.siteId,
      payId,
    ])
    assert.ok(row.dueAt.getTime() - realNow < 16 * 60_000, `its 3-D Secure deadline is ${row.dueAt.toISOString()}`)
    assert.equal(b.status, 200, b.text)
    assert.ok(
      Math.abs(Date.parse(b.body.creationDateTime) - realNow) < 60_000,
      `the bill is dated on the old clock: ${b.text}`,
    )
    assertErrorShape(c, 404, 'payin.resource.not.found')
    // the completed payment's notification too: dated, and due, on real time (not a month ahead)
    assert.equal(done.body.status?.value, 'COMPLETED', done.text)
    const [n] = await sql(
      `SELECT "createdAt", "nextAttemptAt" FROM "Notification" WHERE "siteId" = $1 AND "resourceId" = $2`,
      [site.siteId, paidId],
    )
    assert.ok(n, 'the completed payment has its notification')
    assert.ok(
      Math.abs(n.nextAttemptAt.getTime() - realNow) < 60_000,
      `its notification is due ${n.nextAttemptAt.toISOString()}`,
    )
    assert.ok(
      Math.abs(n.createdAt.getTime() - realNow) < 60_000,
      `its notification is dated ${n.createdAt.toISOString()}`,
    )
    // and both are there, on a site back on real time
    assert.equal((await api.get('/sandbox/clock')).body.offsetSeconds, 0)
    assert.equal((await api.get(`/payments/${payId}`)).status, 200)
    assert.equal((await api.get(`/bills/${billId}`)).status, 200)
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
    off = await startInstance(port + 230, {
      DATABASE_URL: url,
      SANDBOX_CLOCK: 'off',
      METRICS_TOKEN: TOKEN,
      SCHEDULER: 'off',
      NOTIFICATIONS_WORKER: 'off',
    })
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
    const metrics = await (
      await fetch(`${off.base}/api/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    ).text()
    const lag = Number(/^payin_scheduler_lag_seconds (\S+)$/m.exec(metrics)?.[1])
    assert.equal(lag, 0, `payin_scheduler_lag_seconds ${lag} with nothing overdue on real time`)
  })
})
