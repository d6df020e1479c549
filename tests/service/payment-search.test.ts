// The dashboard's payment search on a site with many payments (issue 32): by payment id, bill id and a card's last
// four digits, each a range of an index of its own (prisma/migrations/*_scale_indexes), finds the site's rows,
// newest first, page by page, and never another site's — whose payments here have the same ids and cards.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { closeDb, db } from '../../lib/db/client.ts'
import { listPayments, PAGE_SIZE } from '../../lib/dashboard/dashboard-payments.ts'
import { paymentRequestSchema } from '../../lib/payments/payment-request.ts'
import { createPayment } from '../../lib/payments/payment-service.ts'
import { issueToken } from '../../lib/sites/site-tokens.ts'
import { cardPayment, uid } from '../support/api.ts'

/** payments seeded per site: enough that a search reading the site's payments would show in its plan */
const MANY = 6000

/**
 * `n` payments of the site, on `n / 3` bills (three each), a card's on two of three: payment `pay-<i>` on bill
 * `bill-<ceil(i / 3)>`, card ending in `<i mod 100, 4 digits>`, created a second apart (the highest i newest)
 */
async function seed(siteId: string, n: number, amountMinor: number) {
  await db().$executeRawUnsafe(
    `INSERT INTO "Bill" (id, "siteId", "billId", "invoiceUid", currency, "amountMinor", flags, status, "statusChangedAt", "expiresAt")
     SELECT gen_random_uuid(), $1, 'bill-' || g, gen_random_uuid(), 'RUB', $3, '{SALE}', 'PAID', now(), now() + interval '1 day'
     FROM generate_series(1, $2::int / 3) g`,
    siteId,
    n,
    amountMinor,
  )
  await db().$executeRawUnsafe(
    `INSERT INTO "Payment" (id, "siteId", "paymentId", "billRef", "billId", fingerprint, "methodType", "maskedPan", flags,
       currency, "amountMinor", "capturedMinor", status, "statusChangedAt", "createdAt")
     SELECT gen_random_uuid(), $1, 'pay-' || g, b.id, b."billId", 'seeded', CASE WHEN g % 3 = 0 THEN 'SBP' ELSE 'CARD' END,
       CASE WHEN g % 3 = 0 THEN NULL ELSE '411111******' || lpad((g % 100)::text, 4, '0') END, '{SALE}', 'RUB', $3, $3,
       'COMPLETED', now(), now() - interval '1 day' + g * interval '1 second'
     FROM generate_series(1, $2::int) g JOIN "Bill" b ON b."siteId" = $1 AND b."billId" = 'bill-' || ((g + 2) / 3)`,
    siteId,
    n,
    amountMinor,
  )
}

describe('the dashboard search on a site of many payments', () => {
  const site = uid('search')
  const other = uid('search-other')
  before(async () => {
    await seed(site, MANY, 1000)
    await seed(other, MANY, 777)
    await db().$executeRawUnsafe('ANALYZE "Payment"')
  })
  after(() => closeDb())

  const search = (q: string, after?: string) => listPayments(site, { search: q, after })

  test('by payment id: the one payment of the site', async () => {
    const { rows, nextCursor } = await search('pay-4321')
    assert.deepEqual(
      rows.map((r) => [r.paymentId, r.billId, Number(r.amountMinor)]),
      [['pay-4321', 'bill-1441', 1000]],
    )
    assert.equal(nextCursor, null)
  })

  test("by bill id: the bill's payments, newest first", async () => {
    const { rows } = await search('bill-1441')
    assert.deepEqual(
      rows.map((r) => [r.paymentId, Number(r.amountMinor)]),
      [
        ['pay-4323', 1000],
        ['pay-4322', 1000],
        ['pay-4321', 1000],
      ],
    )
  })

  test("by a card's last four digits: every page of the site's cards ending so, none twice, no other site's", async () => {
    // cards end in 0042 for i = 42, 142, …: those of them not paid by SBP (i mod 3 ≠ 0)
    const expected = Array.from({ length: MANY }, (_, k) => k + 1)
      .filter((i) => i % 100 === 42 && i % 3 !== 0)
      .reverse()
      .map((i) => `pay-${i}`)
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = await search('0042', cursor)
      assert.ok(page.rows.length <= PAGE_SIZE)
      for (const r of page.rows) {
        assert.equal(r.maskedPan, '411111******0042')
        assert.equal(Number(r.amountMinor), 1000, `${r.paymentId} is another site's`)
      }
      seen.push(...page.rows.map((r) => r.paymentId))
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    assert.deepEqual(seen, expected)
  })

  test('a card paid through the service is found by its last four digits, and only its own site finds it', async () => {
    await issueToken(site)
    const paymentId = uid('pay-card')
    const request = paymentRequestSchema.parse(cardPayment({}, { pan: '5555555555554444' }))
    assert.equal((await createPayment(site, paymentId, request)).status.value, 'COMPLETED')
    const { rows } = await search('4444')
    assert.deepEqual(
      rows.map((r) => [r.paymentId, r.maskedPan?.slice(-4)]),
      [[paymentId, '4444']],
    )
    assert.deepEqual((await listPayments(other, { search: '4444' })).rows, [])
    assert.deepEqual((await listPayments(other, { search: paymentId })).rows, [])
  })

  test('a value that is a payment id and a bill id at once lists each payment once', async () => {
    // a payment whose id is its own bill's id: found both ways
    const { rows } = await search('bill-7')
    assert.deepEqual(rows.map((r) => r.paymentId).sort(), ['pay-19', 'pay-20', 'pay-21'])
    await db().$executeRawUnsafe(
      `UPDATE "Payment" SET "paymentId" = 'bill-7' WHERE "siteId" = $1 AND "paymentId" = 'pay-21'`,
      site,
    )
    const again = await search('bill-7')
    assert.deepEqual(
      again.rows.map((r) => r.paymentId),
      ['bill-7', 'pay-20', 'pay-19'],
    )
  })
})
