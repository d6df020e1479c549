// Captures of two-step payments: whole or partial, once; declines for every other state.
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

describe('captures', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite())
  })

  const payment = (body: unknown = twoStepPayment()) => api.newPayment(body)
  const paymentState = (id: string) => api.paymentNow(id)

  function assertCaptureShape(c: any, captureId: string) {
    assert.equal(c.captureId, captureId)
    assert.match(c.createdDateTime, WIRE_TIME)
    assert.match(c.status.changedDateTime, WIRE_TIME)
    assert.equal(typeof c.amount?.value, 'string')
    assert.equal(c.amount.currency, 'RUB')
  }

  const bodies: [string, { body?: unknown; rawBody?: string }][] = [
    ['no body', {}],
    ['an empty body', { rawBody: '' }],
    ['{}', { body: {} }],
  ]
  for (const [label, opts] of bodies) {
    test(`a capture with ${label} captures the whole authorised amount`, async () => {
      const p = await payment()
      const c = uid('cap')
      const r = await api.send('PUT', `/payments/${p}/captures/${c}`, opts)
      assert.equal(r.status, 200, r.text)
      assertCaptureShape(r.body, c)
      assert.equal(r.body.status.value, 'COMPLETED')
      assert.equal(r.body.status.reason, undefined)
      assert.deepEqual(r.body.amount, rub('100.00'))
      const after = await paymentState(p)
      assert.deepEqual(after.capturedAmount, rub('100.00'))
      assert.deepEqual(after.refundedAmount, rub('0.00'))
      assert.equal(after.status.value, 'COMPLETED')
      const read = await api.get(`/payments/${p}/captures/${c}`)
      assert.equal(read.status, 200, read.text)
      assert.deepEqual(read.body, r.body)
    })
  }

  test('a partial capture captures the amount asked for', async () => {
    const p = await payment()
    const c = uid('cap')
    const r = await api.put(`/payments/${p}/captures/${c}`, { amount: rub('60.00') })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'COMPLETED')
    assert.deepEqual(r.body.amount, rub('60.00'))
    assert.deepEqual((await paymentState(p)).capturedAmount, rub('60.00'))
  })

  test('a capture of exactly the authorised amount given explicitly succeeds, rounding down the value', async () => {
    const p = await payment()
    const r = await api.put(`/payments/${p}/captures/${uid('cap')}`, { amount: rub('100.009') })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'COMPLETED')
    assert.deepEqual(r.body.amount, rub('100.00'))
  })

  test('Content-Type with a charset is accepted on a capture', async () => {
    const p = await payment()
    const r = await api.send('PUT', `/payments/${p}/captures/${uid('cap')}`, {
      body: { amount: rub('10.00') },
      headers: { 'Content-Type': 'application/json;charset=UTF-8' },
    })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'COMPLETED')
  })

  test('a capture above the authorised amount is DECLINED INVALID_AMOUNT and captures nothing', async () => {
    const p = await payment()
    const c = uid('cap')
    const r = await api.put(`/payments/${p}/captures/${c}`, { amount: rub('100.01') })
    assert.equal(r.status, 200, r.text)
    assertCaptureShape(r.body, c)
    assert.equal(r.body.status.value, 'DECLINED')
    assert.equal(r.body.status.reason, 'INVALID_AMOUNT')
    assert.deepEqual((await paymentState(p)).capturedAmount, rub('0.00'))
    const read = await api.get(`/payments/${p}/captures/${c}`)
    assert.deepEqual(read.body, r.body, 'the declined capture is readable')
  })

  test('after a declined capture, a valid capture under another id succeeds', async () => {
    const p = await payment()
    const d = await api.put(`/payments/${p}/captures/${uid('cap')}`, { amount: rub('500.00') })
    assert.equal(d.body.status.reason, 'INVALID_AMOUNT')
    const ok = await api.put(`/payments/${p}/captures/${uid('cap')}`)
    assert.equal(ok.body.status.value, 'COMPLETED', ok.text)
    assert.deepEqual((await paymentState(p)).capturedAmount, rub('100.00'))
  })

  test('a new capture after a successful one is 409 payin.incorrect-method-invocation; its replay stays 200', async () => {
    const p = await payment()
    const firstId = uid('cap')
    const first = await api.put(`/payments/${p}/captures/${firstId}`, { amount: rub('40.00') })
    assert.equal(first.body.status.value, 'COMPLETED', first.text)
    const secondId = uid('cap')
    const second = await api.put(`/payments/${p}/captures/${secondId}`, { amount: rub('10.00') })
    assertErrorShape(second, 409, 'payin.incorrect-method-invocation')
    assert.equal(second.body.description, 'Successful capture already done for this payment')
    // nothing was written under the refused id
    assert.equal((await api.get(`/payments/${p}/captures/${secondId}`)).status, 404)
    const replay = await api.put(`/payments/${p}/captures/${firstId}`, { amount: rub('40.00') })
    assert.equal(replay.status, 200, replay.text)
    assert.deepEqual(replay.body, first.body)
    assert.deepEqual((await paymentState(p)).capturedAmount, rub('40.00'))
  })

  test('a new capture after a declined one may still succeed', async () => {
    const p = await payment()
    const declined = await api.put(`/payments/${p}/captures/${uid('cap')}`, { amount: rub('500.00') })
    assert.equal(declined.body.status.reason, 'INVALID_AMOUNT')
    const ok = await api.put(`/payments/${p}/captures/${uid('cap')}`, { amount: rub('10.00') })
    assert.equal(ok.body.status.value, 'COMPLETED', ok.text)
  })

  test('a capture of a SALE payment is DECLINED INVALID_STATE', async () => {
    const p = await payment(cardPayment())
    const r = await api.put(`/payments/${p}/captures/${uid('cap')}`)
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'DECLINED')
    assert.equal(r.body.status.reason, 'INVALID_STATE')
    assert.deepEqual((await paymentState(p)).capturedAmount, rub('100.00'))
  })

  test('a capture of a DECLINED payment is DECLINED INVALID_STATE', async () => {
    const p = await payment(twoStepPayment({}, { pan: '4000000000000002' }))
    const r = await api.put(`/payments/${p}/captures/${uid('cap')}`)
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'DECLINED')
    assert.equal(r.body.status.reason, 'INVALID_STATE')
    const after = await paymentState(p)
    assert.equal(after.status.value, 'DECLINED')
    assert.deepEqual(after.capturedAmount, rub('0.00'))
  })

  test('a capture of a payment waiting for 3-D Secure is DECLINED INVALID_STATE', async () => {
    const p = await payment(twoStepPayment({}, { pan: '4000000000003220' }))
    const r = await api.put(`/payments/${p}/captures/${uid('cap')}`)
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'DECLINED')
    assert.equal(r.body.status.reason, 'INVALID_STATE')
    const after = await paymentState(p)
    assert.equal(after.status.value, 'WAITING')
    assert.deepEqual(after.capturedAmount, rub('0.00'))
  })

  test('a capture of a reversed payment is DECLINED INVALID_STATE', async () => {
    const p = await payment()
    const rev = await api.put(`/payments/${p}/refunds/${uid('ref')}`, { amount: rub('100.00') })
    assert.deepEqual(rev.body.flags, ['REVERSAL'], rev.text)
    const r = await api.put(`/payments/${p}/captures/${uid('cap')}`)
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'DECLINED')
    assert.equal(r.body.status.reason, 'INVALID_STATE')
    assert.deepEqual((await paymentState(p)).capturedAmount, rub('0.00'))
  })

  test("a capture in another currency than the payment's is 400 amount.currency and writes nothing", async () => {
    const p = await payment()
    const c = uid('cap')
    assertValidation(
      await api.put(`/payments/${p}/captures/${c}`, { amount: { value: '10.00', currency: 'USD' } }),
      'amount.currency',
    )
    assertErrorShape(await api.get(`/payments/${p}/captures/${c}`), 404, 'payin.resource.not.found')
    assert.deepEqual((await paymentState(p)).capturedAmount, rub('0.00'))
    const ok = await api.put(`/payments/${p}/captures/${c}`)
    assert.equal(ok.body.status.value, 'COMPLETED', 'the id is still free after the 400')
  })

  test('a capture amount of "0" is 400 amount.value', async () => {
    const p = await payment()
    assertValidation(await api.put(`/payments/${p}/captures/${uid('cap')}`, { amount: rub('0') }), 'amount.value')
  })

  test('a capture with an unknown currency is 400 amount.currency', async () => {
    const p = await payment()
    assertValidation(
      await api.put(`/payments/${p}/captures/${uid('cap')}`, { amount: { value: '1.00', currency: 'rub' } }),
      'amount.currency',
    )
  })

  test('a capture with malformed JSON is 400 http.message.conversion.failed', async () => {
    const p = await payment()
    assertErrorShape(
      await api.send('PUT', `/payments/${p}/captures/${uid('cap')}`, { rawBody: '{"amount":' }),
      400,
      'http.message.conversion.failed',
    )
    assert.deepEqual((await paymentState(p)).capturedAmount, rub('0.00'))
  })

  test("a capture read under another payment's path is 404", async () => {
    const p = await payment()
    const other = await payment()
    const c = uid('cap')
    assert.equal((await api.put(`/payments/${p}/captures/${c}`)).status, 200)
    assertErrorShape(await api.get(`/payments/${other}/captures/${c}`), 404, 'payin.resource.not.found')
  })
})
