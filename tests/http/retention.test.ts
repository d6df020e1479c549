// Retention (issue 32, lib/sandbox/retention-sweep.ts): a site with a retention loses, to the sweep, its finished
// bills and payments older than that on its clock, with their refunds, notifications and attempts, while what a
// merchant may still act on or hear of stays: a payment with a notification still being delivered, one with
// something to refund (a captured sale, an open hold), a WAITING payment and an open bill; its delivered
// notifications older than that go alone. A site without retention keeps everything. Deleted resources are 404s.
// The sweep is run here as the scheduler runs it, for the site and at a time given (sweepSiteNow), not waited for.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { BATCH, sweepSite, sweepSiteNow } from '../../lib/sandbox/retention-sweep.ts'
import {
  assertErrorShape,
  billRequest,
  cardPayment,
  client,
  DAY_MS,
  newSite,
  rub,
  twoStepPayment,
  uid,
} from '../support/api.ts'
import { sql } from '../support/db.ts'
import { siteCommand, siteOk } from '../support/site-command.ts'

type Api = ReturnType<typeof client>

const DECLINING_CARD = '4000000000000002'
const THREE_DS_CARD = '4000000000003220'

/**
 * A site's data of each kind, through the API: first what is finished (a declined payment, a fully refunded sale, a
 * bill left to expire, a captured sale whose notification was delivered), then its clock 46 days on (the first
 * bills expire on it), then what is not finished: a sale whose notification is still PENDING, an open hold, a WAITING
 * payment and an open bill. Each notification goes to the site's URL, where nothing listens; those of the finished
 * payments stand delivered (written as the worker writes a delivery: no lease left, which the worker then needs).
 */
async function siteWithData(prefix: string): Promise<{ api: Api; ids: Record<string, string> }> {
  const api = client(await newSite(prefix))
  await sql(`UPDATE "Site" SET "notifyUrl" = 'http://127.0.0.1:9/hook' WHERE id = $1`, [api.site.siteId])
  const ids: Record<string, string> = {}
  const pay = async (name: string, body: unknown, status: string) => {
    ids[name] = uid(name)
    const r = await api.put(`/payments/${ids[name]}`, body)
    assert.equal(r.body.status?.value, status, r.text)
  }
  await pay('declined', cardPayment({}, { pan: DECLINING_CARD }), 'DECLINED')
  await pay('refunded', cardPayment(), 'COMPLETED')
  ids.refund = uid('refund')
  const refund = await api.put(`/payments/${ids.refunded}/refunds/${ids.refund}`, { amount: rub('100.00') })
  assert.equal(refund.body.status?.value, 'COMPLETED', refund.text)
  await pay('captured', cardPayment(), 'COMPLETED')
  ids.expiredBill = uid('expired-bill')
  assert.equal((await api.put(`/bills/${ids.expiredBill}`, billRequest())).status, 200)
  await sql(
    `UPDATE "Notification" SET state = 'DELIVERED', "deliveredAt" = "createdAt", "leaseUntil" = NULL WHERE "siteId" = $1`,
    [api.site.siteId],
  )
  const advance = await api.post('/sandbox/clock/advance', { seconds: (46 * DAY_MS) / 1000 })
  assert.equal(advance.status, 200, advance.text)

  await pay('notifying', cardPayment(), 'COMPLETED')
  await pay('hold', twoStepPayment(), 'COMPLETED')
  await pay('waiting', cardPayment({}, { pan: THREE_DS_CARD }), 'WAITING')
  // their notifications stay PENDING: leased far ahead, so that no test's delivery worker ends them meanwhile
  await sql(
    `UPDATE "Notification" SET "leaseUntil" = now() + interval '1 hour' WHERE "siteId" = $1 AND state = 'PENDING'`,
    [api.site.siteId],
  )
  ids.openBill = uid('open-bill')
  const siteNow = Date.parse((await api.get('/sandbox/clock')).body.now)
  const open = billRequest({ expirationDateTime: new Date(siteNow + 40 * DAY_MS).toISOString() })
  assert.equal((await api.put(`/bills/${ids.openBill}`, open)).status, 200)
  return { api, ids }
}

/** how many rows of the site each table holds */
async function countsOf(siteId: string) {
  const [row] = await sql(
    `SELECT (SELECT count(*) FROM "Payment" WHERE "siteId" = $1)::int AS payments,
            (SELECT count(*) FROM "Bill" WHERE "siteId" = $1)::int AS bills,
            (SELECT count(*) FROM "Refund" WHERE "siteId" = $1)::int AS refunds,
            (SELECT count(*) FROM "Notification" WHERE "siteId" = $1)::int AS notifications`,
    [siteId],
  )
  return row as Record<string, number>
}

/** the states of the site's notifications about this resource */
const notificationsOf = async (siteId: string, resourceId: string) =>
  (await sql(`SELECT state FROM "Notification" WHERE "siteId" = $1 AND "resourceId" = $2`, [siteId, resourceId])).map(
    (r) => r.state as string,
  )

/** `bills` expired bills of the site 60 days old, each with a declined payment (written in bulk) */
async function seedOld(siteId: string, bills: number) {
  await sql(
    `WITH b AS (
       INSERT INTO "Bill" (id, "siteId", "billId", "invoiceUid", currency, "amountMinor", flags, status, "statusChangedAt",
         "createdAt", "expiresAt")
       SELECT gen_random_uuid(), $1, 'old-' || g, gen_random_uuid(), 'RUB', 1000, '{SALE}', 'EXPIRED',
         now() - interval '59 days', now() - interval '60 days' + g * interval '1 ms', now() - interval '59 days'
       FROM generate_series(1, $2::int) g RETURNING id, "billId", "createdAt")
     INSERT INTO "Payment" (id, "siteId", "paymentId", "billRef", "billId", fingerprint, "methodType", "maskedPan", flags,
       currency, "amountMinor", status, "statusChangedAt", "createdAt")
     SELECT gen_random_uuid(), $1, 'pay-' || b."billId", b.id, b."billId", 'seeded', 'CARD', '400000******0002', '{SALE}',
       'RUB', 1000, 'DECLINED', b."createdAt", b."createdAt" FROM b`,
    [siteId, bills],
  )
}

describe('retention', () => {
  test('the site command sets, shows and turns off a retention, and refuses what is no number of days', async () => {
    const { siteId } = await newSite('retention-cli')
    assert.match(await siteOk(['retention', siteId]), new RegExp(`${siteId} keeps all its data`))
    assert.match(await siteOk(['retention', siteId, '30']), /older than 30 days/)
    assert.match(await siteOk(['retention', siteId]), /older than 30 days/)
    const [row] = await sql(`SELECT "retentionDays", "retentionDueAt" FROM "Site" WHERE id = $1`, [siteId])
    assert.equal(row.retentionDays, 30)
    assert.ok(row.retentionDueAt, 'a site given a retention is due for a sweep')
    for (const bad of ['0', '3651', '1.5', 'week']) {
      const run = await siteCommand(['retention', siteId, bad])
      assert.equal(run.code, 2, bad)
      assert.match(run.stderr, /whole days, 1 to 3650, or off/)
    }
    assert.match(await siteOk(['retention', siteId, 'off']), /keeps all its data/)
    const [off] = await sql(`SELECT "retentionDays", "retentionDueAt" FROM "Site" WHERE id = $1`, [siteId])
    assert.deepEqual(off, { retentionDays: null, retentionDueAt: null })
    assert.equal(await sweepSiteNow(siteId), null, 'no retention: no sweep')
  })

  test('old finished data goes; what is still open, refundable or being notified stays; other sites keep all', async () => {
    const kept = await siteWithData('retention-kept')
    const swept = await siteWithData('retention-swept')
    const keptBefore = await countsOf(kept.api.site.siteId)
    const { ids, api } = swept
    const siteId = api.site.siteId
    await siteOk(['retention', siteId, '30'])

    // 31 days on in real time: the site's clock is 77 days on, its first data 77 days old, the rest 31
    const deleted = await sweepSiteNow(siteId, new Date(Date.now() + 31 * DAY_MS))
    assert.ok(deleted, 'the site has a retention')
    // (the scheduler may have swept some of it meanwhile, on real time: what is left is what counts)

    for (const gone of ['declined', 'refunded'])
      assertErrorShape(await api.get(`/payments/${ids[gone]}`), 404, 'payin.resource.not.found')
    assertErrorShape(await api.get(`/payments/${ids.refunded}/refunds/${ids.refund}`), 404, 'payin.resource.not.found')
    assertErrorShape(await api.get(`/bills/${ids.expiredBill}/details`), 404, 'payin.resource.not.found')
    assert.deepEqual(await notificationsOf(siteId, ids.declined), [])
    assert.deepEqual(await notificationsOf(siteId, ids.refund), [])

    // the captured sale can still be refunded: it stays, and its delivered notification older than 30 days goes
    assert.equal((await api.get(`/payments/${ids.captured}`)).status, 200)
    assert.deepEqual(await notificationsOf(siteId, ids.captured), [])
    for (const stays of ['notifying', 'hold', 'waiting'])
      assert.equal((await api.get(`/payments/${ids[stays]}`)).status, 200, stays)
    assert.deepEqual(await notificationsOf(siteId, ids.notifying), ['PENDING'])
    assert.equal((await api.get(`/payments/${ids.waiting}`)).body.status.value, 'WAITING')
    assert.equal((await api.get(`/bills/${ids.openBill}/details`)).body.status.value, 'CREATED')
    const after = await countsOf(siteId)
    assert.deepEqual(after, { payments: 4, bills: 5, refunds: 0, notifications: 2 })

    // a second sweep finds nothing more; the site without retention kept all it had
    assert.deepEqual(await sweepSiteNow(siteId, new Date(Date.now() + 31 * DAY_MS)), {
      bills: 0,
      payments: 0,
      captures: 0,
      refunds: 0,
      notifications: 0,
      auditEntries: 0,
    })
    assert.deepEqual(await countsOf(kept.api.site.siteId), keptBefore)
    assert.equal(await sweepSiteNow(kept.api.site.siteId, new Date(Date.now() + 31 * DAY_MS)), null)
  })

  test('a sweep cut short by its bound of batches goes on from where it stopped', async () => {
    const { siteId } = await newSite('retention-batches')
    await seedOld(siteId, BATCH + 100)
    const first = await sweepSite(siteId, 30, { batches: 1 })
    assert.equal(first.done, false)
    assert.ok(first.cursor, 'where it stopped')
    assert.equal(first.deleted.bills, BATCH)
    assert.equal(first.deleted.payments, BATCH)
    const rest = await sweepSite(siteId, 30, { cursor: first.cursor })
    assert.equal(rest.done, true)
    assert.equal(rest.cursor, null)
    assert.equal(rest.deleted.bills, 100)
    assert.deepEqual(await countsOf(siteId), { payments: 0, bills: 0, refunds: 0, notifications: 0 })
  })
})
