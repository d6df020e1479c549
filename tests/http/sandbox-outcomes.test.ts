// The sandbox acquirer's test cards: outcome by PAN and expiry, as answered on payment create.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { WIRE_TIME, besidesAuthorisation, cardPayment, client, newSite, twoStepPayment, uid } from '../support/api.ts'

const two = (n: number) => String(n).padStart(2, '0')

describe('sandbox card outcomes', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite())
  })

  async function pay(card: Record<string, unknown>, over: Record<string, unknown> = {}) {
    const id = uid('pay')
    const r = await api.put(`/payments/${id}`, cardPayment(over, card))
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.paymentId, id)
    assert.match(r.body.createdDateTime, WIRE_TIME)
    assert.match(r.body.status.changedDateTime, WIRE_TIME)
    const read = await api.get(`/payments/${id}`)
    assert.equal(read.status, 200, read.text)
    assert.deepEqual(read.body, r.body, 'a read answers what the create answered')
    return r.body
  }

  const approved: [string, string][] = [
    ['4111111111111111', '411111******1111'],
    ['5555555555554444', '555555******4444'],
    ['2200000000000004', '220000******0004'],
    ['4242424242424242', '424242******4242'],
    ['4222222222222', '422222***2222'],
    ['4111111111111111110', '411111*********1110'],
  ]
  for (const [pan, masked] of approved) {
    test(`${pan} is approved: COMPLETED and captured (SALE), masked ${masked}`, async () => {
      const p = await pay({ pan })
      assert.equal(p.status.value, 'COMPLETED')
      assert.equal(p.status.reason, undefined)
      assert.deepEqual(besidesAuthorisation(p.paymentMethod), { type: 'CARD', maskedPan: masked })
      assert.deepEqual(p.capturedAmount, { value: '100.00', currency: 'RUB' })
      assert.deepEqual(p.refundedAmount, { value: '0.00', currency: 'RUB' })
      assert.equal(p.requirements, undefined)
    })
  }

  const declined: [string, string][] = [
    ['4000000000000002', 'ACQUIRING_DECLINED'],
    ['4000000000009995', 'ACQUIRING_INSUFFICIENT_FUNDS'],
    ['4000000000000069', 'ACQUIRING_EXPIRED_CARD'],
    ['4000000000000127', 'ACQUIRING_INCORRECT_CVV'],
    ['4000000000000119', 'TRY_AGAIN_LATER'],
  ]
  for (const [pan, reason] of declined) {
    test(`${pan} is DECLINED ${reason}, nothing captured`, async () => {
      const p = await pay({ pan })
      assert.equal(p.status.value, 'DECLINED')
      assert.equal(p.status.reason, reason)
      assert.deepEqual(p.capturedAmount, { value: '0.00', currency: 'RUB' })
      assert.deepEqual(p.refundedAmount, { value: '0.00', currency: 'RUB' })
      assert.deepEqual(p.paymentMethod, { type: 'CARD', maskedPan: `${pan.slice(0, 6)}******${pan.slice(-4)}` })
      assert.equal(p.requirements, undefined)
    })
  }

  test('a declining card declines a two-step payment too', async () => {
    const p = await pay({ pan: '4000000000000002' }, { flags: [] })
    assert.equal(p.status.value, 'DECLINED')
    assert.equal(p.status.reason, 'ACQUIRING_DECLINED')
    assert.equal(p.capturedAmount.value, '0.00')
  })

  test('an approved card with a past expiry month ("01/20") is DECLINED ACQUIRING_EXPIRED_CARD', async () => {
    const p = await pay({ pan: '4111111111111111', expiryDate: '01/20' })
    assert.equal(p.status.value, 'DECLINED')
    assert.equal(p.status.reason, 'ACQUIRING_EXPIRED_CARD')
    assert.equal(p.capturedAmount.value, '0.00')
  })

  test('last month is expired', async () => {
    const now = new Date()
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
    const p = await pay({ expiryDate: `${two(last.getUTCMonth() + 1)}/${two(last.getUTCFullYear() % 100)}` })
    assert.equal(p.status.value, 'DECLINED')
    assert.equal(p.status.reason, 'ACQUIRING_EXPIRED_CARD')
  })

  test('the current month is still valid', async () => {
    const now = new Date()
    const p = await pay({ expiryDate: `${two(now.getUTCMonth() + 1)}/${two(now.getUTCFullYear() % 100)}` })
    assert.equal(p.status.value, 'COMPLETED')
  })

  test('4000000000003220 waits for 3-D Secure with requirements.threeDS {pareq, acsUrl}', async () => {
    const p = await pay({ pan: '4000000000003220' })
    assert.equal(p.status.value, 'WAITING')
    assert.equal(p.status.reason, undefined)
    assert.equal(typeof p.requirements?.threeDS?.pareq, 'string')
    assert.ok(p.requirements.threeDS.pareq.length > 0)
    assert.equal(typeof p.requirements.threeDS.acsUrl, 'string')
    assert.ok(p.requirements.threeDS.acsUrl.length > 0)
    assert.equal(p.capturedAmount.value, '0.00')
    assert.deepEqual(p.paymentMethod, { type: 'CARD', maskedPan: '400000******3220' })
  })

  test('two 3-D Secure payments get different pareq', async () => {
    const a = await pay({ pan: '4000000000003220' })
    const b = await pay({ pan: '4000000000003220' })
    assert.notEqual(a.requirements.threeDS.pareq, b.requirements.threeDS.pareq)
  })

  test('4000000000001000 waits for a one-time code with requirements.otp', async () => {
    const p = await pay({ pan: '4000000000001000' })
    assert.equal(p.status.value, 'WAITING')
    assert.equal(typeof p.requirements?.otp, 'string')
    assert.ok(p.requirements.otp.length > 0)
    assert.equal(p.requirements.threeDS, undefined)
    assert.equal(p.capturedAmount.value, '0.00')
  })

  test('an expired 3-D Secure card is declined rather than challenged', async () => {
    const p = await pay({ pan: '4000000000003220', expiryDate: '01/20' })
    assert.equal(p.status.value, 'DECLINED')
    assert.equal(p.status.reason, 'ACQUIRING_EXPIRED_CARD')
    assert.equal(p.requirements, undefined)
  })

  test('a two-step approved payment is COMPLETED with capturedAmount 0.00', async () => {
    const id = uid('pay')
    const r = await api.put(`/payments/${id}`, twoStepPayment())
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'COMPLETED')
    assert.deepEqual(r.body.amount, { value: '100.00', currency: 'RUB' })
    assert.deepEqual(r.body.capturedAmount, { value: '0.00', currency: 'RUB' })
    assert.deepEqual(r.body.refundedAmount, { value: '0.00', currency: 'RUB' })
    assert.deepEqual(r.body.flags, [])
  })

  test('no card data is answered beyond the masked PAN', async () => {
    const id = uid('pay')
    const r = await api.put(`/payments/${id}`, cardPayment({}, { pan: '5555555555554444', cvv2: '987' }))
    assert.equal(r.status, 200, r.text)
    assert.ok(!r.text.includes('5555555555554444'), r.text)
    assert.ok(!r.text.includes('"987"'), r.text)
    assert.ok(!r.text.includes('12/30'), r.text)
  })
})
