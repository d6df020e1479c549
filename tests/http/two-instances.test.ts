// Two instances with notification workers and schedulers on a database of their own (so no other test's
// worker or scheduler takes these rows): a stalled receiver delays only its own site, and each
// time-driven change is applied once. First, with nothing running on that database yet, the payment
// service in this process shows that a bill is judged after its payments' due changes are applied.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import pg from 'pg'
import { applyMigrations } from '../../lib/db/migrations.ts'
import { BASE_URL, billRequest, cardPayment, client, newSite, rub, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { receiver } from '../support/notification-receiver.ts'

const rx = receiver()
let hook: string
let instances: Instance[] = []
const port = Number(new URL(BASE_URL).port)

before(async () => {
  const main = process.env.DATABASE_URL!
  const url = main.replace(/\/[^/?]+(\?|$)/, '/payin_two_instances$1')
  const admin = new pg.Client({ connectionString: main })
  await admin.connect()
  await admin.query('DROP DATABASE IF EXISTS payin_two_instances')
  await admin.query('CREATE DATABASE payin_two_instances')
  await admin.end()
  await applyMigrations(url)
  // this file's sites, statements and in-process services use that database
  process.env.DATABASE_URL = url
  // every write of a payment's status, to count how often each change is applied
  await sql(`CREATE TABLE test_status_writes (payment_ref uuid, old_status text, new_status text)`)
  await sql(`CREATE FUNCTION test_log_status() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO test_status_writes VALUES (NEW.id, OLD.status, NEW.status); RETURN NEW; END $$`)
  await sql(
    `CREATE TRIGGER test_status_writes AFTER UPDATE OF status ON "Payment" FOR EACH ROW EXECUTE FUNCTION test_log_status()`,
  )
  hook = await rx.start()
})

after(() => {
  rx.release()
  for (const i of instances) i.kill()
  rx.close()
})

/** the two instances, started once the in-process test is done */
async function twoInstances(): Promise<Instance[]> {
  if (instances.length) return instances
  const env = {
    DATABASE_URL: process.env.DATABASE_URL!,
    NOTIFICATIONS_WORKER: 'on',
    NOTIFY_ALLOW_NETWORKS: '127.0.0.0/8',
    // longer than the test holds the stalled callbacks: they stay under way
    NOTIFY_TIMEOUT_MS: '60000',
    NOTIFY_POLL_MS: '200',
    SCHEDULER_POLL_MS: '50',
    MOBILE_OPERATOR_DELAY_MS: '500',
  }
  instances = await Promise.all([startInstance(port + 60, env), startInstance(port + 70, env)])
  return instances
}

test('a bill is judged after the due changes of its payments, whether or not the scheduler has run', async () => {
  const { createPayment, readPayment } = await import('../../lib/payments/payment-service.ts')
  const { createBill } = await import('../../lib/billing/bill-service.ts')
  const { paymentRequestSchema } = await import('../../lib/payments/payment-request.ts')
  const { billRequestSchema } = await import('../../lib/bills/bill-request.ts')
  const { closeDb } = await import('../../lib/db/client.ts')
  const { REAL_TIME } = await import('../../lib/sandbox/site-clock.ts')
  // a site of its own (every write of a site passes its gate: lib/sandbox/site-write.ts)
  const { siteId } = await newSite('judged')
  const mobile = (billId: string) =>
    paymentRequestSchema.parse({ paymentMethod: { type: 'MOBILE', phone: '79001230000' }, amount: rub('3.00'), billId })
  try {
    // the operator's yes fell due before a card payment on the same bill: the operator's payment wins
    const first = uid('bill')
    await createBill(siteId, first, billRequestSchema.parse(billRequest()))
    const waiting = uid('mob')
    assert.equal((await createPayment(siteId, waiting, mobile(first))).status.value, 'WAITING')
    await sql(`UPDATE "Payment" SET "dueAt" = now() - interval '1 second' WHERE "siteId" = $1 AND "paymentId" = $2`, [
      siteId,
      waiting,
    ])
    const card = await createPayment(
      siteId,
      uid('card'),
      paymentRequestSchema.parse(cardPayment({ billId: first, amount: rub('3.00') })),
    )
    assert.equal(card.status.value, 'DECLINED')
    assert.equal(card.status.reason, 'BILL_ALREADY_PAID')
    assert.equal((await readPayment(siteId, waiting, REAL_TIME)).status.value, 'COMPLETED')

    // a bill whose deadline passed after such a payment fell due: paid, not EXPIRED, also in a replay
    const second = uid('bill')
    const request = billRequestSchema.parse(billRequest())
    await createBill(siteId, second, request)
    const due = uid('mob')
    await createPayment(siteId, due, mobile(second))
    await sql(`UPDATE "Payment" SET "dueAt" = now() - interval '2 seconds' WHERE "siteId" = $1 AND "paymentId" = $2`, [
      siteId,
      due,
    ])
    await sql(`UPDATE "Bill" SET "expiresAt" = now() - interval '1 second' WHERE "siteId" = $1 AND "billId" = $2`, [
      siteId,
      second,
    ])
    assert.equal((await createBill(siteId, second, request)).status.value, 'PAID')
    assert.equal((await readPayment(siteId, due, REAL_TIME)).status.value, 'COMPLETED')

    // two operator answers on one bill: reading the later one first does not let it overtake the earlier
    const third = uid('bill')
    await createBill(siteId, third, billRequestSchema.parse(billRequest()))
    const [earlier, later] = [uid('mob'), uid('mob')]
    for (const id of [earlier, later]) await createPayment(siteId, id, mobile(third))
    await sql(`UPDATE "Payment" SET "dueAt" = now() - interval '2 seconds' WHERE "siteId" = $1 AND "paymentId" = $2`, [
      siteId,
      earlier,
    ])
    await sql(`UPDATE "Payment" SET "dueAt" = now() - interval '1 second' WHERE "siteId" = $1 AND "paymentId" = $2`, [
      siteId,
      later,
    ])
    const read = await readPayment(siteId, later, REAL_TIME)
    assert.equal(read.status.value, 'DECLINED')
    assert.equal(read.status.reason, 'BILL_ALREADY_PAID')
    assert.equal((await readPayment(siteId, earlier, REAL_TIME)).status.value, 'COMPLETED')
  } finally {
    await closeDb()
  }
})

test('a payment change that cannot be applied does not hold up the others', async () => {
  const { createPayment, readPayment } = await import('../../lib/payments/payment-service.ts')
  const { paymentRequestSchema } = await import('../../lib/payments/payment-request.ts')
  const { settleDuePayments } = await import('../../lib/scheduler/time-driven-changes.ts')
  const { closeDb } = await import('../../lib/db/client.ts')
  const { REAL_TIME } = await import('../../lib/sandbox/site-clock.ts')
  const { siteId } = await newSite('poison')
  const mobile = paymentRequestSchema.parse({
    paymentMethod: { type: 'MOBILE', phone: '79001230000' },
    amount: rub('5.00'),
  })
  const poisoned = `poison-${uid()}`
  // this one's status cannot be written: its change fails every time
  await sql(
    `CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
  )
  await sql(
    `CREATE TRIGGER test_refuse BEFORE UPDATE OF status ON "Payment" FOR EACH ROW WHEN (OLD."paymentId" LIKE 'poison-%') EXECUTE FUNCTION test_refuse()`,
  )
  try {
    const ids = [poisoned, uid('mob'), uid('mob')]
    for (const id of ids) await createPayment(siteId, id, mobile)
    // the poisoned one falls due first
    await sql(`UPDATE "Payment" SET "dueAt" = now() - interval '2 seconds' WHERE "siteId" = $1 AND "paymentId" = $2`, [
      siteId,
      poisoned,
    ])
    await sql(`UPDATE "Payment" SET "dueAt" = now() - interval '1 second' WHERE "siteId" = $1 AND "paymentId" <> $2`, [
      siteId,
      poisoned,
    ])
    assert.ok((await settleDuePayments()) >= 2)
    assert.equal((await readPayment(siteId, ids[1], REAL_TIME)).status.value, 'COMPLETED')
    assert.equal((await readPayment(siteId, ids[2], REAL_TIME)).status.value, 'COMPLETED')
    const [row] = await sql(`SELECT status FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2`, [siteId, poisoned])
    assert.equal(row.status, 'WAITING')
  } finally {
    await sql(`DROP TRIGGER test_refuse ON "Payment"`)
    // out of the way of the instances' schedulers
    await sql(`UPDATE "Payment" SET "dueAt" = NULL WHERE "paymentId" = $1`, [poisoned])
    await closeDb()
  }
})

test("one site's stalled receiver does not delay another site's notifications", async () => {
  const [a, b] = await twoInstances()
  const slow = client(await newSite('stalled'), '/api', a.base)
  const fast = client(await newSite('prompt'), '/api', b.base)
  // both instances have served an API request (routes loaded) before anything is timed
  assert.equal((await fast.get(`/payments/${uid('none')}`)).status, 404)

  const stalled = Array.from({ length: 24 }, () => uid('pay'))
  for (const id of stalled) await slow.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/stall/${id}` }))
  // the stalled site's deliveries fill its share and hang there
  await rx.waitFor(() => rx.stalledNow === 4)

  const id = uid('pay')
  const created = await fast.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/fast/${id}` }))
  assert.equal(created.status, 200, created.text)
  await rx.waitFor(() => rx.forPath(`/fast/${id}`).length === 1, 10_000)
  // it arrived while every stalled callback was still held: not queued behind them (how soon is the bench's to say)
  assert.equal(rx.stalledNow, 4)

  // a re-send of a delivery under way is refused: it would only add a second POST of it
  const heldIds = rx.got.filter((g) => g.path.startsWith('/stall/')).map((g) => g.path.slice('/stall/'.length))
  assert.equal(heldIds.length, 4)
  const outbox = (await slow.get('/notifications')).body as any[]
  for (const heldId of heldIds) {
    const n = outbox.find((x) => x.resourceId === heldId)
    const r = await slow.post(`/notifications/${n.notificationId}/resend`)
    assert.equal(r.status, 409, r.text)
    assert.equal(r.body.errorCode, 'payin.incorrect-method-invocation')
  }
  // bounded per site across both instances, re-sends or not
  assert.equal(rx.stalledNow, 4)
  assert.equal(rx.stalledMax, 4)

  // once the receiver answers, the stalled site's backlog is delivered, each once
  rx.release()
  await rx.waitFor(() => stalled.every((s) => rx.forPath(`/stall/${s}`).length >= 1), 30_000)
  for (const s of stalled) assert.equal(rx.forPath(`/stall/${s}`).length, 1, s)
  assert.ok(rx.stalledMax <= 4, `at most 4 at once, saw ${rx.stalledMax}`)
})

test('each time-driven change is applied once, with two schedulers competing', async () => {
  const [a, b] = await twoInstances()
  const site = await newSite('twins')
  const ids = Array.from({ length: 16 }, () => uid('twin'))
  await Promise.all(
    ids.map((id, i) =>
      client(site, '/api', i % 2 ? a.base : b.base).put(`/payments/${id}`, {
        paymentMethod: { type: 'MOBILE', phone: '79005550000' },
        amount: rub('10.00'),
        callbackUrl: `${hook}/twin/${id}`,
      }),
    ),
  )
  await rx.waitFor(() => ids.every((id) => rx.forPath(`/twin/${id}`).length >= 1), 15_000)
  const writes = await sql(
    `SELECT p."paymentId", count(w.*)::int AS n FROM "Payment" p LEFT JOIN test_status_writes w ON w.payment_ref = p.id
     WHERE p."siteId" = $1 GROUP BY p."paymentId"`,
    [site.siteId],
  )
  assert.equal(writes.length, ids.length)
  for (const w of writes) assert.equal(w.n, 1, `${w.paymentId}: its status was written ${w.n} times`)
  const rows = await sql(
    `SELECT "resourceId", count(*)::int AS n FROM "Notification" WHERE "siteId" = $1 GROUP BY "resourceId"`,
    [site.siteId],
  )
  for (const r of rows) assert.equal(r.n, 1, r.resourceId)
  for (const id of ids) assert.equal(rx.forPath(`/twin/${id}`).length, 1, id)
})
