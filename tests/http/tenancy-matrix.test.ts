// Every endpoint × another site's token and ids: no read, no write, no hint of existence.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { cardPayment, client, newSite, request, uid } from '../support/api.ts'

describe('tenancy matrix', () => {
  let a: { siteId: string; token: string }
  let b: { siteId: string; token: string }
  const ids = { paid: uid('paid'), held: uid('held'), capture: uid('cap'), refund: uid('ref'), bill: uid('bill') }
  const missing = { paid: uid('none'), held: uid('none'), capture: uid('none'), refund: uid('none'), bill: uid('none') }
  let snapshot: string

  before(async () => {
    a = await newSite('tenant-a')
    b = await newSite('tenant-b')
    const api = client(a)
    await api.put(`/payments/${ids.paid}`, cardPayment())
    await api.put(`/payments/${ids.held}`, cardPayment({ flags: [] }))
    await api.put(`/payments/${ids.held}/captures/${ids.capture}`, { amount: { value: '10.00', currency: 'RUB' } })
    await api.put(`/payments/${ids.paid}/refunds/${ids.refund}`, { amount: { value: '1.00', currency: 'RUB' } })
    await api.put(`/bills/${ids.bill}`, {
      amount: { value: '5.00', currency: 'RUB' },
      expirationDateTime: new Date(Date.now() + 86400_000).toISOString(),
    })
    snapshot = await stateOfA()
  })

  async function stateOfA(): Promise<string> {
    const api = client(a)
    const parts = await Promise.all([
      api.get(`/payments/${ids.paid}`),
      api.get(`/payments/${ids.held}`),
      api.get(`/payments/${ids.paid}/refunds`),
      api.get(`/payments/${ids.held}/captures/${ids.capture}`),
      api.get(`/bills/${ids.bill}/details`),
    ])
    return JSON.stringify(parts.map((p) => [p.status, p.body]))
  }

  type Ids = typeof ids
  const endpoints: [string, (i: Ids) => string, unknown?][] = [
    ['GET', (i) => `/payments/${i.paid}`],
    ['PUT', (i) => `/payments/${i.paid}`, cardPayment()],
    ['POST', (i) => `/payments/${i.paid}/complete`, { otp: { code: '1234' } }],
    ['GET', (i) => `/payments/${i.held}/captures/${i.capture}`],
    ['PUT', (i) => `/payments/${i.held}/captures/${i.capture}`, {}],
    ['GET', (i) => `/payments/${i.paid}/refunds`],
    ['GET', (i) => `/payments/${i.paid}/refunds/${i.refund}`],
    ['PUT', (i) => `/payments/${i.paid}/refunds/${i.refund}`, { amount: { value: '1.00', currency: 'RUB' } }],
    [
      'PUT',
      (i) => `/bills/${i.bill}`,
      {
        amount: { value: '5.00', currency: 'RUB' },
        expirationDateTime: new Date(Date.now() + 86400_000).toISOString(),
      },
    ],
    ['GET', (i) => `/bills/${i.bill}`],
    ['GET', (i) => `/bills/${i.bill}/details`],
  ]
  const strip = (body: any) => ({ ...body, traceId: undefined, dateTime: undefined })

  for (const [method, path, body] of endpoints) {
    const name = `${method} ${path({ paid: ':paid', held: ':held', capture: ':capture', refund: ':refund', bill: ':bill' })}`

    test(`${name}: B's token on A's path is a 403 that says nothing of existence`, async () => {
      const onExisting = await request(method, `/api/sites/${a.siteId}${path(ids)}`, { token: b.token, body })
      const onMissing = await request(method, `/api/sites/${a.siteId}${path(missing)}`, { token: b.token, body })
      assert.equal(onExisting.status, 403)
      assert.equal(onExisting.body.errorCode, 'auth.forbidden')
      assert.deepEqual(strip(onExisting.body), strip(onMissing.body))
      assert.doesNotMatch(onExisting.text, new RegExp(`${ids.paid}|${ids.bill}|${a.siteId}`))
    })

    // creating a payment or bill under A's ids on B's own path is B's own business (ids are per site)
    const creates = method === 'PUT' && /^\/(payments|bills)\/[^/]+$/.test(path(ids))
    if (!creates)
      test(`${name}: A's ids on B's own path reach nothing of A`, async () => {
        const withIdsOfA = await request(method, `/api/sites/${b.siteId}${path(ids)}`, { token: b.token, body })
        const withMissing = await request(method, `/api/sites/${b.siteId}${path(missing)}`, { token: b.token, body })
        // ids are per site: whatever B's path answers, it answers the same for A's ids as for ids nobody has
        assert.equal(withIdsOfA.status, withMissing.status, withIdsOfA.text)
        if (withIdsOfA.status >= 400) assert.deepEqual(strip(withIdsOfA.body), strip(withMissing.body))
        assert.doesNotMatch(withIdsOfA.text, new RegExp(a.siteId))
      })
  }

  test("after all of it, A's payments, captures, refunds and bill are unchanged", async () => {
    assert.equal(await stateOfA(), snapshot)
  })
})
