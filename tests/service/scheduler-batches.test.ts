// The scheduler applies due changes in batches, one transaction per batch (lib/scheduler/time-driven-changes.ts):
// a change of a batch that cannot be applied does not cost the others their pass, and two passes at once (as two
// instances run them) apply every change exactly once, approvals of payments of one bill included, and a batch never
// waits, holding its rows, for a payment of a bill that another transaction holds (two batches could wait for each
// other so). On a database of the file's own, where no server's scheduler takes these rows.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { billRequest, cardPayment, newSite, rub, uid } from '../support/api.ts'
import { dropDatabase, freshDatabase, sql } from '../support/db.ts'

const DATABASE = 'payin_scheduler_batches'
/** where the payments' notifications would go: each final status writes one (no worker sends them here) */
const callbackUrl = 'https://merchant.example/scheduler-batches'

/** what the scheduler logs while `run` runs: each change it passed over (a `scheduler:` write to stderr) */
async function schedulerLog<T>(run: () => Promise<T>): Promise<{ value: T; logged: string[] }> {
  const logged: string[] = []
  const write = process.stderr.write.bind(process.stderr)
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: any[]) => {
    if (String(chunk).startsWith('scheduler:')) logged.push(String(chunk))
    return write(chunk, ...rest)
  }) as typeof process.stderr.write
  try {
    return { value: await run(), logged }
  } finally {
    process.stderr.write = write
  }
}

/** each payment's status, reason and PAYMENT notifications as stored, by its paymentId */
async function outcomes(siteId: string) {
  const rows = await sql(
    `SELECT p."paymentId", p.id, p.status, p."statusReason", count(n.id)::int AS notifications
     FROM "Payment" p LEFT JOIN "Notification" n ON n."resourceRef" = p.id AND n.type = 'PAYMENT'
     WHERE p."siteId" = $1 GROUP BY p.id`,
    [siteId],
  )
  return new Map(rows.map((r) => [r.paymentId as string, r]))
}

/** moves each payment's due change to the past: the i-th of `ids` falls due (ids.length - i) seconds ago */
async function dueInOrder(siteId: string, ids: string[]): Promise<void> {
  await sql(
    `UPDATE "Payment" p SET "dueAt" = now() - (${ids.length} - d.i) * interval '1 second'
     FROM unnest($2::text[]) WITH ORDINALITY d(id, i) WHERE p."siteId" = $1 AND p."paymentId" = d.id`,
    [siteId, ids],
  )
}

/** runs `run` while no status can be written on a payment whose paymentId starts with poison- */
async function refusingPoisoned<T>(run: () => Promise<T>): Promise<T> {
  await sql(
    `CREATE OR REPLACE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
  )
  await sql(
    `CREATE TRIGGER test_refuse BEFORE UPDATE OF status ON "Payment" FOR EACH ROW WHEN (OLD."paymentId" LIKE 'poison-%') EXECUTE FUNCTION test_refuse()`,
  )
  try {
    return await run()
  } finally {
    await sql(`DROP TRIGGER test_refuse ON "Payment"`)
  }
}

describe('the scheduler applies due changes in batches', () => {
  let suiteUrl: string | undefined
  before(async () => {
    suiteUrl = process.env.DATABASE_URL
    process.env.DATABASE_URL = await freshDatabase(DATABASE)
    // every write of a payment's status, to count how often each change is applied
    await sql(`CREATE TABLE test_status_writes (payment_ref uuid, old_status text, new_status text)`)
    await sql(`CREATE FUNCTION test_log_status() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO test_status_writes VALUES (NEW.id, OLD.status, NEW.status); RETURN NEW; END $$`)
    await sql(
      `CREATE TRIGGER test_status_writes AFTER UPDATE OF status ON "Payment" FOR EACH ROW EXECUTE FUNCTION test_log_status()`,
    )
  })
  after(async () => {
    const { closeDb } = await import('../../lib/db/client.ts')
    await closeDb()
    process.env.DATABASE_URL = suiteUrl
    await dropDatabase(DATABASE)
  })

  test('a change of a batch that cannot be applied is logged and passed over; the others are applied in that pass', async () => {
    const { createPayment } = await import('../../lib/payments/payment-service.ts')
    const { paymentRequestSchema } = await import('../../lib/payments/payment-request.ts')
    const { settleDuePayments } = await import('../../lib/scheduler/time-driven-changes.ts')
    const { siteId } = await newSite('batch-poison')
    const mobile = paymentRequestSchema.parse({
      paymentMethod: { type: 'MOBILE', phone: '79001230000' },
      amount: rub('5.00'),
      callbackUrl,
    })
    const poisoned = `poison-${uid()}`
    const ids = [uid('mob'), uid('mob'), poisoned, uid('mob'), uid('mob'), uid('mob')]
    for (const id of ids) assert.equal((await createPayment(siteId, id, mobile)).status.value, 'WAITING')
    // the poisoned one falls due in the middle of the batch, and its status cannot be written
    await dueInOrder(siteId, ids)
    try {
      await refusingPoisoned(async () => {
        const { value: applied, logged } = await schedulerLog(() => settleDuePayments())
        assert.equal(applied, ids.length - 1)
        const after = await outcomes(siteId)
        for (const id of ids.filter((i) => i !== poisoned)) {
          assert.equal(after.get(id)!.status, 'COMPLETED', id)
          assert.equal(after.get(id)!.notifications, 1, id)
        }
        const stuck = after.get(poisoned)!
        assert.equal(stuck.status, 'WAITING')
        assert.equal(stuck.notifications, 0)
        assert.equal(logged.length, 1, logged.join('\n'))
        assert.match(logged[0], new RegExp(`^scheduler: payment ${stuck.id}: .*refused by the test`, 's'))
      })
    } finally {
      await sql(`UPDATE "Payment" SET "dueAt" = NULL WHERE "paymentId" = $1`, [poisoned])
    }
  })

  test("a batch's 3-D Secure expiries are declined in one statement, each as alone; one that cannot be written is passed over", async () => {
    const { createPayment } = await import('../../lib/payments/payment-service.ts')
    const { paymentRequestSchema } = await import('../../lib/payments/payment-request.ts')
    const { settleDuePayments } = await import('../../lib/scheduler/time-driven-changes.ts')
    const { siteId } = await newSite('batch-expiries')
    const { createBill } = await import('../../lib/billing/bill-service.ts')
    const { billRequestSchema } = await import('../../lib/bills/bill-request.ts')
    const challenge = paymentRequestSchema.parse(cardPayment({ callbackUrl }, { pan: '4000000000003220' }))
    const poisoned = `poison-${uid()}`
    // one of them on a bill whose customFields name where its payments' notifications go
    const onBill = uid('tds-bill')
    const billId = uid('bill')
    const invoiceUrl = 'https://merchant.example/invoice-callback'
    await createBill(
      siteId,
      billId,
      billRequestSchema.parse(billRequest({ customFields: { invoice_callback_url: invoiceUrl } })),
    )
    // a batch that declines in one statement, then one with a payment whose status cannot be written
    const ids = [uid('tds'), uid('tds'), onBill, uid('tds'), uid('tds')]
    const later = [uid('tds'), poisoned, uid('tds')]
    for (const id of [...ids, ...later]) {
      const request =
        id === onBill
          ? paymentRequestSchema.parse(cardPayment({ billId, amount: rub('3.00') }, { pan: '4000000000003220' }))
          : challenge
      assert.equal((await createPayment(siteId, id, request)).status.value, 'WAITING')
    }
    const dueAt = new Map<string, string>()
    const due = async (group: string[]) => {
      await dueInOrder(siteId, group)
      const rows = await sql(`SELECT "paymentId", "dueAt" FROM "Payment" WHERE "paymentId" = ANY($1::text[])`, [group])
      for (const r of rows) dueAt.set(r.paymentId, (r.dueAt as Date).toISOString())
    }
    const expectDeclined = async (id: string) => {
      const [p] = await sql(`SELECT * FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2`, [siteId, id])
      assert.deepEqual([p.status, p.statusReason, p.dueAt], ['DECLINED', 'PAYMENT_EXPIRED_3DS', null], id)
      assert.equal(p.statusChangedAt.toISOString(), dueAt.get(id), `${id}: dated when its challenge expired`)
      const notes = await sql(
        `SELECT url, status, body, "nextAttemptAt" <= now() AS due FROM "Notification" WHERE "resourceRef" = $1`,
        [p.id],
      )
      assert.equal(notes.length, 1, id)
      const url = id === onBill ? invoiceUrl : callbackUrl
      assert.deepEqual([notes[0].url, notes[0].status, notes[0].due], [url, 'DECLINED', true], id)
      const body = JSON.parse(notes[0].body)
      assert.equal(body.payment.paymentId, id)
      if (id === onBill) assert.deepEqual(body.payment.customFields, { invoice_callback_url: invoiceUrl })
      assert.deepEqual(
        [body.payment.status.value, body.payment.status.reasonCode, body.payment.status.changedDateTime.slice(0, 19)],
        ['DECLINED', 'PAYMENT_EXPIRED_3DS', dueAt.get(id)!.slice(0, 19)],
      )
    }
    await due(ids)
    const { value: applied, logged } = await schedulerLog(() => settleDuePayments())
    assert.deepEqual([applied, logged], [ids.length, []])
    for (const id of ids) await expectDeclined(id)
    // the poisoned one's status cannot be written: the batch's statement fails, and each is then declined alone
    await due(later)
    await refusingPoisoned(async () => {
      const { value: applied, logged } = await schedulerLog(() => settleDuePayments())
      assert.equal(applied, later.length - 1)
      for (const id of later.filter((i) => i !== poisoned)) await expectDeclined(id)
      const [stuck] = await sql(`SELECT id, status FROM "Payment" WHERE "paymentId" = $1`, [poisoned])
      assert.equal(stuck.status, 'WAITING')
      assert.equal((await outcomes(siteId)).get(poisoned)!.notifications, 0)
      assert.equal(logged.length, 1, logged.join('\n'))
      assert.match(logged[0], new RegExp(`^scheduler: payment ${stuck.id}: .*refused by the test`, 's'))
    })
    // writable again: the next pass declines it as the others were
    assert.equal(await settleDuePayments(), 1)
    await expectDeclined(poisoned)
    const writes = await sql(
      `SELECT p."paymentId", count(w.*)::int AS n FROM "Payment" p JOIN test_status_writes w ON w.payment_ref = p.id
       WHERE p."siteId" = $1 GROUP BY p."paymentId"`,
      [siteId],
    )
    assert.deepEqual(
      writes.map((w) => [w.paymentId, w.n]).sort(),
      [...ids, ...later].map((id) => [id, 1]).sort(),
      'each status written once',
    )
  })

  test('two passes at once apply every due change exactly once, approvals on shared bills included', async () => {
    const { createPayment } = await import('../../lib/payments/payment-service.ts')
    const { createBill } = await import('../../lib/billing/bill-service.ts')
    const { paymentRequestSchema } = await import('../../lib/payments/payment-request.ts')
    const { billRequestSchema } = await import('../../lib/bills/bill-request.ts')
    const { applyDueChanges } = await import('../../lib/scheduler/time-driven-changes.ts')
    const { siteId } = await newSite('batch-twins')
    const mobile = (billId?: string) =>
      paymentRequestSchema.parse({
        paymentMethod: { type: 'MOBILE', phone: '79001230000' },
        amount: rub('3.00'),
        billId,
        callbackUrl,
      })
    // 3-D Secure challenges nobody answers (each declines), operators' answers (each approves), and bills with three
    // operators' answers each: the first due pays the bill, the others find it paid
    const expiries = Array.from({ length: 40 }, () => uid('tds'))
    const answers = Array.from({ length: 10 }, () => uid('mob'))
    const bills = Array.from({ length: 10 }, () => uid('bill'))
    const onBills = bills.map(() => [uid('mate'), uid('mate'), uid('mate')])
    for (const id of expiries) {
      const p = await createPayment(
        siteId,
        id,
        paymentRequestSchema.parse(cardPayment({ callbackUrl }, { pan: '4000000000003220' })),
      )
      assert.equal(p.status.value, 'WAITING')
    }
    for (const id of answers) await createPayment(siteId, id, mobile())
    for (const [i, billId] of bills.entries()) {
      await createBill(siteId, billId, billRequestSchema.parse(billRequest()))
      for (const id of onBills[i])
        assert.equal((await createPayment(siteId, id, mobile(billId))).status.value, 'WAITING')
    }
    // due in an order that spreads each bill's payments over both passes' batches
    const order: string[] = []
    for (let round = 0; round < 3; round++)
      for (let i = 0; i < bills.length; i++) {
        order.push(onBills[i][round], expiries[round * bills.length + i])
        if (round === 0) order.push(answers[i])
      }
    order.push(...expiries.slice(3 * bills.length))
    assert.equal(order.length, expiries.length + answers.length + 3 * bills.length)
    await dueInOrder(siteId, order)
    const before = await outcomes(siteId)
    for (const [id, o] of before) assert.equal(o.notifications, 0, id)

    const { value: passes, logged } = await schedulerLog(() => Promise.all([applyDueChanges(), applyDueChanges()]))
    assert.deepEqual(logged, [])
    const applied = passes[0] + passes[1]
    // an approval may settle an earlier payment of its bill inside its own change: fewer, never more
    assert.ok(applied > 0 && applied <= order.length, `${passes[0]} + ${passes[1]}`)
    const after = await outcomes(siteId)
    for (const id of order) {
      assert.equal(after.get(id)!.notifications, 1, `${id}: ${after.get(id)!.notifications} notifications`)
    }
    for (const id of expiries) assert.equal(after.get(id)!.statusReason, 'PAYMENT_EXPIRED_3DS', id)
    for (const id of answers) assert.equal(after.get(id)!.status, 'COMPLETED', id)
    for (const [first, ...later] of onBills) {
      assert.equal(after.get(first)!.status, 'COMPLETED', first)
      for (const id of later) assert.equal(after.get(id)!.statusReason, 'BILL_ALREADY_PAID', id)
    }
    const writes = await sql(
      `SELECT p."paymentId", count(w.*)::int AS n FROM "Payment" p JOIN test_status_writes w ON w.payment_ref = p.id
       WHERE p."siteId" = $1 GROUP BY p."paymentId"`,
      [siteId],
    )
    assert.equal(writes.length, order.length)
    for (const w of writes) assert.equal(w.n, 1, `${w.paymentId}: its status was written ${w.n} times`)
    assert.deepEqual(await Promise.all([applyDueChanges(), applyDueChanges()]), [0, 0], 'nothing left')
  })

  test('a batch waits for no payment of a bill that another transaction holds: that change waits alone', async () => {
    const { createPayment } = await import('../../lib/payments/payment-service.ts')
    const { createBill } = await import('../../lib/billing/bill-service.ts')
    const { paymentRequestSchema } = await import('../../lib/payments/payment-request.ts')
    const { billRequestSchema } = await import('../../lib/bills/bill-request.ts')
    const { settleDuePayments } = await import('../../lib/scheduler/time-driven-changes.ts')
    const { siteId } = await newSite('batch-held')
    const billId = uid('bill')
    await createBill(siteId, billId, billRequestSchema.parse(billRequest()))
    const [first, second] = [uid('mate'), uid('mate')]
    for (const id of [first, second]) {
      const request = {
        paymentMethod: { type: 'MOBILE', phone: '79001230000' },
        amount: rub('3.00'),
        billId,
        callbackUrl,
      }
      await createPayment(siteId, id, paymentRequestSchema.parse(request))
    }
    const expiries = Array.from({ length: 4 }, () => uid('tds'))
    for (const id of expiries)
      await createPayment(
        siteId,
        id,
        paymentRequestSchema.parse(cardPayment({ callbackUrl }, { pan: '4000000000003220' })),
      )
    // the bill's second payment is in the middle of the batch; its first, due before it, is held by the test's session
    // (as another instance's batch, or a request, would hold it): approving the second settles the first first
    await dueInOrder(siteId, [first, expiries[0], expiries[1], second, expiries[2], expiries[3]])
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await holder.connect()
    try {
      await holder.query('BEGIN')
      await holder.query(`SELECT id FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2 FOR UPDATE`, [
        siteId,
        first,
      ])
      const { rows } = await holder.query('SELECT pg_backend_pid() AS pid')
      const pass = settleDuePayments()
      // polls (a deadline, not a sleep for ordering) until the pass waits for the session
      const deadline = Date.now() + 10_000
      for (;;) {
        const [w] = await sql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [
          rows[0].pid,
        ])
        if (w.n > 0) break
        if (Date.now() > deadline) throw new Error('the pass never waited for the held payment')
        await sleep(20)
      }
      // the rest of the batch is committed meanwhile: what waits is the second payment's change alone
      const meanwhile = await outcomes(siteId)
      for (const id of expiries) assert.equal(meanwhile.get(id)!.statusReason, 'PAYMENT_EXPIRED_3DS', id)
      assert.equal(meanwhile.get(second)!.status, 'WAITING')
      await holder.query('ROLLBACK')
      // the second's change settles the first (due first: it pays the bill) inside its own transaction
      assert.equal(await pass, expiries.length + 1)
    } finally {
      await holder.end()
    }
    const after = await outcomes(siteId)
    assert.equal(after.get(first)!.status, 'COMPLETED')
    assert.equal(after.get(second)!.statusReason, 'BILL_ALREADY_PAID')
    for (const id of [first, second, ...expiries]) assert.equal(after.get(id)!.notifications, 1, id)
  })
})
