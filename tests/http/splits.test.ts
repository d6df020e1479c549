// Split payments (production's `_splits_en`): a bill's `splits`, a payment's `paymentSplits` (its own, else its
// bill's) and a refund's `refundSplits`: validated (the shares add up to the amount exactly, in roubles only; a refund
// of a split payment names its splits, each taking back at most what remains of it, also when refunds race; a split
// hold is captured in full), kept, answered and notified. Notifications are read from the site's outbox list (written
// with each status change: no delivery needed).
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  assertErrorShape,
  assertValidation,
  billRequest,
  cardPayment,
  client,
  newSite,
  rub,
  twoStepPayment,
  uid,
} from '../support/api.ts'
import { sql } from '../support/db.ts'

/** a split as a request gives it (and as an answer writes it, with the value as a string) */
const split = (siteUid: string, value: string | number, more: Record<string, unknown> = {}) => ({
  type: 'MERCHANT_DETAILS',
  siteUid,
  splitAmount: { value, currency: 'RUB' },
  ...more,
})

describe('split payments', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    const site = await newSite('splits')
    api = client(site)
    // a URL for the outbox to name (this suite's server posts nothing)
    await sql(`UPDATE "Site" SET "notifyUrl" = 'https://shop.example/hook' WHERE id = $1`, [site.siteId])
  })

  /** the notification the outbox holds for a resource: its object, and its body as written */
  const notified = async (resourceId: string) => {
    const list = (await api.get('/notifications')).body as any[]
    const n = list.find((x) => x.resourceId === resourceId)
    assert.ok(n, `a notification of ${resourceId}`)
    return Object.values(n.body)[0] as any
  }

  const twoShares = [
    split('shop-a', '2.00', { orderId: 'dresses', comment: 'Purchase 1' }),
    split('shop-b', '1.00', { orderId: 'shoes' }),
  ]

  test("a bill's splits: kept, answered, replayed; its payments take them and notify them", async () => {
    const billId = uid('bill')
    const request = billRequest({ splits: twoShares })
    const bill = await api.put(`/bills/${billId}`, request)
    assert.equal(bill.status, 200, bill.text)
    assert.deepEqual(bill.body.splits, twoShares)
    assert.equal((await api.put(`/bills/${billId}`, request)).status, 200, 'an identical replay answers the bill')
    const other = await api.put(`/bills/${billId}`, { ...request, splits: [split('shop-a', '3.00')] })
    assertErrorShape(other, 409, 'payin.request.conflict')
    const id = uid('pay')
    const paid = await api.put(`/payments/${id}`, cardPayment({ billId, amount: rub('3.00') }))
    assert.equal(paid.status, 200, paid.text)
    assert.deepEqual(paid.body.paymentSplits, twoShares)
    const details = await api.get(`/bills/${billId}/details`)
    assert.deepEqual(details.body.splits, twoShares)
    assert.deepEqual(details.body.payments[0].paymentSplits, twoShares)
    const n = await notified(id)
    assert.deepEqual(n.paymentSplits, [
      {
        type: 'MERCHANT_DETAILS',
        siteUid: 'shop-a',
        splitAmount: { value: 2, currency: 'RUB' },
        orderId: 'dresses',
        comment: 'Purchase 1',
      },
      { type: 'MERCHANT_DETAILS', siteUid: 'shop-b', splitAmount: { value: 1, currency: 'RUB' }, orderId: 'shoes' },
    ])
  })

  test("a payment's own paymentSplits: answered, read and notified (amounts written with two decimals)", async () => {
    const id = uid('pay')
    const shares = [split('m-1', '60.50'), split('m-2', 39.5)]
    const paid = await api.put(`/payments/${id}`, cardPayment({ paymentSplits: shares }))
    assert.equal(paid.status, 200, paid.text)
    const answered = [split('m-1', '60.50'), split('m-2', '39.50')]
    assert.deepEqual(paid.body.paymentSplits, answered)
    assert.deepEqual((await api.paymentNow(id)).paymentSplits, answered)
    const [row] = await sql(`SELECT body FROM "Notification" WHERE "resourceId" = $1`, [id])
    assert.match(
      String(row.body),
      /"paymentSplits":\[\{"type":"MERCHANT_DETAILS","siteUid":"m-1","splitAmount":\{"value":60\.50,"currency":"RUB"\}\}/,
    )
    // a payment without splits answers and notifies none
    const plain = uid('pay')
    assert.equal((await api.put(`/payments/${plain}`, cardPayment())).body.paymentSplits, undefined)
    assert.equal((await notified(plain)).paymentSplits, undefined)
  })

  test("a payment's own paymentSplits win over its bill's", async () => {
    const billId = uid('bill')
    assert.equal((await api.put(`/bills/${billId}`, billRequest({ splits: twoShares }))).status, 200)
    const own = [split('shop-c', '3.00')]
    const paid = await api.put(
      `/payments/${uid('pay')}`,
      cardPayment({ billId, amount: rub('3.00'), paymentSplits: own }),
    )
    assert.equal(paid.status, 200, paid.text)
    assert.deepEqual(paid.body.paymentSplits, own)
  })

  test('the shares must add up to the amount exactly, in minor units; else 400 and nothing is written', async () => {
    // 0.10 + 0.20 is 0.30 exactly (no floats); 1.999 is 1.99 (rounded down), so 1.999 + 1.001 is 2.99, not 3.00
    const exact = await api.put(
      `/payments/${uid('pay')}`,
      cardPayment({ amount: rub('0.30'), paymentSplits: [split('a', 0.1), split('b', '0.20')] }),
    )
    assert.equal(exact.status, 200, exact.text)
    const billId = uid('bill')
    const short = await api.put(`/bills/${billId}`, billRequest({ splits: [split('a', '1.999'), split('b', 1.001)] }))
    assertValidation(short, 'splits')
    assert.equal((await api.get(`/bills/${billId}`)).status, 404, 'no bill written')
    const id = uid('pay')
    const over = await api.put(`/payments/${id}`, cardPayment({ paymentSplits: [split('a', '100.01')] }))
    assertValidation(over, 'paymentSplits')
    assert.equal((await api.get(`/payments/${id}`)).status, 404, 'no payment written')
  })

  test('every malformed split is a 400 naming its field', async () => {
    const bill = (splits: unknown, over: Record<string, unknown> = {}) =>
      api.put(`/bills/${uid('bill')}`, billRequest({ splits, ...over }))
    assertValidation(await bill([{ ...split('a', '3.00'), type: 'OTHER' }]), 'splits[0].type')
    assertValidation(await bill([{ type: 'MERCHANT_DETAILS', splitAmount: rub('3.00') }]), 'splits[0].siteUid')
    assertValidation(await bill([split('', '3.00')]), 'splits[0].siteUid')
    assertValidation(await bill([split('a', '3.00', { orderId: 7 })]), 'splits[0].orderId')
    assertValidation(await bill([{ type: 'MERCHANT_DETAILS', siteUid: 'a' }]), 'splits[0].splitAmount')
    assertValidation(await bill([split('a', '0.00')]), 'splits[0].splitAmount.value')
    assertValidation(await bill([]), 'splits')
    assertValidation(await bill({}), 'splits')
    // roubles only (production's rule), and a value to add up to
    assertValidation(
      await bill([split('a', '3.00')], { amount: { value: '3.00', currency: 'USD' } }),
      'amount.currency',
    )
    const usd = { value: '3.00', currency: 'USD' }
    assertValidation(
      await bill([{ ...split('a', '3.00'), splitAmount: usd }], { amount: usd }),
      'splits[0].splitAmount.currency',
    )
    assertValidation(
      await api.put(
        `/payments/${uid('pay')}`,
        cardPayment({ amount: { value: '100.00', currency: 'EUR' }, paymentSplits: [split('a', '100.00')] }),
      ),
      'amount.currency',
    )
    assertValidation(await bill([split('a', '3.00')], { amount: { currency: 'RUB' } }), 'amount.value')
    // one merchant's order once
    assertValidation(
      await bill([split('a', '1.00', { orderId: 'o' }), split('a', '2.00', { orderId: 'o' })]),
      'splits[1].orderId',
    )
    const refusal = await api.put(`/payments/${uid('pay')}`, cardPayment({ paymentSplits: [split('a', 'x')] }))
    assertValidation(refusal, 'paymentSplits[0].splitAmount.value')
  })

  describe('refunds of a split payment', () => {
    const shares = [split('shop-a', '60.00', { orderId: 'o-1' }), split('shop-b', '40.00')]
    const splitPayment = () => api.newPayment(cardPayment({ paymentSplits: shares }))
    const refund = (paymentId: string, value: string, refundSplits?: unknown, refundId = uid('ref')) =>
      api.put(`/payments/${paymentId}/refunds/${refundId}`, { amount: rub(value), refundSplits })

    test('refundSplits: answered, read, listed and notified; a replay answers it, another request is a 409', async () => {
      const p = await splitPayment()
      const refundId = uid('ref')
      const taken = [split('shop-a', '20.00', { orderId: 'o-1', comment: 'returned' }), split('shop-b', '5.00')]
      const r = await refund(p, '25.00', taken, refundId)
      assert.equal(r.status, 200, r.text)
      assert.equal(r.body.status.value, 'COMPLETED')
      assert.deepEqual(r.body.refundSplits, taken)
      assert.deepEqual((await api.get(`/payments/${p}/refunds/${refundId}`)).body, r.body)
      assert.deepEqual((await api.get(`/payments/${p}/refunds`)).body, [r.body])
      assert.deepEqual(
        (await notified(refundId)).refundSplits.map((s: any) => [s.siteUid, s.splitAmount.value]),
        [
          ['shop-a', 20],
          ['shop-b', 5],
        ],
      )
      assert.deepEqual((await refund(p, '25.00', taken, refundId)).body, r.body)
      assertErrorShape(await refund(p, '25.00', [split('shop-a', '25.00')], refundId), 409, 'payin.request.conflict')
    })

    test('a refund of a split payment must name its refundSplits; else 400 and nothing is refunded', async () => {
      const p = await splitPayment()
      const refundId = uid('ref')
      assertValidation(await refund(p, '1.00', undefined, refundId), 'refundSplits')
      assert.equal((await api.get(`/payments/${p}/refunds/${refundId}`)).status, 404, 'no refund written')
      assert.deepEqual((await api.paymentNow(p)).refundedAmount, rub('0.00'))
    })

    test('each split gives back at most what remains of it; else 400 and nothing is refunded', async () => {
      const p = await splitPayment()
      assert.equal((await refund(p, '50.00', [split('shop-a', '50.00')])).status, 200)
      const refundId = uid('ref')
      const over = await refund(p, '10.01', [split('shop-a', '10.01')], refundId)
      assertValidation(over, 'refundSplits[0].splitAmount.value')
      assert.equal((await api.get(`/payments/${p}/refunds/${refundId}`)).status, 404, 'no refund written')
      assert.deepEqual((await api.paymentNow(p)).refundedAmount, rub('50.00'))
      // what remains is still there: 10.00 of shop-a, 40.00 of shop-b
      const rest = await refund(p, '50.00', [split('shop-a', '10.00'), split('shop-b', '40.00')])
      assert.equal(rest.status, 200, rest.text)
      assert.equal(rest.body.status.value, 'COMPLETED')
    })

    test('a declined refund takes back nothing of its splits', async () => {
      // a postponed refund counts while it waits; declined by the merchant, it takes back nothing
      const site = await newSite('splits-postponed')
      const own = client(site)
      await sql(`UPDATE "Site" SET "postponedRefunds" = true WHERE id = $1`, [site.siteId])
      const p = await own.newPayment(cardPayment({ paymentSplits: shares }))
      const refundId = uid('ref')
      const waiting = await own.put(`/payments/${p}/refunds/${refundId}`, {
        amount: rub('60.00'),
        refundSplits: [split('shop-a', '60.00')],
      })
      assert.equal(waiting.body.status.value, 'WAITING', waiting.text)
      const more = { amount: rub('0.01'), refundSplits: [split('shop-a', '0.01')] }
      assertValidation(await own.put(`/payments/${p}/refunds/${uid('ref')}`, more), 'refundSplits[0].splitAmount.value')
      const declined = await own.post(`/payments/${p}/refunds/${refundId}/decline`, {})
      assert.equal(declined.body.status.value, 'DECLINED', declined.text)
      const again = await own.put(`/payments/${p}/refunds/${uid('ref')}`, {
        amount: rub('60.00'),
        refundSplits: [split('shop-a', '60.00')],
      })
      assert.equal(again.body.status.value, 'WAITING', again.text)
    })

    test("a refund split's orderId must be its split's, also when the merchant has one split", async () => {
      const p = await splitPayment()
      assertValidation(
        await refund(p, '10.00', [split('shop-a', '10.00', { orderId: 'o-2' })]),
        'refundSplits[0].orderId',
      )
      assertValidation(
        await refund(p, '10.00', [split('shop-b', '10.00', { orderId: 'o-1' })]),
        'refundSplits[0].orderId',
      )
      assert.deepEqual((await api.paymentNow(p)).refundedAmount, rub('0.00'))
      const named = await refund(p, '10.00', [split('shop-a', '10.00', { orderId: 'o-1' })])
      assert.equal(named.body.status.value, 'COMPLETED', named.text)
    })

    test('a split hold is captured in full only: a part is reversed naming its splits, then the rest captured', async () => {
      const p = await api.newPayment(twoStepPayment({ paymentSplits: shares }))
      const capture = (body: unknown) => api.put(`/payments/${p}/captures/${uid('cap')}`, body)
      // less than it holds: the splits would describe money never taken
      const part = await capture({ amount: rub('50.00') })
      assert.equal(part.status, 200, part.text)
      assert.deepEqual([part.body.status.value, part.body.status.reason], ['DECLINED', 'INVALID_AMOUNT'])
      assertValidation(await refund(p, '10.00'), 'refundSplits')
      const reversal = await refund(p, '10.00', [split('shop-b', '10.00')])
      assert.deepEqual([reversal.body.status.value, reversal.body.flags], ['COMPLETED', ['REVERSAL']], reversal.text)
      const above = await capture({ amount: rub('90.01') })
      assert.equal(above.body.status.reason, 'INVALID_AMOUNT', above.text)
      const all = await capture({ amount: rub('90.00') })
      assert.equal(all.body.status.value, 'COMPLETED', all.text)
      assert.deepEqual((await api.paymentNow(p)).capturedAmount, rub('90.00'))
      // what remains of shop-b's share: 30.00
      assertValidation(await refund(p, '30.01', [split('shop-b', '30.01')]), 'refundSplits[0].splitAmount.value')
      assert.equal((await refund(p, '30.00', [split('shop-b', '30.00')])).body.status.value, 'COMPLETED')
    })

    test("refundSplits must name the payment's splits and add up to the amount", async () => {
      const p = await splitPayment()
      assertValidation(await refund(p, '10.00', [split('shop-z', '10.00')]), 'refundSplits[0].siteUid')
      assertValidation(await refund(p, '10.00', [split('shop-a', '9.00')]), 'refundSplits')
      assertValidation(await refund(p, '10.00', [{ ...split('shop-a', '10.00'), type: 'X' }]), 'refundSplits[0].type')
      const plain = await api.newPayment(cardPayment())
      assertValidation(await refund(plain, '10.00', [split('shop-a', '10.00')]), 'refundSplits')
      assert.deepEqual((await api.paymentNow(p)).refundedAmount, rub('0.00'))
    })

    test('a merchant with several splits: orderId names the one a refund takes back', async () => {
      const p = await api.newPayment(
        cardPayment({
          paymentSplits: [split('shop-a', '70.00', { orderId: 'x' }), split('shop-a', '30.00', { orderId: 'y' })],
        }),
      )
      assertValidation(await refund(p, '10.00', [split('shop-a', '10.00')]), 'refundSplits[0].siteUid')
      assertValidation(
        await refund(p, '31.00', [split('shop-a', '31.00', { orderId: 'y' })]),
        'refundSplits[0].splitAmount.value',
      )
      assert.equal(
        (await refund(p, '30.00', [split('shop-a', '30.00', { orderId: 'y' })])).body.status.value,
        'COMPLETED',
      )
    })

    test('concurrent refunds of one split never take back more than the split', async () => {
      const p = await splitPayment()
      // five refunds of 20.00 of shop-a (60.00) at once: the payment allows 100.00, the split three of them
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => refund(p, '20.00', [split('shop-a', '20.00', { orderId: 'o-1' })])),
      )
      const done = answers.filter((a) => a.status === 200)
      assert.equal(done.length, 3, answers.map((a) => a.text).join('\n'))
      for (const a of done) assert.equal(a.body.status.value, 'COMPLETED')
      for (const a of answers.filter((x) => x.status !== 200)) assertValidation(a, 'refundSplits[0].splitAmount.value')
      assert.deepEqual((await api.paymentNow(p)).refundedAmount, rub('60.00'))
    })
  })
})
