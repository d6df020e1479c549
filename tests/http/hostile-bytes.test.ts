// Hostile bytes: NUL characters in JSON strings (PostgreSQL text refuses U+0000), whitespace around
// amounts.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { assertErrorShape, assertValidation, billRequest, cardPayment, client, newSite, request, rub, twoStepPayment, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'

const NUL = '\u0000'

/** a receipt of one item adding up to `value`, with the item's name given */
const receipt = (name: string, value = '100.00') => ({ items: [{ name, price: value, quantity: 1, total: value }] })

describe('a NUL character in any string of a JSON body is 400 validation.error naming the field; nothing is written', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('nul'))
  })

  const paymentCases: [string, Record<string, unknown>, string][] = [
    ['comment', { comment: `a${NUL}b` }, 'comment'],
    ['customer.email', { customer: { email: `payer${NUL}@example.com` } }, 'customer.email'],
    ['customer.name', { customer: { name: `Ivan${NUL}` } }, 'customer.name'],
    ['customer.account', { customer: { account: `${NUL}acc` } }, 'customer.account'],
    ['customer.phone', { customer: { phone: `7900${NUL}` } }, 'customer.phone'],
    ['receipt.items[0].name', { receipt: receipt(`Tea${NUL}`) }, 'receipt.items[0].name'],
    ['callbackUrl', { callbackUrl: `https://shop.example.com/n${NUL}` }, 'callbackUrl'],
    ['an unknown field', { somethingNew: { note: `x${NUL}` } }, 'somethingNew.note'],
  ]
  for (const [what, over, field] of paymentCases) {
    test(`payment PUT: NUL in ${what}`, async () => {
      const id = uid('pay')
      assertValidation(await api.put(`/payments/${id}`, cardPayment(over)), field)
      assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
    })
  }

  test('payment PUT: NUL in the card number names paymentMethod.pan and the answer does not echo it', async () => {
    const id = uid('pay')
    const r = await api.put(`/payments/${id}`, cardPayment({}, { pan: `4111111111111111${NUL}` }))
    assertValidation(r, 'paymentMethod.pan')
    assert.ok(!r.text.includes('4111111111111111'), r.text)
    assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
  })

  const billCases: [string, Record<string, unknown>, string][] = [
    ['comment', { comment: `a${NUL}b` }, 'comment'],
    ['customer.email', { customer: { email: `payer${NUL}@example.com` } }, 'customer.email'],
    ['customer.name', { customer: { name: `Ivan${NUL}` } }, 'customer.name'],
    ['customer.account', { customer: { account: `acc${NUL}` } }, 'customer.account'],
    ['customer.phone', { customer: { phone: `${NUL}` } }, 'customer.phone'],
    ['customFields.x', { customFields: { x: `one${NUL}two` } }, 'customFields.x'],
    ['a customFields key', { customFields: { [`a${NUL}b`]: 'v' } }, 'customFields.a\\u0000b'],
    ['receipt.items[0].name', { amount: rub('100.00'), receipt: receipt(`Tea${NUL}`) }, 'receipt.items[0].name'],
    ['successUrl', { successUrl: `https://shop.example.com/ok${NUL}` }, 'successUrl'],
  ]
  for (const [what, over, field] of billCases) {
    test(`bill PUT: NUL in ${what}`, async () => {
      const id = uid('bill')
      assertValidation(await api.put(`/bills/${id}`, billRequest(over)), field)
      assertErrorShape(await api.get(`/bills/${id}`), 404, 'payin.resource.not.found')
    })
  }

  test('every NUL is named, beside the schema\'s own problems', async () => {
    const r = await api.put(`/payments/${uid('pay')}`, cardPayment({ comment: NUL, customer: { name: NUL }, amount: rub('0') }))
    for (const field of ['comment', 'customer.name', 'amount.value']) assertValidation(r, field)
  })

  test('a lone surrogate (JSON "\\ud800", which jsonb refuses) is 400 naming the field, and nothing is written', async () => {
    const id = uid('pay')
    const r = await api.put(`/payments/${id}`, cardPayment({ customer: { name: 'Ivan\ud800' }, comment: '\udc00x' }))
    for (const field of ['customer.name', 'comment']) assertValidation(r, field)
    assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
    const bill = uid('bill')
    assertValidation(await api.put(`/bills/${bill}`, billRequest({ customFields: { x: '\ud83d' } })), 'customFields.x')
    assertErrorShape(await api.get(`/bills/${bill}`), 404, 'payin.resource.not.found')
  })

  test('other control characters are kept: a comment with \\u0001, \\u001f and \\u007f is accepted and answered as sent', async () => {
    const comment = 'a\u0001b\u001fc\u007fd\te'
    const r = await api.put(`/payments/${uid('pay')}`, cardPayment({ comment }))
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.comment, comment)
  })

  describe('the payment page\'s JSON endpoint', () => {
    let invoiceUid: string
    before(async () => {
      // an open bill: the payer types the amount
      const bill = await api.put(`/bills/${uid('bill')}`, billRequest({ amount: { currency: 'RUB' } }))
      assert.equal(bill.status, 200, bill.text)
      invoiceUid = bill.body.invoiceUid
    })
    const attempt = (over: Record<string, unknown>) =>
      request('POST', `/pay/${invoiceUid}/attempts`, { body: { method: 'card', pan: '4111111111111111', expiry: '12/30', cvv: '123', amount: '10.00', ...over } })

    test('NUL in pan or amount is 400 validation.error naming it, not a 5xx', async () => {
      const pan = await attempt({ pan: `4111111111111111${NUL}` })
      assertValidation(pan, 'pan')
      assert.ok(!pan.text.includes('4111111111111111'), pan.text)
      assertValidation(await attempt({ amount: `10${NUL}` }), 'amount')
    })

    test('NUL in a field the page does not read is refused too, and no payment is started', async () => {
      assertValidation(await attempt({ note: `x${NUL}` }), 'note')
      const [{ n }] = await sql('SELECT count(*)::int AS n FROM "Payment" p JOIN "Bill" b ON b.id = p."billRef" WHERE b."invoiceUid" = $1', [invoiceUid])
      assert.equal(n, 0)
    })
  })
})

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
