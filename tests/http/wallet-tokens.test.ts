// Apple Pay and Google Pay tokens (APPLE_PAY_TOKEN, GOOGLE_PAY_TOKEN), as the Go client sendtips/qiwi sends them:
// the sandbox takes its test tokens, whose text decides the outcome, and refuses real (encrypted) tokens with a 400.
// Approved payments answer and notify the sandbox device card; they capture and refund like card payments.
import assert from 'node:assert/strict'
import { deflateSync } from 'node:zlib'
import { before, describe, test } from 'node:test'
import { assertErrorShape, besidesAuthorisation, client, newSite, rub, uid } from '../support/api.ts'

/** the Go client's Apple Pay paymentMethod: its PKPaymentToken, with `data` the (test) token */
const applePay = (data: string) => ({
  type: 'APPLE_PAY_TOKEN',
  paymentData: {
    version: 'EC_v1',
    data,
    header: {
      ephemeralPublicKey: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEzLx7FJhw1Z1PmxOLMTQBs1LgKEUT6',
      publicKeyHash: 'OrWgjRGkqEWjdkRdUrXfiLGD0he/zpEu512FJWrGYFo=',
      transactionId: '1234567890ABCDEF',
    },
    signature: 'ZmFrZSBzaWduYXR1cmU=',
  },
})
/** the Go client's Google Pay paymentMethod: the token's zlib stream in base64 */
const googlePay = (token: string) => ({
  type: 'GOOGLE_PAY_TOKEN',
  paymentToken: deflateSync(token).toString('base64'),
})
const pay = (paymentMethod: object, flags = ['SALE']) => ({ paymentMethod, amount: rub('5.00'), flags })

describe('wallet tokens', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('wallet'))
  })

  test('an Apple Pay test token approves: the sandbox device card is answered and notified', async () => {
    const id = uid('apple')
    // the suite's server delivers nothing: the notification is only written
    const r = await api.put(`/payments/${id}`, {
      ...pay(applePay('sandbox-approved')),
      callbackUrl: 'https://shop.example/cb',
    })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'COMPLETED')
    assert.deepEqual(besidesAuthorisation(r.body.paymentMethod), {
      type: 'APPLE_PAY_TOKEN',
      maskedPan: '411111******1111',
    })
    assert.deepEqual(r.body.capturedAmount, rub('5.00'))
    const [n] = ((await api.get('/notifications')).body as any[]).filter((x) => x.resourceId === id)
    assert.equal(n.body.payment.paymentMethod.type, 'APPLE_PAY_TOKEN')
    assert.equal(n.body.payment.paymentMethod.maskedPan, '411111******1111')
    assert.equal(n.body.payment.status.value, 'SUCCESS')
    // the token itself is neither answered nor notified
    assert.doesNotMatch(r.text + JSON.stringify(n), /sandbox-approved|paymentData|ZmFrZSBzaWduYXR1cmU/)
  })

  test('Google Pay test tokens decide the outcome, compressed as the Go client sends them, or in plain base64', async () => {
    const declined = await api.put(`/payments/${uid('gpay')}`, pay(googlePay('sandbox-declined')))
    assert.equal(declined.status, 200, declined.text)
    assert.equal(declined.body.status.value, 'DECLINED')
    assert.equal(declined.body.status.reason, 'ACQUIRING_DECLINED')
    assert.deepEqual(declined.body.paymentMethod, { type: 'GOOGLE_PAY_TOKEN', maskedPan: '555555******4444' })

    const poor = await api.put(`/payments/${uid('gpay')}`, {
      ...pay({ type: 'GOOGLE_PAY_TOKEN', paymentToken: Buffer.from('sandbox-insufficient-funds').toString('base64') }),
    })
    assert.equal(poor.body.status.reason, 'ACQUIRING_INSUFFICIENT_FUNDS')

    const approved = await api.put(
      `/payments/${uid('gpay')}`,
      pay({ type: 'GOOGLE_PAY_TOKEN', paymentToken: 'sandbox-approved' }),
    )
    assert.equal(approved.body.status.value, 'COMPLETED')
  })

  test("an Apple Pay token as one string: the base64 of Apple's PKPaymentToken JSON; a null header is taken", async () => {
    const pk = { ...applePay('sandbox-approved').paymentData, header: null }
    const asString = { type: 'APPLE_PAY_TOKEN', paymentToken: Buffer.from(JSON.stringify(pk)).toString('base64') }
    const r = await api.put(`/payments/${uid('apple')}`, pay(asString))
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'COMPLETED')
    const nullHeader = await api.put(`/payments/${uid('apple')}`, pay({ type: 'APPLE_PAY_TOKEN', paymentData: pk }))
    assert.equal(nullHeader.status, 200, nullHeader.text)
    assert.equal(nullHeader.body.status.value, 'COMPLETED')
  })

  test('the 3-D Secure test token asks for 3-D Secure, as a card does', async () => {
    const r = await api.put(`/payments/${uid('gpay')}`, pay(googlePay('sandbox-3ds')))
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'WAITING')
    assert.equal(typeof r.body.requirements.threeDS.pareq, 'string')
  })

  test('a two-step wallet payment is authorised, then captured and refunded like a card payment', async () => {
    const id = uid('apple')
    const held = await api.put(`/payments/${id}`, pay(applePay('sandbox-approved'), []))
    assert.equal(held.body.status.value, 'COMPLETED')
    assert.deepEqual(held.body.capturedAmount, rub('0.00'))
    const cap = await api.put(`/payments/${id}/captures/${uid('cap')}`, {})
    assert.equal(cap.body.status.value, 'COMPLETED', cap.text)
    const ref = await api.put(`/payments/${id}/refunds/${uid('ref')}`, { amount: rub('2.00') })
    assert.equal(ref.body.status.value, 'COMPLETED', ref.text)
    const after = await api.get(`/payments/${id}`)
    assert.deepEqual([after.body.capturedAmount, after.body.refundedAmount], [rub('5.00'), rub('2.00')])
  })

  test('a real (encrypted) token, or none, is a 400 naming the field and the test tokens; nothing is written', async () => {
    const cases: [object, string, RegExp][] = [
      [
        applePay('IaD7LKDbJsOrGTlNGkKUC95Y+4an2YuN0swstaCaoovlj8dbgf16FmO5j4AX80L0xsRQ'),
        'paymentMethod.paymentData.data',
        /is not a sandbox test token/,
      ],
      [
        googlePay('{"protocolVersion":"ECv2","signature":"MEUCIQ"}'),
        'paymentMethod.paymentToken',
        /is not a sandbox test token/,
      ],
      [{ type: 'GOOGLE_PAY_TOKEN' }, 'paymentMethod.paymentToken', /is required for GOOGLE_PAY_TOKEN/],
      [{ type: 'APPLE_PAY_TOKEN' }, 'paymentMethod.paymentData', /or paymentToken is required for APPLE_PAY_TOKEN/],
      [
        { ...applePay('sandbox-approved'), paymentToken: 'sandbox-approved' },
        'paymentMethod.paymentToken',
        /must not be given with paymentData/,
      ],
    ]
    for (const [method, field, message] of cases) {
      const id = uid('bad')
      const r = await api.put(`/payments/${id}`, pay(method))
      assertErrorShape(r, 400, 'validation.error')
      assert.match(r.body.cause[field]?.join(' ') ?? '', message, r.text)
      assert.equal((await api.get(`/payments/${id}`)).status, 404)
    }
    const one = await api.put(`/payments/${uid('bad')}`, pay(googlePay('nope')))
    assert.match(one.body.cause['paymentMethod.paymentToken'][0], /sandbox-approved, sandbox-declined/)
  })
})
