import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { assertErrorShape, client, newSite, uid } from '../support/api.ts'

const DELAY = Number(process.env.MOBILE_OPERATOR_DELAY_MS ?? 3000)

const mobile = (phone: string, over: Record<string, unknown> = {}) => ({
  paymentMethod: { type: 'MOBILE', phone },
  amount: { value: '50.00', currency: 'RUB' },
  flags: ['SALE'],
  ...over,
})

describe('mobile-balance payments', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('mobile'))
  })

  test('a code is asked of other phones; the right code completes and captures', async () => {
    const id = uid('mob')
    const r = await api.put(`/payments/${id}`, mobile('79001234567'))
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'WAITING')
    assert.deepEqual(r.body.paymentMethod, { type: 'MOBILE' })
    assert.match(r.body.requirements.otp, /\*+4567/)
    assert.doesNotMatch(r.body.requirements.otp, /79001234567/)
    const wrong = await api.post(`/payments/${id}/complete`, { otp: { code: '9999' } })
    assertErrorShape(wrong, 400, 'validation.error')
    const done = await api.post(`/payments/${id}/complete`, { otp: { code: '1234', otpProcessCode: 'p-1' } })
    assert.equal(done.body.status.value, 'COMPLETED')
    assert.equal(done.body.capturedAmount.value, '50.00')
  })

  test('phone ending 0000: no code, the operator confirms after the delay', async () => {
    const id = uid('mob')
    const r = await api.put(`/payments/${id}`, mobile('79001230000'))
    assert.equal(r.body.status.value, 'WAITING')
    assert.equal(r.body.requirements, undefined)
    assertErrorShape(
      await api.post(`/payments/${id}/complete`, { otp: { code: '1234' } }),
      409,
      'payin.incorrect-method-invocation',
    )
    await sleep(DELAY + 300)
    const read = await api.get(`/payments/${id}`)
    assert.equal(read.body.status.value, 'COMPLETED')
    assert.equal(read.body.capturedAmount.value, '50.00')
    // dated when the operator answered, not when it was read
    const changed = Date.parse(read.body.status.changedDateTime) - Date.parse(read.body.createdDateTime)
    assert.ok(Math.abs(changed - DELAY) < 50, `changed ${changed} ms after creation`)
  })

  test('phone ending 0001: the operator rejects after the delay', async () => {
    const id = uid('mob')
    const r = await api.put(`/payments/${id}`, mobile('79001230001'))
    assert.equal(r.body.status.value, 'WAITING')
    await sleep(DELAY + 300)
    const replay = await api.put(`/payments/${id}`, mobile('79001230001'))
    assert.equal(replay.body.status.value, 'DECLINED')
    assert.equal(replay.body.status.reason, 'ACQUIRING_INSUFFICIENT_FUNDS')
  })

  test('phones are 10-15 digits', async () => {
    for (const phone of ['123456789', '1234567890123456', '+79001234567', '7900abc4567']) {
      const r = await api.put(`/payments/${uid('mob')}`, mobile(phone))
      assertErrorShape(r, 400, 'validation.error')
      assert.ok(r.body.cause['paymentMethod.phone'], phone)
    }
  })
})
