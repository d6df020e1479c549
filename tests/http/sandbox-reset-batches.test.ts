// A sandbox reset of a site too big for one transaction (issue 32): its bills go a batch at a time
// (lib/sandbox/sandbox-reset.ts BATCH), each with its payments and all that hangs on them, then its card
// verifications, QR codes never paid and audit entries about no payment as many at a time, then the rest with the
// clock. The site ends empty, another site's data is untouched, and that site's writes made meanwhile all succeed.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { BATCH } from '../../lib/sandbox/sandbox-reset.ts'
import { cardPayment, client, newSite, rub, twoStepPayment, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'

type Api = ReturnType<typeof client>

/** how many rows of the site each table holds */
async function countsOf(siteId: string) {
  const [row] = await sql(
    `SELECT (SELECT count(*) FROM "Payment" WHERE "siteId" = $1)::int AS payments,
            (SELECT count(*) FROM "Bill" WHERE "siteId" = $1)::int AS bills,
            (SELECT count(*) FROM "Capture" WHERE "siteId" = $1)::int AS captures,
            (SELECT count(*) FROM "Refund" WHERE "siteId" = $1)::int AS refunds,
            (SELECT count(*) FROM "PaymentToken" WHERE "siteId" = $1)::int AS tokens,
            (SELECT count(*) FROM "Notification" WHERE "siteId" = $1)::int AS notifications,
            (SELECT count(*) FROM "AuditEntry" WHERE "siteId" = $1 AND action IN ('capture', 'refund', 'bill'))::int AS audit`,
    [siteId],
  )
  return row as Record<string, number>
}

/** a site with a captured payment, a refunded one, a bound token and their notifications, through the API */
async function siteWithData(prefix: string): Promise<Api> {
  const api = client(await newSite(prefix))
  await sql(`UPDATE "Site" SET "notifyUrl" = 'http://127.0.0.1:9/hook' WHERE id = $1`, [api.site.siteId])
  const held = uid('held')
  assert.equal((await api.put(`/payments/${held}`, twoStepPayment())).body.status.value, 'COMPLETED')
  assert.equal((await api.put(`/payments/${held}/captures/${uid('cap')}`, {})).status, 200)
  const sale = uid('sale')
  assert.equal((await api.put(`/payments/${sale}`, cardPayment())).body.status.value, 'COMPLETED')
  assert.equal((await api.put(`/payments/${sale}/refunds/${uid('ref')}`, { amount: rub('10.00') })).status, 200)
  const bound = cardPayment({ flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customer: { account: 'acc-1' } })
  assert.equal((await api.put(`/payments/${uid('bound')}`, bound)).status, 200)
  return api
}

/**
 * `bills` more bills of the site, each with a payment, its notification and a delivery attempt, and an audit entry
 * of the payment (written as the services write them, in bulk)
 */
async function seed(siteId: string, bills: number) {
  await sql(
    `WITH b AS (
       INSERT INTO "Bill" (id, "siteId", "billId", "invoiceUid", currency, "amountMinor", flags, status, "statusChangedAt", "expiresAt")
       SELECT gen_random_uuid(), $1, 'seeded-' || g, gen_random_uuid(), 'RUB', 1000, '{SALE}', 'PAID', now(), now() + interval '1 day'
       FROM generate_series(1, $2::int) g RETURNING id, "billId"),
     p AS (
       INSERT INTO "Payment" (id, "siteId", "paymentId", "billRef", "billId", fingerprint, "methodType", "maskedPan", flags,
         currency, "amountMinor", "capturedMinor", status, "statusChangedAt")
       SELECT gen_random_uuid(), $1, 'pay-' || b."billId", b.id, b."billId", 'seeded', 'CARD', '411111******1111', '{SALE}',
         'RUB', 1000, 1000, 'COMPLETED', now() FROM b RETURNING id, "paymentId"),
     a AS (
       INSERT INTO "AuditEntry" (id, "siteId", actor, action, subject, "paymentRef", outcome)
       SELECT gen_random_uuid(), $1, 'seeded', 'refund', p."paymentId", p.id, 'DECLINED' FROM p),
     n AS (
       INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt")
       SELECT gen_random_uuid(), $1, 'PAYMENT', p.id, p."paymentId", 'COMPLETED', 'http://127.0.0.1:9/hook', '{}',
         'FAILED', now() FROM p RETURNING id)
     INSERT INTO "NotificationAttempt" (id, "notificationRef", at, "durationMs", error)
     SELECT gen_random_uuid(), n.id, now(), 1, 'seeded' FROM n`,
    [siteId, bills],
  )
}

/** how many of the site's rows the parts after its bills hold */
async function restOf(siteId: string) {
  const [row] = await sql(
    `SELECT (SELECT count(*) FROM "CardCheck" WHERE "siteId" = $1)::int AS checks,
            (SELECT count(*) FROM "PaymentToken" WHERE "siteId" = $1)::int AS tokens,
            (SELECT count(*) FROM "Notification" WHERE "siteId" = $1)::int AS notifications,
            (SELECT count(*) FROM "NotificationAttempt" a JOIN "Notification" n ON n.id = a."notificationRef"
              WHERE n."siteId" = $1)::int AS attempts,
            (SELECT count(*) FROM "SbpQrCode" WHERE "siteId" = $1)::int AS codes,
            (SELECT count(*) FROM "SbpToken" WHERE "siteId" = $1)::int AS "sbpTokens",
            (SELECT count(*) FROM "AuditEntry" WHERE "siteId" = $1)::int AS audit`,
    [siteId],
  )
  return row as Record<string, number>
}

/**
 * `n` card verifications of the site, each with the token it issued and its notification with an attempt, `n` QR
 * codes never paid, each with an FPS token, and `n` audit entries of the data about no payment (in bulk, as written)
 */
async function seedRest(siteId: string, n: number) {
  await sql(
    `WITH c AS (
       INSERT INTO "CardCheck" (id, "siteId", "requestUid", fingerprint, status, "maskedPan", "cardProfile", "createdAt")
       SELECT gen_random_uuid(), $1, 'check-' || g, 'seeded', 'COMPLETED', '411111******1111', '{}', now()
       FROM generate_series(1, $2::int) g RETURNING id, "requestUid"),
     t AS (
       INSERT INTO "PaymentToken" (id, "siteId", account, "tokenHash", "checkRef")
       SELECT gen_random_uuid(), $1, 'acc-1', md5(c.id::text), c.id FROM c),
     n AS (
       INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt")
       SELECT gen_random_uuid(), $1, 'CHECK_CARD', c.id, c."requestUid", 'COMPLETED', 'http://127.0.0.1:9/hook', '{}',
         'FAILED', now() FROM c RETURNING id)
     INSERT INTO "NotificationAttempt" (id, "notificationRef", at, "durationMs", error)
     SELECT gen_random_uuid(), n.id, now(), 1, 'seeded' FROM n`,
    [siteId, n],
  )
  await sql(
    `WITH q AS (
       INSERT INTO "SbpQrCode" (id, "siteId", "qrCodeUid", "publicId", type, currency, "ttlMinutes", status,
         "statusChangedAt", "createdAt", "expiresAt")
       SELECT gen_random_uuid(), $1, 'qr-' || g, $1 || '-qr-' || g, 'Dynamic', 'RUB', 60, 'CREATED', now(), now(),
         now() + interval '1 hour'
       FROM generate_series(1, $2::int) g RETURNING id)
     INSERT INTO "SbpToken" (id, "siteId", account, "tokenHash", "qrRef", "createdAt", "expiresAt")
     SELECT gen_random_uuid(), $1, 'acc-1', md5(q.id::text), q.id, now(), now() + interval '1 year' FROM q`,
    [siteId, n],
  )
  await sql(
    `INSERT INTO "AuditEntry" (id, "siteId", actor, action, subject, outcome)
     SELECT gen_random_uuid(), $1, 'seeded', 'bill', 'bill-' || g, 'OK' FROM generate_series(1, $2::int) g`,
    [siteId, n],
  )
}

describe('a sandbox reset in batches', () => {
  test("a site of several batches ends empty; another site's data and writes are untouched", async () => {
    const big = await siteWithData('batches-big')
    const small = await siteWithData('batches-small')
    await seed(big.site.siteId, 2 * BATCH + 500)
    const before = await countsOf(big.site.siteId)
    assert.ok(before.bills > 2 * BATCH, `${before.bills} bills: more than two batches`)
    const smallBefore = await countsOf(small.site.siteId)

    // the small site writes while the big one is reset: every write succeeds and is kept
    const writes = Array.from({ length: 20 }, () => uid('meanwhile'))
    const [reset] = await Promise.all([
      big.post('/sandbox/reset', { confirm: big.site.siteId }),
      ...writes.map(async (id) => assert.equal((await small.put(`/payments/${id}`, cardPayment())).status, 200)),
    ])
    assert.equal(reset.status, 200, reset.text)
    assert.deepEqual(reset.body.deleted, {
      payments: before.payments,
      bills: before.bills,
      captures: before.captures,
      refunds: before.refunds,
      notifications: before.notifications,
    })
    assert.deepEqual(await countsOf(big.site.siteId), {
      payments: 0,
      bills: 0,
      captures: 0,
      refunds: 0,
      tokens: 0,
      notifications: 0,
      audit: 0,
    })

    const smallAfter = await countsOf(small.site.siteId)
    assert.equal(smallAfter.payments, smallBefore.payments + writes.length)
    assert.deepEqual(
      { ...smallAfter, payments: 0, bills: 0, notifications: 0 },
      { ...smallBefore, payments: 0, bills: 0, notifications: 0 },
    )
    for (const id of writes) assert.equal((await small.get(`/payments/${id}`)).status, 200)
  })

  test('a site of more than a batch of card verifications, unpaid QR codes and audit entries ends empty', async () => {
    const big = await siteWithData('rest-big')
    const other = await siteWithData('rest-other')
    await seedRest(big.site.siteId, 2 * BATCH + 300)
    await seedRest(other.site.siteId, 3)
    const before = await restOf(big.site.siteId)
    assert.ok(before.checks > 2 * BATCH && before.codes > 2 * BATCH, JSON.stringify(before))
    const otherBefore = await restOf(other.site.siteId)
    const { notifications } = await countsOf(big.site.siteId)

    const reset = await big.post('/sandbox/reset', { confirm: big.site.siteId })
    assert.equal(reset.status, 200, reset.text)
    assert.equal(reset.body.deleted.notifications, notifications)
    assert.deepEqual(await restOf(big.site.siteId), {
      checks: 0,
      tokens: 0,
      notifications: 0,
      attempts: 0,
      codes: 0,
      sbpTokens: 0,
      audit: 0,
    })
    // the other site's pending notifications may get attempts meanwhile (a delivery worker of another test's
    // instance takes every site's); none of its rows is deleted
    const otherAfter = await restOf(other.site.siteId)
    assert.ok(otherAfter.attempts >= otherBefore.attempts, 'no attempt of the other site deleted')
    assert.deepEqual({ ...otherAfter, attempts: 0 }, { ...otherBefore, attempts: 0 })
  })
})
