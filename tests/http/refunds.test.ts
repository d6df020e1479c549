// Refunds: partial and whole, never above what was captured; reversals of uncaptured holds; the list.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  WIRE_TIME,
  assertErrorShape,
  assertValidation,
  cardPayment,
  client,
  newSite,
  rub,
  twoStepPayment,
  uid,
} from '../support/api.ts'

describe('refunds', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite())
  })

  const payment = (body: unknown = cardPayment()) => api.newPayment(body)
  const paymentState = (id: string) => api.paymentNow(id)

  async function refund(paymentId: string, value: string, refundId = uid('ref')) {
    const r = await api.put(`/payments/${paymentId}/refunds/${refundId}`, { amount: rub(value) })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.refundId, refundId)
    assert.match(r.body.createdDateTime, WIRE_TIME)
    assert.match(r.body.status.changedDateTime, WIRE_TIME)
    return r.body
  }

  test('a partial refund of a SALE payment is COMPLETED with flags [] and counted in refundedAmount', async () => {
    const p = await payment()
    const r = await refund(p, '30.00')
    assert.equal(r.status.value, 'COMPLETED')
    assert.equal(r.status.reason, undefined)
    assert.deepEqual(r.amount, rub('30.00'))
    assert.deepEqual(r.flags, [])
    const after = await paymentState(p)
    assert.deepEqual(after.refundedAmount, rub('30.00'))
    assert.deepEqual(after.capturedAmount, rub('100.00'))
    assert.equal(after.status.value, 'COMPLETED')
    const read = await api.get(`/payments/${p}/refunds/${r.refundId}`)
    assert.equal(read.status, 200, read.text)
    assert.deepEqual(read.body, r)
  })

  test('partial refunds add up to the captured amount and no further', async () => {
    const p = await payment()
    assert.equal((await refund(p, '30.00')).status.value, 'COMPLETED')
    assert.equal((await refund(p, '70.00')).status.value, 'COMPLETED')
    const over = await refund(p, '0.01')
    assert.equal(over.status.value, 'DECLINED')
    assert.equal(over.status.reason, 'INVALID_AMOUNT')
    assert.deepEqual((await paymentState(p)).refundedAmount, rub('100.00'))
  })

  test('a refund above the captured amount is DECLINED INVALID_AMOUNT and refunds nothing', async () => {
    const p = await payment()
    const r = await refund(p, '100.01')
    assert.equal(r.status.value, 'DECLINED')
    assert.equal(r.status.reason, 'INVALID_AMOUNT')
    assert.deepEqual(r.amount, rub('100.01'))
    assert.deepEqual((await paymentState(p)).refundedAmount, rub('0.00'))
    const read = await api.get(`/payments/${p}/refunds/${r.refundId}`)
    assert.deepEqual(read.body, r, 'the declined refund is readable')
  })

  test('a declined refund does not count: a following refund of the whole amount succeeds', async () => {
    const p = await payment()
    assert.equal((await refund(p, '150.00')).status.reason, 'INVALID_AMOUNT')
    const ok = await refund(p, '100.00')
    assert.equal(ok.status.value, 'COMPLETED')
    assert.deepEqual(ok.flags, [])
    assert.deepEqual((await paymentState(p)).refundedAmount, rub('100.00'))
  })

  test('the refund list holds the refunds in creation order, declined ones included', async () => {
    const p = await payment()
    const made = [
      await refund(p, '10.00', uid('z')),
      await refund(p, '200.00', uid('a')),
      await refund(p, '20.00', uid('m')),
    ]
    const list = await api.get(`/payments/${p}/refunds`)
    assert.equal(list.status, 200, list.text)
    assert.deepEqual(list.body, made)
    assert.deepEqual((await paymentState(p)).refundedAmount, rub('30.00'))
  })

  test('a payment without refunds has an empty refund list', async () => {
    const p = await payment()
    const list = await api.get(`/payments/${p}/refunds`)
    assert.equal(list.status, 200, list.text)
    assert.deepEqual(list.body, [])
  })

  test('a refund of the whole amount of an uncaptured two-step payment is a reversal', async () => {
    const p = await payment(twoStepPayment())
    const r = await refund(p, '100.00')
    assert.equal(r.status.value, 'COMPLETED')
    assert.deepEqual(r.flags, ['REVERSAL'])
    assert.deepEqual(r.amount, rub('100.00'))
    const after = await paymentState(p)
    assert.deepEqual(after.refundedAmount, rub('100.00'))
    assert.deepEqual(after.capturedAmount, rub('0.00'))
    const cap = await api.put(`/payments/${p}/captures/${uid('cap')}`)
    assert.equal(cap.status, 200, cap.text)
    assert.equal(cap.body.status.value, 'DECLINED')
    assert.equal(cap.body.status.reason, 'INVALID_STATE')
    assert.deepEqual((await paymentState(p)).capturedAmount, rub('0.00'))
  })

  test('after a reversal no further refund succeeds', async () => {
    const p = await payment(twoStepPayment())
    assert.deepEqual((await refund(p, '100.00')).flags, ['REVERSAL'])
    const again = await refund(p, '100.00')
    assert.equal(again.status.value, 'DECLINED')
    assert.deepEqual((await paymentState(p)).refundedAmount, rub('100.00'))
  })

  test('a partial refund of an uncaptured two-step payment is a partial reversal; more than it holds is refused', async () => {
    const p = await payment(twoStepPayment())
    const over = await refund(p, '100.01')
    assert.equal(over.status.value, 'DECLINED')
    assert.equal(over.status.reason, 'INVALID_AMOUNT')
    const r = await refund(p, '50.00')
    assert.equal(r.status.value, 'COMPLETED')
    assert.deepEqual(r.flags, ['REVERSAL'])
    const after = await paymentState(p)
    assert.deepEqual(after.refundedAmount, rub('50.00'))
    const cap = await api.put(`/payments/${p}/captures/${uid('cap')}`)
    assert.equal(cap.body.status.value, 'COMPLETED', 'what remains of the hold is still capturable')
    assert.deepEqual(cap.body.amount, rub('50.00'), 'by default, all that remains')
  })

  test('after a partial capture of 60.00 of 100.00, refunds up to 60.00 succeed and more is INVALID_AMOUNT', async () => {
    const p = await payment(twoStepPayment())
    const cap = await api.put(`/payments/${p}/captures/${uid('cap')}`, { amount: rub('60.00') })
    assert.equal(cap.body.status.value, 'COMPLETED', cap.text)
    const over = await refund(p, '60.01')
    assert.equal(over.status.value, 'DECLINED')
    assert.equal(over.status.reason, 'INVALID_AMOUNT')
    const a = await refund(p, '40.00')
    assert.equal(a.status.value, 'COMPLETED')
    assert.deepEqual(a.flags, [])
    const b = await refund(p, '20.00')
    assert.equal(b.status.value, 'COMPLETED')
    const c = await refund(p, '0.01')
    assert.equal(c.status.value, 'DECLINED')
    assert.equal(c.status.reason, 'INVALID_AMOUNT')
    const after = await paymentState(p)
    assert.deepEqual(after.capturedAmount, rub('60.00'))
    assert.deepEqual(after.refundedAmount, rub('60.00'))
  })

  test('a refund of a captured two-step payment is a normal refund (flags [])', async () => {
    const p = await payment(twoStepPayment())
    assert.equal((await api.put(`/payments/${p}/captures/${uid('cap')}`)).body.status.value, 'COMPLETED')
    const r = await refund(p, '100.00')
    assert.equal(r.status.value, 'COMPLETED')
    assert.deepEqual(r.flags, [])
    assert.deepEqual((await paymentState(p)).refundedAmount, rub('100.00'))
  })

  test('a refund of a DECLINED payment is DECLINED INVALID_STATE', async () => {
    const p = await payment(cardPayment({}, { pan: '4000000000000002' }))
    const r = await refund(p, '100.00')
    assert.equal(r.status.value, 'DECLINED')
    assert.equal(r.status.reason, 'INVALID_STATE')
    assert.deepEqual((await paymentState(p)).refundedAmount, rub('0.00'))
  })

  test('a refund of a payment waiting for 3-D Secure is DECLINED INVALID_STATE', async () => {
    const p = await payment(cardPayment({}, { pan: '4000000000003220' }))
    const r = await refund(p, '100.00')
    assert.equal(r.status.value, 'DECLINED')
    assert.equal(r.status.reason, 'INVALID_STATE')
    const after = await paymentState(p)
    assert.equal(after.status.value, 'WAITING')
    assert.deepEqual(after.refundedAmount, rub('0.00'))
  })

  test('a refund of a payment waiting for a one-time code is DECLINED INVALID_STATE', async () => {
    const p = await payment(cardPayment({}, { pan: '4000000000001000' }))
    const r = await refund(p, '1.00')
    assert.equal(r.status.value, 'DECLINED')
    assert.equal(r.status.reason, 'INVALID_STATE')
  })

  test("a refund in another currency than the payment's is 400 amount.currency and writes nothing", async () => {
    const p = await payment()
    const id = uid('ref')
    assertValidation(
      await api.put(`/payments/${p}/refunds/${id}`, { amount: { value: '10.00', currency: 'EUR' } }),
      'amount.currency',
    )
    assertErrorShape(await api.get(`/payments/${p}/refunds/${id}`), 404, 'payin.resource.not.found')
    assert.deepEqual((await paymentState(p)).refundedAmount, rub('0.00'))
    assert.deepEqual((await api.get(`/payments/${p}/refunds`)).body, [])
  })

  test('a refund without amount is 400 naming amount', async () => {
    const p = await payment()
    const r = await api.put(`/payments/${p}/refunds/${uid('ref')}`, {})
    assertErrorShape(r, 400, 'validation.error')
    assert.ok(
      Object.keys(r.body.cause ?? {}).some((k) => k.startsWith('amount')),
      r.text,
    )
  })

  test('a refund without a body is 400 http.message.conversion.failed', async () => {
    const p = await payment()
    assertErrorShape(
      await api.send('PUT', `/payments/${p}/refunds/${uid('ref')}`),
      400,
      'http.message.conversion.failed',
    )
  })

  for (const [value, why] of [
    ['0', 'zero'],
    ['-1.00', 'negative'],
    ['1e1', 'exponent notation'],
  ]) {
    test(`a refund amount that is ${why} is 400 amount.value`, async () => {
      const p = await payment()
      assertValidation(await api.put(`/payments/${p}/refunds/${uid('ref')}`, { amount: rub(value) }), 'amount.value')
      assert.deepEqual((await paymentState(p)).refundedAmount, rub('0.00'))
    })
  }

  test('a refund amount is rounded down to two decimals', async () => {
    const p = await payment()
    const r = await refund(p, '10.009')
    assert.deepEqual(r.amount, rub('10.00'))
    assert.deepEqual((await paymentState(p)).refundedAmount, rub('10.00'))
  })

  test("a refund read under another payment's path is 404", async () => {
    const p = await payment()
    const other = await payment()
    const r = await refund(p, '5.00')
    assertErrorShape(await api.get(`/payments/${other}/refunds/${r.refundId}`), 404, 'payin.resource.not.found')
    assert.deepEqual((await api.get(`/payments/${other}/refunds`)).body, [])
  })
})
