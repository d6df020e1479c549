// Every payment belongs to a bill: generated or named, paid once, currency and amount bound to the bill.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  assertErrorShape,
  assertValidation,
  cardPayment,
  client,
  newSite,
  rub,
  twoStepPayment,
  uid,
} from '../support/api.ts'

describe('bills named by payments', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite())
  })

  async function pay(body: unknown, id = uid('pay')) {
    const r = await api.put(`/payments/${id}`, body)
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.paymentId, id)
    return r.body
  }

  test('a payment without billId gets a generated billId, a new one each time', async () => {
    const a = await pay(cardPayment())
    const b = await pay(cardPayment())
    assert.equal(typeof a.billId, 'string')
    assert.ok(a.billId.length > 0)
    assert.notEqual(a.billId, b.billId)
    assert.equal((await api.get(`/payments/${a.paymentId}`)).body.billId, a.billId)
  })

  test('a payment naming a new billId creates that bill and answers its id', async () => {
    const billId = uid('bill')
    const p = await pay(cardPayment({ billId }))
    assert.equal(p.billId, billId)
    assert.equal(p.status.value, 'COMPLETED')
  })

  test('after a COMPLETED payment on a bill, another payment on it is DECLINED BILL_ALREADY_PAID', async () => {
    const billId = uid('bill')
    assert.equal((await pay(cardPayment({ billId }))).status.value, 'COMPLETED')
    const second = await pay(cardPayment({ billId }, { pan: '5555555555554444' }))
    assert.equal(second.status.value, 'DECLINED')
    assert.equal(second.status.reason, 'BILL_ALREADY_PAID')
    assert.equal(second.billId, billId)
    assert.deepEqual(second.capturedAmount, rub('0.00'))
    const refund = await api.put(`/payments/${second.paymentId}/refunds/${uid('ref')}`, { amount: rub('100.00') })
    assert.equal(refund.body.status.reason, 'INVALID_STATE', 'nothing of the declined payment is refundable')
  })

  test('an authorised (two-step) payment pays its bill as well', async () => {
    const billId = uid('bill')
    assert.equal((await pay(twoStepPayment({ billId }))).status.value, 'COMPLETED')
    const second = await pay(twoStepPayment({ billId }))
    assert.equal(second.status.value, 'DECLINED')
    assert.equal(second.status.reason, 'BILL_ALREADY_PAID')
  })

  test('a DECLINED payment leaves the bill payable', async () => {
    const billId = uid('bill')
    const declined = await pay(cardPayment({ billId }, { pan: '4000000000000002' }))
    assert.equal(declined.status.reason, 'ACQUIRING_DECLINED')
    assert.equal(declined.billId, billId)
    const again = await pay(cardPayment({ billId }, { pan: '4000000000009995' }))
    assert.equal(again.status.reason, 'ACQUIRING_INSUFFICIENT_FUNDS')
    const ok = await pay(cardPayment({ billId }))
    assert.equal(ok.status.value, 'COMPLETED')
    assert.equal(ok.billId, billId)
  })

  test("a payment in another currency than the bill's is 400 amount.currency and creates nothing", async () => {
    const billId = uid('bill')
    await pay(cardPayment({ billId }, { pan: '4000000000000002' }))
    const id = uid('pay')
    assertValidation(
      await api.put(`/payments/${id}`, cardPayment({ billId, amount: { value: '100.00', currency: 'USD' } })),
      'amount.currency',
    )
    assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
    assert.equal((await pay(cardPayment({ billId }))).status.value, 'COMPLETED', 'the bill is still payable')
  })

  test("a payment of another amount than the bill's is 400 amount.value and creates nothing", async () => {
    const billId = uid('bill')
    await pay(cardPayment({ billId }, { pan: '4000000000000002' }))
    const id = uid('pay')
    assertValidation(await api.put(`/payments/${id}`, cardPayment({ billId, amount: rub('99.99') })), 'amount.value')
    assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
  })

  test('the same amount written differently matches the bill', async () => {
    const billId = uid('bill')
    await pay(cardPayment({ billId, amount: rub('100') }, { pan: '4000000000000002' }))
    const ok = await pay(cardPayment({ billId, amount: { value: 100, currency: 'RUB' } }))
    assert.equal(ok.status.value, 'COMPLETED')
  })

  test('a malformed billId is 400 billId', async () => {
    const id = uid('pay')
    assertValidation(await api.put(`/payments/${id}`, cardPayment({ billId: 'bill with spaces' })), 'billId')
    assertValidation(await api.put(`/payments/${id}`, cardPayment({ billId: 'b'.repeat(201) })), 'billId')
    assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
  })

  test('bill ids are per site: a paid bill of one site does not affect the same billId of another', async () => {
    const other = client(await newSite('other'))
    const billId = uid('bill')
    assert.equal((await pay(cardPayment({ billId }))).status.value, 'COMPLETED')
    const r = await other.put(
      `/payments/${uid('pay')}`,
      cardPayment({ billId, amount: { value: '5.00', currency: 'EUR' } }),
    )
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'COMPLETED')
    assert.equal(r.body.billId, billId)
  })
})
