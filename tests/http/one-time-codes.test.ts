import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { assertErrorShape, cardPayment, client, newSite, uid } from '../support/api.ts'

describe('one-time codes (card 4000000000001000)', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('otp'))
  })

  async function waiting() {
    const id = uid('otp')
    const r = await api.put(`/payments/${id}`, cardPayment({}, { pan: '4000000000001000' }))
    assert.equal(r.body.status.value, 'WAITING')
    assert.equal(typeof r.body.requirements.otp, 'string')
    return id
  }

  test('the right code completes the payment, with or without otpProcessCode', async () => {
    const id = await waiting()
    const done = await api.post(`/payments/${id}/complete`, { otp: { code: '1234', otpProcessCode: 'abc' } })
    assert.equal(done.status, 200, done.text)
    assert.equal(done.body.status.value, 'COMPLETED')
    assert.equal(done.body.capturedAmount.value, '100.00')
    const again = await api.post(`/payments/${id}/complete`, { otp: { code: '1234' } })
    assert.deepEqual(again.body, done.body)
  })

  test('wrong codes: 400 with the attempts left, the third declines INVALID_OTP', async () => {
    const id = await waiting()
    const first = await api.post(`/payments/${id}/complete`, { otp: { code: '0000' } })
    assertErrorShape(first, 400, 'validation.error')
    assert.match(first.body.cause['otp.code'][0], /2 attempts left/)
    assert.equal((await api.get(`/payments/${id}`)).body.status.value, 'WAITING')
    const second = await api.post(`/payments/${id}/complete`, { otp: { code: '1111' } })
    assert.match(second.body.cause['otp.code'][0], /1 attempt left/)
    const third = await api.post(`/payments/${id}/complete`, { otp: { code: '2222' } })
    assert.equal(third.status, 200)
    assert.equal(third.body.status.value, 'DECLINED')
    assert.equal(third.body.status.reason, 'INVALID_OTP')
    assertErrorShape(
      await api.post(`/payments/${id}/complete`, { otp: { code: '1234' } }),
      409,
      'payin.incorrect-method-invocation',
    )
  })

  test('a 3-D Secure answer to a code payment is a 400', async () => {
    const id = await waiting()
    assertErrorShape(await api.post(`/payments/${id}/complete`, { threeDS: { pares: 'x' } }), 400, 'validation.error')
  })
})
