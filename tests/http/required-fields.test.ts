// A missing required field says "is required" (issue 28, point 6), on every endpoint family that takes a body:
// payments, bills, captures, refunds, 3-D Secure's complete, the sandbox, the dashboard's settings. The same field
// present with a value of the wrong type or form keeps its schema's words, and a rule of the enclosing object
// keeps its own. The PaRes's refusal says where a PaRes comes from.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  assertErrorShape,
  billRequest,
  cardPayment,
  client,
  newSite,
  rub,
  twoStepPayment,
  uid,
  type Answer,
} from '../support/api.ts'
import { asSession, post, signIn } from '../support/dashboard.ts'

const REQUIRED = ['is required']
const THREE_DS_CARD = '4000000000003220'

/** a 400 validation.error whose cause is exactly `cause` */
function assertCauseIs(a: Answer, cause: Record<string, string[]>): void {
  assertErrorShape(a, 400, 'validation.error')
  assert.deepEqual(a.body.cause, cause, a.text)
}

/** `body` without the fields named in `omit` */
const without = (body: Record<string, unknown>, ...omit: string[]) =>
  Object.fromEntries(Object.entries(body).filter(([k]) => !omit.includes(k)))

let api: ReturnType<typeof client>
before(async () => {
  api = client(await newSite('required'))
})

describe('payments', () => {
  const put = (body: unknown) => api.put(`/payments/${uid('pay')}`, body)

  test('a missing amount, paymentMethod, currency or method type is required; a wrong one says what it must be', async () => {
    assertCauseIs(await put(without(cardPayment(), 'amount')), { amount: REQUIRED })
    assertCauseIs(await put(cardPayment({ amount: null })), { amount: ['must be an object with value and currency'] })
    assertCauseIs(await put(without(cardPayment(), 'paymentMethod')), { paymentMethod: REQUIRED })
    assertCauseIs(await put(cardPayment({ paymentMethod: 'CARD' })), { paymentMethod: ['must be an object with type'] })
    assertCauseIs(await put(cardPayment({ paymentMethod: { pan: '4111111111111111' } })), {
      'paymentMethod.type': REQUIRED,
    })
    const unknownType = await put(cardPayment({ paymentMethod: { type: 'QIWI_WALLET' } }))
    assertErrorShape(unknownType, 400, 'validation.error')
    assert.match(unknownType.body.cause['paymentMethod.type'][0], /^must be one of CARD, /)
    assertCauseIs(await put(cardPayment({ amount: { value: '1.00' } })), { 'amount.currency': REQUIRED })
    assertCauseIs(await put(cardPayment({ amount: { value: '1.00', currency: 643 } })), {
      'amount.currency': ['must be an ISO 4217 alphabetic code'],
    })
  })

  test("a receipt item's and a series' missing fields are each required", async () => {
    const r = await put(cardPayment({ receipt: { items: [{}] }, recurrent: {} }))
    assertCauseIs(r, {
      'recurrent.minAuthDay': REQUIRED,
      'recurrent.expiryDate': REQUIRED,
      'receipt.items[0].name': REQUIRED,
      'receipt.items[0].price': REQUIRED,
      'receipt.items[0].quantity': REQUIRED,
      'receipt.items[0].total': REQUIRED,
    })
    const wrong = await put(
      cardPayment({
        receipt: { items: [{ name: 1, price: 'x', quantity: 0, total: -1 }] },
        recurrent: { minAuthDay: 'a' },
      }),
    )
    assertCauseIs(wrong, {
      'recurrent.minAuthDay': ['must be an integer'],
      'recurrent.expiryDate': REQUIRED,
      'receipt.items[0].name': ['must be a string'],
      'receipt.items[0].price': ['must be a non-negative decimal number in plain notation'],
      'receipt.items[0].quantity': ['must be a positive decimal number with at most 6 decimals'],
      'receipt.items[0].total': ['must be a non-negative decimal number in plain notation'],
    })
  })
})

describe('bills', () => {
  const put = (body: unknown) => api.put(`/bills/${uid('bill')}`, body)

  test('a missing expirationDateTime or amount is required, not "must be an ISO 8601 date-time"', async () => {
    assertCauseIs(await put({}), { amount: REQUIRED, expirationDateTime: REQUIRED })
    assertCauseIs(await put(without(billRequest(), 'expirationDateTime')), { expirationDateTime: REQUIRED })
    assertCauseIs(await put(billRequest({ amount: { value: '3.00' } })), { 'amount.currency': REQUIRED })
  })

  test('a present expirationDateTime of the wrong type or form keeps its words', async () => {
    assertCauseIs(await put(billRequest({ expirationDateTime: 5 })), {
      expirationDateTime: ['must be an ISO 8601 date-time with an offset'],
    })
    assertCauseIs(await put(billRequest({ expirationDateTime: 'tomorrow' })), {
      expirationDateTime: ['must be an ISO 8601 date-time with an offset, e.g. 2026-12-31T23:59:59+03:00'],
    })
    // and a deadline in the past, on a site on real time, as before
    assertCauseIs(await put(billRequest({ expirationDateTime: new Date(Date.now() - 60_000).toISOString() })), {
      expirationDateTime: ['must be in the future'],
    })
  })
})

describe('captures and refunds', () => {
  test("a capture's amount without value and currency: each is required", async () => {
    const paymentId = uid('auth')
    const authorised = await api.put(`/payments/${paymentId}`, twoStepPayment())
    assert.equal(authorised.body.status.value, 'COMPLETED', authorised.text)
    const path = `/payments/${paymentId}/captures/${uid('cap')}`
    assertCauseIs(await api.put(path, { amount: {} }), { 'amount.value': REQUIRED, 'amount.currency': REQUIRED })
    assertCauseIs(await api.put(path, { amount: { value: '1.00', currency: 'rub' } }), {
      'amount.currency': ['must be an uppercase ISO 4217 alphabetic code'],
    })
  })

  test("a refund's missing amount is required; a wrong one says what it must be", async () => {
    const paymentId = uid('paid')
    const paid = await api.put(`/payments/${paymentId}`, cardPayment())
    assert.equal(paid.body.status.value, 'COMPLETED', paid.text)
    const path = `/payments/${paymentId}/refunds/${uid('ref')}`
    assertCauseIs(await api.put(path, {}), { amount: REQUIRED })
    assertCauseIs(await api.put(path, { amount: '1.00' }), { amount: ['must be an object with value and currency'] })
    assertCauseIs(await api.put(path, { amount: { currency: 'RUB' } }), { 'amount.value': REQUIRED })
    assert.equal((await api.put(path, { amount: rub('1.00') })).status, 200)
  })
})

describe("3-D Secure's complete", () => {
  const PARES_FROM =
    'is required: the PaRes that the access-control page (threeDS.acsUrl of the payment) posts to your TermUrl ' +
    'when the payer finishes the challenge'

  test('without a PaRes (an empty one, as a script that missed the TermUrl post sends) says where one comes from', async () => {
    const paymentId = uid('3ds')
    const waiting = await api.put(`/payments/${paymentId}`, cardPayment({}, { pan: THREE_DS_CARD }))
    assert.equal(waiting.body.status.value, 'WAITING', waiting.text)
    const complete = (body: unknown) => api.post(`/payments/${paymentId}/complete`, body)
    assertCauseIs(await complete({ threeDS: {} }), { 'threeDS.pares': [PARES_FROM] })
    assertCauseIs(await complete({ threeDS: { pares: '' } }), { 'threeDS.pares': [PARES_FROM] })
    assertCauseIs(await complete({ otp: { code: '1234' } }), {
      'threeDS.pares': [
        'is required: the payment awaits 3-D Secure; send the PaRes that the access-control page ' +
          '(threeDS.acsUrl of the payment) posted to your TermUrl',
      ],
    })
    assert.equal((await api.get(`/payments/${paymentId}`)).body.status.value, 'WAITING')
  })
})

describe('the sandbox and the dashboard', () => {
  test("the reset's missing confirm is required; the clock's rule of two fields keeps its words", async () => {
    assertCauseIs(await api.post('/sandbox/reset', {}), { confirm: REQUIRED })
    assertCauseIs(await api.post('/sandbox/clock/advance', {}), { seconds: ['give either seconds or to'] })
    assertCauseIs(await api.post('/sandbox/clock/advance', { to: 5 }), {
      to: ['must be an ISO 8601 date-time with an offset'],
    })
  })

  test("the settings' missing url is required; a number is not a string", async () => {
    const cookie = await signIn(await newSite('required-dash'))
    const notifyUrl = (body: unknown) => post('/dashboard/actions/settings/notify-url', body, asSession(cookie))
    assertCauseIs(await notifyUrl({}), { url: REQUIRED })
    assertCauseIs(await notifyUrl({ url: 5 }), { url: ['must be a string'] })
  })
})
