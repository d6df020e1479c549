import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { besidesAuthorisation, cardPayment, client, newSite, uid } from '../support/api.ts'

const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/

describe('card payments', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite())
  })

  test('a one-step payment with an approved card is COMPLETED and captured', async () => {
    const id = uid('pay')
    const r = await api.put(`/payments/${id}`, cardPayment())
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.paymentId, id)
    assert.equal(r.body.status.value, 'COMPLETED')
    assert.deepEqual(r.body.amount, { value: '100.00', currency: 'RUB' })
    assert.deepEqual(r.body.capturedAmount, { value: '100.00', currency: 'RUB' })
    assert.deepEqual(r.body.refundedAmount, { value: '0.00', currency: 'RUB' })
    assert.deepEqual(besidesAuthorisation(r.body.paymentMethod), { type: 'CARD', maskedPan: '411111******1111' })
    assert.deepEqual(r.body.flags, ['SALE'])
    assert.match(r.body.createdDateTime, WIRE_TIME)
    assert.match(r.body.status.changedDateTime, WIRE_TIME)
    assert.ok(r.headers.get('x-trace-id'))
    const read = await api.get(`/payments/${id}`)
    assert.equal(read.status, 200)
    assert.deepEqual(read.body, r.body)
  })
})
