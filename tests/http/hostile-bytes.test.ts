// Hostile bytes: whitespace around amounts.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { assertErrorShape, assertValidation, billRequest, cardPayment, client, newSite, rub, twoStepPayment, uid } from '../support/api.ts'

describe('an amount with whitespace around it is 400 validation.error (plain decimal notation)', () => {
  let api: ReturnType<typeof client>
  let held: string
  let paid: string
  before(async () => {
    api = client(await newSite('spaces'))
    held = await api.newPayment(twoStepPayment())
    paid = await api.newPayment(cardPayment())
  })

  for (const value of [' 10.00', '10.00 ', '\t10', '10\n', '\u00a010.00']) {
    const label = JSON.stringify(value)
    test(`payment ${label}`, async () => {
      const id = uid('pay')
      assertValidation(await api.put(`/payments/${id}`, cardPayment({ amount: rub(value) })), 'amount.value')
      assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
    })

    test(`bill ${label}`, async () => {
      const id = uid('bill')
      assertValidation(await api.put(`/bills/${id}`, billRequest({ amount: rub(value) })), 'amount.value')
      assertErrorShape(await api.get(`/bills/${id}`), 404, 'payin.resource.not.found')
    })

    test(`capture ${label}`, async () => {
      const id = uid('cap')
      assertValidation(await api.put(`/payments/${held}/captures/${id}`, { amount: rub(value) }), 'amount.value')
      assertErrorShape(await api.get(`/payments/${held}/captures/${id}`), 404, 'payin.resource.not.found')
    })

    test(`refund ${label}`, async () => {
      const id = uid('ref')
      assertValidation(await api.put(`/payments/${paid}/refunds/${id}`, { amount: rub(value) }), 'amount.value')
      assertErrorShape(await api.get(`/payments/${paid}/refunds/${id}`), 404, 'payin.resource.not.found')
    })
  }

  test('receipt money with whitespace names the item field', async () => {
    const body = cardPayment({ amount: rub('10.00'), receipt: { items: [{ name: 'Tea', price: ' 10.00', quantity: '1 ', total: '10.00' }] } })
    const r = await api.put(`/payments/${uid('pay')}`, body)
    assertValidation(r, 'receipt.items[0].price')
    assertValidation(r, 'receipt.items[0].quantity')
  })

  test('the captured and refunded amounts stayed 0.00', async () => {
    assert.equal((await api.paymentNow(held)).capturedAmount.value, '0.00')
    assert.equal((await api.paymentNow(paid)).refundedAmount.value, '0.00')
  })
})
