import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { assertErrorShape, besidesAuthorisation, cardPayment, client, newSite, uid } from '../support/api.ts'

const bind = (pan: string, account = 'customer-1') =>
  cardPayment({ flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customer: { account } }, { pan })
const byToken = (token: string, account = 'customer-1', value = '10.00') => ({
  paymentMethod: { type: 'TOKEN', paymentToken: token },
  amount: { value, currency: 'RUB' },
  flags: ['SALE'],
  customer: { account },
})

describe('payment tokens', () => {
  let api: ReturnType<typeof client>
  let other: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('tok'))
    other = client(await newSite('tok-other'))
  })

  async function tokenOf(pan: string, account = 'customer-1') {
    const r = await api.put(`/payments/${uid('bind')}`, bind(pan, account))
    assert.equal(r.body.status.value, 'COMPLETED', r.text)
    assert.equal(typeof r.body.createdToken.token, 'string')
    assert.equal(r.body.createdToken.name, `${pan.slice(0, 6)}******${pan.slice(-4)}`)
    return r.body.createdToken.token as string
  }

  test('a COMPLETED BIND_PAYMENT_TOKEN payment carries createdToken, on every read', async () => {
    const id = uid('bind')
    const r = await api.put(`/payments/${id}`, bind('4111111111111111'))
    assert.ok(r.body.createdToken)
    assert.deepEqual((await api.get(`/payments/${id}`)).body.createdToken, r.body.createdToken)
    assert.deepEqual(
      (await api.put(`/payments/${id}`, bind('4111111111111111'))).body.createdToken,
      r.body.createdToken,
    )
  })

  test('a token pays; its answer has paymentMethod.type alone', async () => {
    const token = await tokenOf('5555555555554444')
    const r = await api.put(`/payments/${uid('tp')}`, byToken(token))
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'COMPLETED')
    assert.deepEqual(besidesAuthorisation(r.body.paymentMethod), { type: 'TOKEN' })
  })

  test("a token keeps its card's sandbox outcome", async () => {
    // a declined card issues no token, so bind a 3-D Secure card and check its token is challenged again
    const r = await api.put(`/payments/${uid('tp')}`, byToken(await tokenOf('4242424242424242')))
    assert.equal(r.body.status.value, 'COMPLETED')
    const declined = await api.put(`/payments/${uid('bind')}`, bind('4000000000009995'))
    assert.equal(declined.body.status.value, 'DECLINED')
    assert.equal(declined.body.createdToken, undefined, 'a declined payment issues no token')
  })

  test('an unknown token, or one of another account or site, is a 400', async () => {
    const token = await tokenOf('4111111111111111', 'customer-2')
    for (const [who, body] of [
      ['unknown', byToken('pt_unknown', 'customer-2')],
      ['other account', byToken(token, 'customer-3')],
    ] as const) {
      const r = await api.put(`/payments/${uid('tp')}`, body)
      assertErrorShape(r, 400, 'validation.error')
      assert.ok(r.body.cause['paymentMethod.paymentToken'], who)
    }
    const r = await other.put(`/payments/${uid('tp')}`, byToken(token, 'customer-2'))
    assertErrorShape(r, 400, 'validation.error')
    assert.ok(r.body.cause['paymentMethod.paymentToken'])
  })

  test('BIND_PAYMENT_TOKEN and TOKEN need customer.account', async () => {
    const a = await api.put(`/payments/${uid('bind')}`, cardPayment({ flags: ['SALE', 'BIND_PAYMENT_TOKEN'] }))
    assertErrorShape(a, 400, 'validation.error')
    assert.ok(a.body.cause['customer.account'])
    const b = await api.put(`/payments/${uid('tp')}`, { ...byToken('pt_x'), customer: undefined })
    assertErrorShape(b, 400, 'validation.error')
    assert.ok(b.body.cause['customer.account'])
  })
})
