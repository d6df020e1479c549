// Idempotency: replays answer the same resource, a different request under a used id is a 409, ids are
// per site; and concurrent requests never charge, capture or refund twice.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  assertErrorShape,
  cardPayment,
  client,
  newSite,
  rub,
  twoStepPayment,
  uid,
  type Answer,
} from '../support/api.ts'

describe('idempotent replays and conflicts', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite())
  })

  async function create(body: unknown, id = uid('pay')) {
    const r = await api.put(`/payments/${id}`, body)
    assert.equal(r.status, 200, r.text)
    return r.body
  }

  test('the same payment PUT again answers 200 with the identical body', async () => {
    const id = uid('pay')
    const first = await create(cardPayment(), id)
    await new Promise((r) => setTimeout(r, 20)) // a second creation would carry a later time
    const again = await api.put(`/payments/${id}`, cardPayment())
    assert.equal(again.status, 200, again.text)
    assert.deepEqual(again.body, first)
  })

  test('amounts "100", "100.00" and 100 are the same request', async () => {
    const id = uid('pay')
    const first = await create(cardPayment({ amount: { value: '100', currency: 'RUB' } }), id)
    for (const value of ['100.00', 100, '100.0']) {
      const r = await api.put(`/payments/${id}`, cardPayment({ amount: { value, currency: 'RUB' } }))
      assert.equal(r.status, 200, `${JSON.stringify(value)}: ${r.text}`)
      assert.deepEqual(r.body, first)
    }
  })

  test('a replay of a declined payment answers the same decline, not a new attempt', async () => {
    const id = uid('pay')
    const first = await create(cardPayment({}, { pan: '4000000000009995' }), id)
    assert.equal(first.status.reason, 'ACQUIRING_INSUFFICIENT_FUNDS')
    const again = await api.put(`/payments/${id}`, cardPayment({}, { pan: '4000000000009995' }))
    assert.deepEqual(again.body, first)
  })

  test('a replay answers the current state of the payment (after a capture)', async () => {
    const id = uid('pay')
    const first = await create(twoStepPayment(), id)
    assert.equal((await api.put(`/payments/${id}/captures/${uid('cap')}`)).body.status.value, 'COMPLETED')
    const again = await api.put(`/payments/${id}`, twoStepPayment())
    assert.equal(again.status, 200, again.text)
    assert.equal(again.body.createdDateTime, first.createdDateTime)
    assert.deepEqual(again.body.capturedAmount, rub('100.00'))
    assert.deepEqual(again.body, (await api.get(`/payments/${id}`)).body)
  })

  const differences: [string, unknown][] = [
    ['another amount', cardPayment({ amount: rub('100.01') })],
    ['another currency', cardPayment({ amount: { value: '100.00', currency: 'USD' } })],
    ['another card number', cardPayment({}, { pan: '5555555555554444' })],
    ['another CVV', cardPayment({}, { cvv2: '124' })],
    ['another expiry', cardPayment({}, { expiryDate: '11/30' })],
    ['other flags', cardPayment({ flags: [] })],
    ['a comment', cardPayment({ comment: 'changed' })],
    ['a customer', cardPayment({ customer: { email: 'x@example.com' } })],
  ]
  for (const [what, body] of differences) {
    test(`the same paymentId with ${what} is 409 payin.request.conflict and the payment is unchanged`, async () => {
      const id = uid('pay')
      const first = await create(cardPayment(), id)
      assertErrorShape(await api.put(`/payments/${id}`, body), 409, 'payin.request.conflict')
      const read = await api.get(`/payments/${id}`)
      assert.deepEqual(read.body, first)
    })
  }

  test('a 409 is answered the same way on a repeat, and the original request still replays', async () => {
    const id = uid('pay')
    const first = await create(cardPayment(), id)
    assertErrorShape(
      await api.put(`/payments/${id}`, cardPayment({ amount: rub('1.00') })),
      409,
      'payin.request.conflict',
    )
    assertErrorShape(
      await api.put(`/payments/${id}`, cardPayment({ amount: rub('1.00') })),
      409,
      'payin.request.conflict',
    )
    assert.deepEqual((await api.put(`/payments/${id}`, cardPayment())).body, first)
  })

  test('the same capture PUT again answers the identical capture and captures once', async () => {
    const p = (await create(twoStepPayment())).paymentId
    const c = uid('cap')
    const first = await api.put(`/payments/${p}/captures/${c}`, { amount: rub('60.00') })
    assert.equal(first.body.status.value, 'COMPLETED', first.text)
    const again = await api.put(`/payments/${p}/captures/${c}`, { amount: rub('60') })
    assert.equal(again.status, 200, again.text)
    assert.deepEqual(again.body, first.body)
    assert.deepEqual((await api.get(`/payments/${p}`)).body.capturedAmount, rub('60.00'))
  })

  test('a capture with no body and the same capture with {} are the same request', async () => {
    const p = (await create(twoStepPayment())).paymentId
    const c = uid('cap')
    const first = await api.put(`/payments/${p}/captures/${c}`)
    assert.equal(first.body.status.value, 'COMPLETED', first.text)
    const again = await api.put(`/payments/${p}/captures/${c}`, {})
    assert.equal(again.status, 200, again.text)
    assert.deepEqual(again.body, first.body)
  })

  test('a replay of a declined capture answers the same decline', async () => {
    const p = (await create(cardPayment())).paymentId
    const c = uid('cap')
    const first = await api.put(`/payments/${p}/captures/${c}`)
    assert.equal(first.body.status.reason, 'INVALID_STATE', first.text)
    assert.deepEqual((await api.put(`/payments/${p}/captures/${c}`)).body, first.body)
  })

  test('the same captureId with another amount is 409 and the capture is unchanged', async () => {
    const p = (await create(twoStepPayment())).paymentId
    const c = uid('cap')
    const first = await api.put(`/payments/${p}/captures/${c}`, { amount: rub('60.00') })
    assert.equal(first.body.status.value, 'COMPLETED', first.text)
    assertErrorShape(
      await api.put(`/payments/${p}/captures/${c}`, { amount: rub('70.00') }),
      409,
      'payin.request.conflict',
    )
    assert.deepEqual((await api.get(`/payments/${p}/captures/${c}`)).body, first.body)
    assert.deepEqual((await api.get(`/payments/${p}`)).body.capturedAmount, rub('60.00'))
  })

  test('the same captureId on a different payment of the site is 409', async () => {
    const p1 = (await create(twoStepPayment())).paymentId
    const p2 = (await create(twoStepPayment())).paymentId
    const c = uid('cap')
    assert.equal((await api.put(`/payments/${p1}/captures/${c}`)).body.status.value, 'COMPLETED')
    assertErrorShape(await api.put(`/payments/${p2}/captures/${c}`), 409, 'payin.request.conflict')
    assert.deepEqual((await api.get(`/payments/${p2}`)).body.capturedAmount, rub('0.00'))
  })

  test('the same refund PUT again answers the identical refund and refunds once', async () => {
    const p = (await create(cardPayment())).paymentId
    const r = uid('ref')
    const first = await api.put(`/payments/${p}/refunds/${r}`, { amount: rub('30.00') })
    assert.equal(first.body.status.value, 'COMPLETED', first.text)
    for (const value of ['30', 30, '30.00']) {
      const again = await api.put(`/payments/${p}/refunds/${r}`, { amount: { value, currency: 'RUB' } })
      assert.equal(again.status, 200, again.text)
      assert.deepEqual(again.body, first.body)
    }
    assert.deepEqual((await api.get(`/payments/${p}`)).body.refundedAmount, rub('30.00'))
    assert.equal((await api.get(`/payments/${p}/refunds`)).body.length, 1)
  })

  test('the same refundId with another amount is 409 and nothing changes', async () => {
    const p = (await create(cardPayment())).paymentId
    const r = uid('ref')
    const first = await api.put(`/payments/${p}/refunds/${r}`, { amount: rub('30.00') })
    assert.equal(first.body.status.value, 'COMPLETED', first.text)
    assertErrorShape(
      await api.put(`/payments/${p}/refunds/${r}`, { amount: rub('40.00') }),
      409,
      'payin.request.conflict',
    )
    assert.deepEqual((await api.get(`/payments/${p}/refunds/${r}`)).body, first.body)
    assert.deepEqual((await api.get(`/payments/${p}`)).body.refundedAmount, rub('30.00'))
  })

  test('the same refundId on a different payment of the site is 409', async () => {
    const p1 = (await create(cardPayment())).paymentId
    const p2 = (await create(cardPayment())).paymentId
    const r = uid('ref')
    assert.equal(
      (await api.put(`/payments/${p1}/refunds/${r}`, { amount: rub('10.00') })).body.status.value,
      'COMPLETED',
    )
    assertErrorShape(
      await api.put(`/payments/${p2}/refunds/${r}`, { amount: rub('10.00') }),
      409,
      'payin.request.conflict',
    )
    assert.deepEqual((await api.get(`/payments/${p2}`)).body.refundedAmount, rub('0.00'))
    assert.deepEqual((await api.get(`/payments/${p2}/refunds`)).body, [])
  })
})

describe('ids are per site', () => {
  test('the same paymentId in two sites is two payments', async () => {
    const a = client(await newSite('a'))
    const b = client(await newSite('b'))
    const id = uid('pay')
    const pa = await a.put(`/payments/${id}`, cardPayment({ amount: rub('10.00') }))
    const pb = await b.put(`/payments/${id}`, twoStepPayment({ amount: rub('20.00') }, { pan: '5555555555554444' }))
    assert.equal(pa.status, 200, pa.text)
    assert.equal(pb.status, 200, pb.text)
    assert.equal(pa.body.paymentId, id)
    assert.equal(pb.body.paymentId, id)
    assert.deepEqual((await a.get(`/payments/${id}`)).body.amount, rub('10.00'))
    assert.deepEqual((await b.get(`/payments/${id}`)).body.amount, rub('20.00'))
    assert.deepEqual((await b.get(`/payments/${id}`)).body.paymentMethod.maskedPan, '555555******4444')
  })

  test('the same refundId and captureId in two sites are independent', async () => {
    const a = client(await newSite('a'))
    const b = client(await newSite('b'))
    const pay = uid('pay')
    const cap = uid('cap')
    const ref = uid('ref')
    for (const api of [a, b]) assert.equal((await api.put(`/payments/${pay}`, twoStepPayment())).status, 200)
    const ca = await a.put(`/payments/${pay}/captures/${cap}`, { amount: rub('10.00') })
    const cb = await b.put(`/payments/${pay}/captures/${cap}`, { amount: rub('20.00') })
    assert.equal(ca.body.status.value, 'COMPLETED', ca.text)
    assert.equal(cb.body.status.value, 'COMPLETED', cb.text)
    const ra = await a.put(`/payments/${pay}/refunds/${ref}`, { amount: rub('5.00') })
    const rb = await b.put(`/payments/${pay}/refunds/${ref}`, { amount: rub('7.00') })
    assert.equal(ra.body.status.value, 'COMPLETED', ra.text)
    assert.equal(rb.body.status.value, 'COMPLETED', rb.text)
    assert.deepEqual((await a.get(`/payments/${pay}/refunds/${ref}`)).body.amount, rub('5.00'))
    assert.deepEqual((await b.get(`/payments/${pay}/refunds/${ref}`)).body.amount, rub('7.00'))
  })
})

describe('concurrent requests', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite())
  })

  const statusesOf = (answers: Answer[]) => answers.map((a) => a.status)

  test('20 concurrent identical payment PUTs: all 200, one payment, identical bodies', async () => {
    const id = uid('pay')
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.put(`/payments/${id}`, cardPayment())))
    assert.deepEqual(statusesOf(answers), Array(20).fill(200), answers.find((a) => a.status !== 200)?.text ?? '')
    const first = answers[0].body
    for (const a of answers) assert.deepEqual(a.body, first)
    assert.equal(first.status.value, 'COMPLETED')
    const read = await api.get(`/payments/${id}`)
    assert.deepEqual(read.body, first)
  })

  test('20 concurrent identical PUTs on a fresh bill: one payment pays it, no decline', async () => {
    const id = uid('pay')
    const billId = uid('bill')
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.put(`/payments/${id}`, cardPayment({ billId }))),
    )
    assert.deepEqual(statusesOf(answers), Array(20).fill(200), answers.find((a) => a.status !== 200)?.text ?? '')
    for (const a of answers) assert.deepEqual(a.body, answers[0].body)
    assert.equal(answers[0].body.status.value, 'COMPLETED')
    assert.equal(answers[0].body.billId, billId)
  })

  test('20 concurrent refunds of 20.00 on a 100.00 payment: exactly 5 COMPLETED, 15 DECLINED INVALID_AMOUNT', async () => {
    const p = uid('pay')
    assert.equal((await api.put(`/payments/${p}`, cardPayment())).status, 200)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.put(`/payments/${p}/refunds/${uid('ref')}`, { amount: rub('20.00') })),
    )
    assert.deepEqual(statusesOf(answers), Array(20).fill(200), answers.find((a) => a.status !== 200)?.text ?? '')
    const completed = answers.filter((a) => a.body.status.value === 'COMPLETED')
    const declined = answers.filter((a) => a.body.status.value === 'DECLINED')
    assert.equal(completed.length, 5)
    assert.equal(declined.length, 15)
    for (const d of declined) assert.equal(d.body.status.reason, 'INVALID_AMOUNT')
    assert.deepEqual((await api.get(`/payments/${p}`)).body.refundedAmount, rub('100.00'))
    const list = await api.get(`/payments/${p}/refunds`)
    assert.equal(list.body.length, 20)
    assert.equal(list.body.filter((r: any) => r.status.value === 'COMPLETED').length, 5)
  })

  test('10 concurrent captures with distinct ids on one authorised payment: exactly one COMPLETED, the others 409', async () => {
    const p = uid('pay')
    assert.equal((await api.put(`/payments/${p}`, twoStepPayment())).status, 200)
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.put(`/payments/${p}/captures/${uid('cap')}`, { amount: rub(`${50 + i}.00`) }),
      ),
    )
    const completed = answers.filter((a) => a.status === 200)
    assert.equal(completed.length, 1, answers.map((a) => a.text).join('\n'))
    assert.equal(completed[0].body.status.value, 'COMPLETED')
    // the others came after it: a new capture of a captured payment
    for (const a of answers) if (a !== completed[0]) assertErrorShape(a, 409, 'payin.incorrect-method-invocation')
    assert.deepEqual((await api.get(`/payments/${p}`)).body.capturedAmount, completed[0].body.amount)
  })

  test('20 concurrent identical refund PUTs: one refund, identical bodies', async () => {
    const p = uid('pay')
    assert.equal((await api.put(`/payments/${p}`, cardPayment())).status, 200)
    const r = uid('ref')
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.put(`/payments/${p}/refunds/${r}`, { amount: rub('35.00') })),
    )
    assert.deepEqual(statusesOf(answers), Array(20).fill(200), answers.find((a) => a.status !== 200)?.text ?? '')
    for (const a of answers) assert.deepEqual(a.body, answers[0].body)
    assert.equal(answers[0].body.status.value, 'COMPLETED')
    assert.deepEqual((await api.get(`/payments/${p}`)).body.refundedAmount, rub('35.00'))
    assert.equal((await api.get(`/payments/${p}/refunds`)).body.length, 1)
  })

  test('concurrent refunds and a capture on a hold never move more than was authorised, nor refund more than captured', async () => {
    const p = uid('pay')
    assert.equal((await api.put(`/payments/${p}`, twoStepPayment())).status, 200)
    const answers = await Promise.all([
      api.put(`/payments/${p}/captures/${uid('cap')}`, { amount: rub('50.00') }),
      ...Array.from({ length: 10 }, () => api.put(`/payments/${p}/refunds/${uid('ref')}`, { amount: rub('20.00') })),
    ])
    assert.deepEqual(statusesOf(answers), Array(11).fill(200), answers.find((a) => a.status !== 200)?.text ?? '')
    // a refund before the capture is a (partial) reversal of the hold; after it, a refund of what was captured
    const captured = answers[0].body.status.value === 'COMPLETED' ? 50 : 0
    const done = answers.slice(1).filter((a) => a.body.status.value === 'COMPLETED')
    const reversals = done.filter((a) => a.body.flags.includes('REVERSAL')).length
    const refunds = done.length - reversals
    assert.ok(captured + reversals * 20 <= 100, `${reversals} reversals of 20.00 and ${captured}.00 captured of 100.00`)
    assert.ok(refunds * 20 <= captured, `${refunds} refunds of 20.00 on ${captured}.00 captured`)
    const after = (await api.get(`/payments/${p}`)).body
    assert.deepEqual(after.capturedAmount, rub(`${captured}.00`))
    assert.deepEqual(after.refundedAmount, rub(`${done.length * 20}.00`))
  })
})
