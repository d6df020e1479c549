// The same handlers answer under /partner/payin/v1 and /partner/v1 (clients change only their host).
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  assertErrorShape,
  assertValidation,
  cardPayment,
  client,
  newSite,
  request,
  rub,
  twoStepPayment,
  uid,
} from '../support/api.ts'

const PREFIXES = ['/api', '/partner/payin/v1', '/partner/v1']

describe('path aliases', () => {
  let site: { siteId: string; token: string }
  before(async () => {
    site = await newSite()
  })

  for (const create of PREFIXES) {
    test(`a payment created under ${create} reads the same under every prefix`, async () => {
      const id = uid('pay')
      const made = await client(site, create).put(`/payments/${id}`, cardPayment())
      assert.equal(made.status, 200, made.text)
      assert.equal(made.body.paymentId, id)
      assert.equal(made.body.status.value, 'COMPLETED')
      for (const read of PREFIXES) {
        const r = await client(site, read).get(`/payments/${id}`)
        assert.equal(r.status, 200, `${read}: ${r.text}`)
        assert.deepEqual(r.body, made.body, read)
      }
      const replay = await client(site, PREFIXES[(PREFIXES.indexOf(create) + 1) % 3]).put(
        `/payments/${id}`,
        cardPayment(),
      )
      assert.deepEqual(replay.body, made.body, 'a replay under another prefix is the same payment')
    })
  }

  test('capture, refunds and their reads work across prefixes', async () => {
    const [api, payin, v1] = PREFIXES.map((p) => client(site, p))
    const id = uid('pay')
    assert.equal((await api.put(`/payments/${id}`, twoStepPayment())).status, 200)
    const cap = uid('cap')
    const c = await payin.put(`/payments/${id}/captures/${cap}`)
    assert.equal(c.status, 200, c.text)
    assert.equal(c.body.status.value, 'COMPLETED')
    assert.deepEqual((await v1.get(`/payments/${id}/captures/${cap}`)).body, c.body)
    const ref = uid('ref')
    const r = await v1.put(`/payments/${id}/refunds/${ref}`, { amount: rub('25.00') })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'COMPLETED')
    assert.deepEqual((await payin.get(`/payments/${id}/refunds/${ref}`)).body, r.body)
    assert.deepEqual((await api.get(`/payments/${id}/refunds`)).body, [r.body])
    const p = (await payin.get(`/payments/${id}`)).body
    assert.deepEqual(p.capturedAmount, rub('100.00'))
    assert.deepEqual(p.refundedAmount, rub('25.00'))
  })

  for (const prefix of PREFIXES.slice(1)) {
    test(`errors under ${prefix} have the contract's shape`, async () => {
      const api = client(site, prefix)
      assertErrorShape(
        await request('GET', `${prefix}/sites/${site.siteId}/payments/${uid('pay')}`),
        401,
        'auth.unauthorized',
      )
      assertErrorShape(await api.get(`/payments/${uid('pay')}`), 404, 'payin.resource.not.found')
      assertValidation(await api.put(`/payments/${uid('pay')}`, cardPayment({ amount: rub('0') })), 'amount.value')
      const other = await newSite('other')
      assertErrorShape(
        await request('GET', `${prefix}/sites/${other.siteId}/payments/${uid('pay')}`, { token: site.token }),
        403,
        'auth.forbidden',
      )
      const m = await api.send('DELETE', `/payments/${uid('pay')}`)
      assertErrorShape(m, 405, 'http.method.not.allowed')
      assert.ok(m.headers.get('allow'))
    })
  }
})
