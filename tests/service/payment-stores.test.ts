// The payments' stores on the suite's real database, no HTTP between: what they read back of what the services
// wrote, and the sandbox reset's statements for their tables (deleteSiteData), which delete the site's rows and
// no other site's.
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { closeDb, db } from '../../lib/db/client.ts'
import { capturePayment } from '../../lib/payments/capture-service.ts'
import * as captureStore from '../../lib/payments/capture-store.ts'
import { tokenHash } from '../../lib/payments/methods/token.ts'
import { paymentRequestSchema } from '../../lib/payments/payment-request.ts'
import { createPayment } from '../../lib/payments/payment-service.ts'
import * as paymentStore from '../../lib/payments/payment-store.ts'
import * as tokenStore from '../../lib/payments/payment-token-store.ts'
import { paymentTokenOf } from '../../lib/payments/payment-tokens.ts'
import { refundPayment } from '../../lib/payments/refund-service.ts'
import * as refundStore from '../../lib/payments/refund-store.ts'
import { siteClockMove } from '../../lib/sandbox/site-write.ts'
import { issueToken } from '../../lib/sites/site-tokens.ts'
import { amountSchema } from '../../lib/wire/common-schemas.ts'
import { cardPayment, uid } from '../support/api.ts'

const rub = (value: string) => amountSchema.parse({ value, currency: 'RUB' })

/**
 * a new site with a two-step card payment that bound a token, captured 60.00 and refunded 25.00: the site, the
 * payment's id and its row
 */
async function paidSite() {
  const siteId = uid('stores')
  await issueToken(siteId)
  const paymentId = uid('pay')
  const request = paymentRequestSchema.parse(
    cardPayment({ flags: ['BIND_PAYMENT_TOKEN'], customer: { account: 'acc-1' } }),
  )
  assert.equal((await createPayment(siteId, paymentId, request)).status.value, 'COMPLETED')
  assert.equal((await capturePayment(siteId, paymentId, 'cap-1', rub('60.00'))).status.value, 'COMPLETED')
  assert.equal((await refundPayment(siteId, paymentId, 'ref-1', rub('25.00'))).status.value, 'COMPLETED')
  const row = await paymentStore.readPaymentRow(siteId, paymentId)
  assert.ok(row, 'the payment is stored')
  return { siteId, paymentId, row }
}

describe("the payments' stores", () => {
  after(() => closeDb())

  test('read back what the services wrote', async () => {
    const { siteId, paymentId, row } = await paidSite()
    assert.equal(row.capturedMinor, 6000n)
    assert.equal(row.refundedMinor, 2500n)
    assert.equal((await paymentStore.paymentFingerprint(siteId, paymentId))?.fingerprint, row.fingerprint)
    assert.equal(await paymentStore.readPaymentRow(siteId, uid('none')), undefined)
    assert.equal(await paymentStore.paymentFingerprint(siteId, uid('none')), null)

    assert.deepEqual(
      (await captureStore.capturesOfPayment(row.id)).map((c) => [c.captureId, c.amountMinor, c.status]),
      [['cap-1', 6000n, 'COMPLETED']],
    )
    assert.equal((await captureStore.captureOfPayment(siteId, paymentId, 'cap-1'))?.paymentRef, row.id)
    assert.equal(await captureStore.captureOfPayment(siteId, uid('other'), 'cap-1'), null)

    assert.deepEqual(
      (await refundStore.refundsOfPayment(row.id)).map((r) => r.refundId),
      ['ref-1'],
    )
    assert.deepEqual(
      (await refundStore.refundsOfPaymentId(siteId, paymentId))?.map((r) => r.refundId),
      ['ref-1'],
    )
    assert.equal(await refundStore.refundsOfPaymentId(siteId, uid('none')), null)

    const token = await tokenStore.tokenWithPayment(db(), tokenHash(paymentTokenOf(row.id)))
    assert.equal(token?.siteId, siteId)
    assert.equal(token?.account, 'acc-1')
    assert.equal(token?.payment?.id, row.id)
  })

  test("deleteSiteData: the reset's statements for these tables delete the site's rows, and only those", async () => {
    const reset = await paidSite()
    const kept = await paidSite()
    // in the reset's order and transaction (lib/sandbox/sandbox-reset.ts), its other tables left as they are
    const counts = await siteClockMove(
      reset.siteId,
      async (tx) => ({
        captures: await captureStore.deleteSiteData(tx, reset.siteId),
        refunds: await refundStore.deleteSiteData(tx, reset.siteId),
        tokens: await tokenStore.deleteSiteData(tx, reset.siteId),
        payments: await paymentStore.deleteSiteData(tx, reset.siteId),
      }),
      'busy',
    )
    assert.deepEqual(counts, { captures: 1, refunds: 1, tokens: 1, payments: 1 })
    assert.equal(await paymentStore.readPaymentRow(reset.siteId, reset.paymentId), undefined)
    assert.deepEqual(await captureStore.capturesOfPayment(reset.row.id), [])
    assert.deepEqual(await refundStore.refundsOfPayment(reset.row.id), [])
    assert.equal(await tokenStore.tokenWithPayment(db(), tokenHash(paymentTokenOf(reset.row.id))), null)

    assert.ok(await paymentStore.readPaymentRow(kept.siteId, kept.paymentId), "another site's payment stays")
    assert.equal((await captureStore.capturesOfPayment(kept.row.id)).length, 1)
    assert.equal((await refundStore.refundsOfPayment(kept.row.id)).length, 1)
    assert.ok(await tokenStore.tokenWithPayment(db(), tokenHash(paymentTokenOf(kept.row.id))))
  })
})
