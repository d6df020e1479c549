// Every kind of write of a site's data passes the site's gate (lib/sandbox/site-write.ts, issue 27): with
// the gate held exclusively by the test's own session (as a sandbox reset or a clock advance holds it),
// a one-step card payment (the one-statement path), a payment on a bill, a capture, a refund, a
// completion, a bill, a due change applied by a read, a notification re-send, a clock advance and a
// delivery worker's record of an attempt each wait for it (seen in pg_locks, never by a sleep), and answer
// once it is let go. A write that bypassed the gate would answer while it is held, and fail here.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { BASE_URL, billRequest, cardPayment, client, newSite, rub, twoStepPayment, uid } from '../support/api.ts'
import { freshDatabase, lockSessions, sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { receiver } from '../support/notification-receiver.ts'
import { notifyTo, WORKER_ENV } from '../support/notify-site.ts'

const port = Number(new URL(BASE_URL).port)

/** the first int4 of a site's gate key (lib/sandbox/site-write.ts SITE_GATE: "site" in ASCII) */
const SITE_GATE = 0x73697465

/** the sessions waiting for the site's gate (a two-int4 advisory key: objsubid 2, the second int4 in objid) */
async function gateWaiters(watcher: pg.Client, siteId: string): Promise<number> {
  const { rows } = await watcher.query(
    `SELECT count(*)::int AS n FROM pg_locks
     WHERE locktype = 'advisory' AND NOT granted AND objsubid = 2
       AND classid = $1::int8::oid AND objid = ((hashtext($2)::int8 + 4294967296) % 4294967296)::oid
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [SITE_GATE, siteId],
  )
  return rows[0].n
}

/** polls until `n` sessions wait for the site's gate (deadline 10 s); fails earlier should a write answer */
async function untilGateWaiters(watcher: pg.Client, siteId: string, n: number, answered: () => string[]) {
  const deadline = Date.now() + 10_000
  for (;;) {
    const waiting = await gateWaiters(watcher, siteId)
    const done = answered()
    assert.deepEqual(done, [], `answered while the site's gate was held (they passed it by): ${done.join(', ')}`)
    if (waiting >= n) return
    if (Date.now() > deadline) throw new Error(`${waiting} of ${n} writes wait for the site's gate`)
    await sleep(20)
  }
}

/** takes the site's gate exclusively on `holder`, in a transaction the caller ends */
async function holdGate(holder: pg.Client, siteId: string): Promise<void> {
  await holder.query('BEGIN')
  await holder.query('SELECT pg_advisory_xact_lock($1::int4, hashtext($2))::text', [SITE_GATE, siteId])
}

/** runs each request, noting which have answered */
function track(requests: Record<string, Promise<{ status: number; text: string; body: any }>>) {
  const answered = new Set<string>()
  for (const [name, p] of Object.entries(requests)) p.then(() => answered.add(name)).catch(() => answered.add(name))
  return { answered: () => [...answered], all: requests }
}

describe('writes of a site wait for its gate, held as a reset holds it', () => {
  const sessions = lockSessions()

  test('payments (one statement or a transaction), capture, refund, completion, bill, due change, resend', async () => {
    const site = await newSite('gate')
    const api = client(site)
    // notifications need a URL (nothing listens there; the suite's server runs no delivery worker)
    await sql(`UPDATE "Site" SET "notifyUrl" = 'http://127.0.0.1:9/hook' WHERE id = $1`, [site.siteId])
    const held = await api.newPayment(twoStepPayment())
    const paid = await api.newPayment(cardPayment())
    const otp = uid('otp')
    assert.equal((await api.put(`/payments/${otp}`, cardPayment({}, { pan: '4000000000001000' }))).status, 200)
    const due = uid('3ds')
    const challenged = await api.put(`/payments/${due}`, cardPayment({}, { pan: '4000000000003220' }))
    assert.equal(challenged.body.status.value, 'WAITING', challenged.text)
    const billId = uid('bill')
    assert.equal((await api.put(`/bills/${billId}`, billRequest())).status, 200)
    const [notification] = await sql(`SELECT id FROM "Notification" WHERE "siteId" = $1 AND "resourceId" = $2`, [
      site.siteId,
      paid,
    ])
    assert.ok(notification, 'the paid payment has its notification')

    await holdGate(sessions.holder, site.siteId)
    let released = false
    try {
      // the 3-D Secure challenge's expiry falls due (the scheduler passes over a site whose gate is held)
      await sql(`UPDATE "Payment" SET "dueAt" = now() - interval '1 second' WHERE "siteId" = $1 AND "paymentId" = $2`, [
        site.siteId,
        due,
      ])
      const writes = track({
        'card payment (one statement)': api.put(`/payments/${uid('one')}`, cardPayment()),
        'payment on a bill': api.put(`/payments/${uid('onbill')}`, cardPayment({ billId, amount: rub('3.00') })),
        capture: api.put(`/payments/${held}/captures/${uid('cap')}`, {}),
        refund: api.put(`/payments/${paid}/refunds/${uid('ref')}`, { amount: rub('1.00') }),
        completion: api.post(`/payments/${otp}/complete`, { otp: { code: '1234' } }),
        bill: api.put(`/bills/${uid('bill')}`, billRequest()),
        'due change (a read)': api.get(`/payments/${due}`),
        resend: api.post(`/notifications/${notification.id}/resend`),
      })
      await untilGateWaiters(sessions.watcher, site.siteId, Object.keys(writes.all).length, writes.answered)
      await sessions.holder.query('COMMIT')
      released = true
      const answers = Object.fromEntries(
        await Promise.all(Object.entries(writes.all).map(async ([name, p]) => [name, await p] as const)),
      )
      for (const [name, a] of Object.entries(answers)) assert.equal(a.status, 200, `${name}: ${a.text}`)
      assert.equal(answers['card payment (one statement)'].body.status.value, 'COMPLETED')
      assert.equal(answers['payment on a bill'].body.status.value, 'COMPLETED')
      assert.equal(answers.capture.body.status.value, 'COMPLETED')
      assert.equal(answers.refund.body.status.value, 'COMPLETED')
      assert.equal(answers.completion.body.status.value, 'COMPLETED')
      assert.equal(answers['due change (a read)'].body.status.value, 'DECLINED')
      assert.equal(answers.resend.body.state, 'PENDING')
    } finally {
      if (!released) await sessions.holder.query('ROLLBACK')
    }
  })
})

describe("a clock advance waits for the site's gate, and gives up on a write that never ends", () => {
  const sessions = lockSessions()

  test('held by a reset: the advance waits, then moves the clock', async () => {
    const api = client(await newSite('gate-advance'))
    await holdGate(sessions.holder, api.site.siteId)
    let released = false
    try {
      const advance = track({ 'clock advance': api.post('/sandbox/clock/advance', { seconds: 60 }) })
      await untilGateWaiters(sessions.watcher, api.site.siteId, 1, advance.answered)
      await sessions.holder.query('COMMIT')
      released = true
      const answer = await advance.all['clock advance']
      assert.equal(answer.status, 200, answer.text)
      assert.equal(answer.body.offsetSeconds, 60)
    } finally {
      if (!released) await sessions.holder.query('ROLLBACK')
    }
  })

  test('held by a write left open: 503, and the clock has not moved', async () => {
    const api = client(await newSite('gate-stuck'))
    // a write of the site that does not end: its transaction holds the gate shared
    await sessions.holder.query('BEGIN')
    await sessions.holder.query('SELECT pg_advisory_xact_lock_shared($1::int4, hashtext($2))::text', [
      SITE_GATE,
      api.site.siteId,
    ])
    try {
      const answer = await api.post('/sandbox/clock/advance', { seconds: 60 })
      assert.equal(answer.status, 503, answer.text)
      assert.equal(answer.body.errorCode, 'service.unavailable')
    } finally {
      await sessions.holder.query('ROLLBACK')
    }
    const clock = await api.get('/sandbox/clock')
    assert.equal(clock.body.offsetSeconds, 0)
  })
})

describe("a delivery's record of its attempt waits for the site's gate", () => {
  const rx = receiver()
  let worker: Instance
  let suiteUrl: string | undefined
  let holder: pg.Client
  let watcher: pg.Client
  before(async () => {
    const hook = await rx.start()
    // a database of its own: this worker must take no other test's notifications
    suiteUrl = process.env.DATABASE_URL
    process.env.DATABASE_URL = await freshDatabase('payin_site_write_gate')
    worker = await startInstance(port + 250, { ...WORKER_ENV, DATABASE_URL: process.env.DATABASE_URL })
    holder = new pg.Client({ connectionString: process.env.DATABASE_URL })
    watcher = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await holder.connect()
    await watcher.connect()
    hookBase = hook
  })
  let hookBase = ''
  after(async () => {
    await holder?.end()
    await watcher?.end()
    worker?.kill()
    await worker?.exited
    process.env.DATABASE_URL = suiteUrl
    rx.close()
  })

  test('posted while the gate is free, recorded once it is let go', async () => {
    const site = await newSite('gate-delivery')
    // the receiver holds the post until released
    const path = `/stall-${site.siteId}`
    await notifyTo(site.siteId, `${hookBase}${path}`)
    const api = client(site, '/api', worker.base)
    const paymentId = uid('p')
    assert.equal((await api.put(`/payments/${paymentId}`, cardPayment())).body.status.value, 'COMPLETED')
    await rx.waitFor(() => rx.forPath(path).length === 1)
    await holdGate(holder, site.siteId)
    let released = false
    try {
      rx.release()
      // the worker has its 200 and waits to record it
      await untilGateWaiters(watcher, site.siteId, 1, () => [])
      const [before] = await sql(`SELECT state, attempts FROM "Notification" WHERE "siteId" = $1`, [site.siteId])
      assert.deepEqual(before, { state: 'PENDING', attempts: 0 }, 'recorded while the gate was held')
      await holder.query('COMMIT')
      released = true
    } finally {
      if (!released) await holder.query('ROLLBACK')
    }
    const deadline = Date.now() + 10_000
    for (;;) {
      const [n] = await sql(`SELECT state, attempts FROM "Notification" WHERE "siteId" = $1`, [site.siteId])
      if (n.state === 'DELIVERED') break
      if (Date.now() > deadline) throw new Error(`the notification is still ${n.state} after the gate was let go`)
      await sleep(20)
    }
  })
})
