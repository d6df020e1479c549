// Payment create validation: which field a 400 names, what is accepted and how amounts are normalised.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { assertErrorShape, assertValidation, cardPayment, client, newSite, uid } from '../support/api.ts'

/** a payment body whose amount.value is the raw JSON text `raw` */
const withRawValue = (raw: string) =>
  JSON.stringify(cardPayment({ amount: { value: '__VALUE__', currency: 'RUB' } })).replace('"__VALUE__"', raw)

describe('payment validation (400 validation.error)', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite())
  })

  /** the request is refused naming `field`, and nothing was written under the id */
  async function refused(body: unknown, field: string, raw?: string): Promise<void> {
    await refusedAnswer(body, field, raw)
  }

  async function refusedAnswer(body: unknown, field: string, raw?: string) {
    const id = uid('pay')
    const r =
      raw === undefined
        ? await api.put(`/payments/${id}`, body)
        : await api.send('PUT', `/payments/${id}`, { rawBody: raw })
    assertValidation(r, field)
    assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
    return r
  }

  const amount = (value: unknown, currency: unknown = 'RUB') => cardPayment({ amount: { value, currency } })

  describe('amount.value', () => {
    test('missing', () => refused(cardPayment({ amount: { currency: 'RUB' } }), 'amount.value'))
    test('"0"', () => refused(amount('0'), 'amount.value'))
    test('"0.001" rounds down to 0', () => refused(amount('0.001'), 'amount.value'))
    test('"-5"', () => refused(amount('-5'), 'amount.value'))
    test('"1e2" as a string', () => refused(amount('1e2'), 'amount.value'))
    test('1e2 as a JSON number', () => refused(undefined, 'amount.value', withRawValue('1e2')))
    test('"abc"', () => refused(amount('abc'), 'amount.value'))
    test('"1000000000.01" is above the maximum', () => refused(amount('1000000000.01'), 'amount.value'))
    test('null', () => refused(amount(null), 'amount.value'))
    test('a boolean', () => refused(amount(true), 'amount.value'))
  })

  describe('amount.currency', () => {
    test('lowercase "rub"', () => refused(amount('1.00', 'rub'), 'amount.currency'))
    test('unknown "ABC"', () => refused(amount('1.00', 'ABC'), 'amount.currency'))
    test('missing', () => refused(cardPayment({ amount: { value: '1.00' } }), 'amount.currency'))
  })

  test('a missing amount is refused', async () => {
    const { amount: _omitted, ...body } = cardPayment()
    const r = await api.put(`/payments/${uid('pay')}`, body)
    assertErrorShape(r, 400, 'validation.error')
    assert.ok(
      Object.keys(r.body.cause ?? {}).some((k) => k.startsWith('amount')),
      r.text,
    )
  })

  describe('paymentMethod.pan', () => {
    test('Luhn-invalid 4111111111111112', () =>
      refused(cardPayment({}, { pan: '4111111111111112' }), 'paymentMethod.pan'))
    test('12 digits', () => refused(cardPayment({}, { pan: '411111111111' }), 'paymentMethod.pan'))
    test('letters', () => refused(cardPayment({}, { pan: '4111abcd11111111' }), 'paymentMethod.pan'))
    test('missing', () => refused(cardPayment({}, { pan: undefined }), 'paymentMethod.pan'))
  })

  describe('paymentMethod.expiryDate', () => {
    test('month 13 ("13/30")', () => refused(cardPayment({}, { expiryDate: '13/30' }), 'paymentMethod.expiryDate'))
    test('no slash ("1230")', () => refused(cardPayment({}, { expiryDate: '1230' }), 'paymentMethod.expiryDate'))
    test('missing', () => refused(cardPayment({}, { expiryDate: undefined }), 'paymentMethod.expiryDate'))
  })

  describe('paymentMethod.cvv2', () => {
    test('2 digits', () => refused(cardPayment({}, { cvv2: '12' }), 'paymentMethod.cvv2'))
    test('5 digits', () => refused(cardPayment({}, { cvv2: '12345' }), 'paymentMethod.cvv2'))
    test('missing', () => refused(cardPayment({}, { cvv2: undefined }), 'paymentMethod.cvv2'))
  })

  describe('paymentMethod.type', () => {
    // a type no method has (not SBP, the next method to come)
    test('BARTER', () => refused(cardPayment({ paymentMethod: { type: 'BARTER' } }), 'paymentMethod.type'))
    test('SAMSUNG_PAY', () =>
      refused(cardPayment({ paymentMethod: { type: 'SAMSUNG_PAY', token: 'x' } }), 'paymentMethod.type'))
  })

  test('a missing paymentMethod is refused', async () => {
    const { paymentMethod: _omitted, ...body } = cardPayment()
    const r = await api.put(`/payments/${uid('pay')}`, body)
    assertErrorShape(r, 400, 'validation.error')
    assert.ok(
      Object.keys(r.body.cause ?? {}).some((k) => k.startsWith('paymentMethod')),
      r.text,
    )
  })

  test('an unknown flag "FOO" names flags[0]', () => refused(cardPayment({ flags: ['FOO'] }), 'flags[0]'))
  test('an unknown flag after a known one names flags[1]', () =>
    refused(cardPayment({ flags: ['SALE', 'FOO'] }), 'flags[1]'))

  test('BIND_PAYMENT_TOKEN without customer.account', () =>
    refused(
      cardPayment({ flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customer: { email: 'a@example.com' } }),
      'customer.account',
    ))

  test('RECURRENT_FIRST without recurrent', () =>
    refused(cardPayment({ flags: ['SALE', 'RECURRENT_FIRST'] }), 'recurrent'))

  test('several problems at once are all named', async () => {
    const r = await refusedAnswer(
      cardPayment({ amount: { value: '0', currency: 'rub' } }, { cvv2: '1' }),
      'amount.value',
    )
    for (const f of ['amount.currency', 'paymentMethod.cvv2']) assert.ok(r.body.cause[f], `cause names ${f}: ${r.text}`)
  })

  describe('receipt', () => {
    test('an item total other than price × quantity rounded down names receipt.items[0].total', () =>
      refused(
        cardPayment({
          amount: { value: '20.00', currency: 'RUB' },
          receipt: { items: [{ name: 'A', price: '10.00', quantity: 2, total: '19.99' }] },
        }),
        'receipt.items[0].total',
      ))

    test('a total rounded up instead of down is refused (10.01 × 1.5 = 15.015 → 15.01, not 15.02)', () =>
      refused(
        cardPayment({
          amount: { value: '15.02', currency: 'RUB' },
          receipt: { items: [{ name: 'A', price: '10.01', quantity: 1.5, total: '15.02' }] },
        }),
        'receipt.items[0].total',
      ))

    test('item totals not adding up to the amount name receipt.items', () =>
      refused(
        cardPayment({
          amount: { value: '100.00', currency: 'RUB' },
          receipt: { items: [{ name: 'A', price: '33.33', quantity: 3, total: '99.99' }] },
        }),
        'receipt.items',
      ))
  })
})

describe('payment validation: accepted forms', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite())
  })

  async function accepted(body: unknown, raw?: string) {
    const id = uid('pay')
    const r =
      raw === undefined
        ? await api.put(`/payments/${id}`, body)
        : await api.send('PUT', `/payments/${id}`, { rawBody: raw })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.paymentId, id)
    return r
  }

  const valueOf = async (value: unknown) =>
    (await accepted(cardPayment({ amount: { value, currency: 'RUB' } }))).body.amount.value

  test('"1000000000.00", the maximum, is accepted', async () => {
    assert.equal(await valueOf('1000000000.00'), '1000000000.00')
  })

  test('the JSON number 10.5 is answered "10.50"', async () => {
    assert.equal(await valueOf(10.5), '10.50')
  })

  test('"10.999" is rounded down to "10.99"', async () => {
    assert.equal(await valueOf('10.999'), '10.99')
  })

  test('"100" is answered "100.00"', async () => {
    assert.equal(await valueOf('100'), '100.00')
  })

  test('"0.01", the minimum, is accepted', async () => {
    assert.equal(await valueOf('0.01'), '0.01')
  })

  test('the JSON number 100.129 is rounded down to "100.12" (no float rounding)', async () => {
    const r = await accepted(undefined, withRawValue('100.129'))
    assert.equal(r.body.amount.value, '100.12')
  })

  test('a one-step payment captures the normalised amount', async () => {
    const r = await accepted(cardPayment({ amount: { value: '10.999', currency: 'RUB' } }))
    assert.deepEqual(r.body.capturedAmount, { value: '10.99', currency: 'RUB' })
  })

  test('another known currency (USD) is accepted and echoed', async () => {
    const r = await accepted(cardPayment({ amount: { value: '1.5', currency: 'USD' } }))
    assert.deepEqual(r.body.amount, { value: '1.50', currency: 'USD' })
  })

  test('a valid receipt is accepted', async () => {
    await accepted(
      cardPayment({
        amount: { value: '100.00', currency: 'RUB' },
        receipt: {
          items: [
            { name: 'A', price: '33.33', quantity: 3, total: '99.99' },
            { name: 'B', price: 0.01, quantity: 1, total: 0.01 },
          ],
        },
      }),
    )
  })

  test('quantity 1.5 at price 10.01 has total 15.01 (15.015 rounded down)', async () => {
    await accepted(
      cardPayment({
        amount: { value: '15.01', currency: 'RUB' },
        receipt: { items: [{ name: 'A', price: '10.01', quantity: 1.5, total: '15.01' }] },
      }),
    )
  })

  test('flags absent and flags [] are both two-step', async () => {
    const { flags: _omitted, ...noFlags } = cardPayment()
    for (const body of [noFlags, cardPayment({ flags: [] })]) {
      const r = await accepted(body)
      assert.deepEqual(r.body.flags, [])
      assert.equal(r.body.status.value, 'COMPLETED')
      assert.equal(r.body.capturedAmount.value, '0.00')
    }
  })

  test('customer is stored and answered', async () => {
    const customer = { account: 'acc-1', email: 'a@example.com', name: 'A B', phone: '79001234567' }
    const r = await accepted(cardPayment({ customer, comment: 'order 42' }))
    assert.deepEqual(r.body.customer, customer)
    const read = await api.get(`/payments/${r.body.paymentId}`)
    assert.deepEqual(read.body, r.body)
  })
})
