// The error model: authentication, path ids, tenancy, unknown resources and routes, methods, bodies.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  assertErrorShape,
  assertValidation,
  cardPayment,
  client,
  newSite,
  request,
  twoStepPayment,
  uid,
  type Answer,
} from '../support/api.ts'

/** the parts of an error answer that do not change from one request to the next */
const stable = (a: Answer) => {
  const { dateTime, traceId, ...rest } = a.body ?? {}
  return { status: a.status, ...rest }
}

describe('health', () => {
  test('GET /api/health answers 200 {"status":"ok"} without a token', async () => {
    const r = await request('GET', '/api/health')
    assert.equal(r.status, 200, r.text)
    assert.deepEqual(r.body, { status: 'ok' })
  })
})

describe('authentication (401)', () => {
  let site: { siteId: string; token: string }
  let paymentId: string
  before(async () => {
    site = await newSite()
    paymentId = uid('pay')
    const r = await client(site).put(`/payments/${paymentId}`, cardPayment())
    assert.equal(r.status, 200, r.text)
  })

  test('no Authorization header on a read is 401 auth.unauthorized', async () => {
    const r = await request('GET', `/api/sites/${site.siteId}/payments/${paymentId}`)
    assertErrorShape(r, 401, 'auth.unauthorized')
  })

  test('no Authorization header on a create is 401 and creates nothing', async () => {
    const id = uid('pay')
    const r = await request('PUT', `/api/sites/${site.siteId}/payments/${id}`, { body: cardPayment() })
    assertErrorShape(r, 401, 'auth.unauthorized')
    assertErrorShape(await client(site).get(`/payments/${id}`), 404, 'payin.resource.not.found')
  })

  test('an unknown bearer token is 401', async () => {
    const r = await request('GET', `/api/sites/${site.siteId}/payments/${paymentId}`, { token: `unknown-${uid()}` })
    assertErrorShape(r, 401, 'auth.unauthorized')
  })

  test('a token that differs from a real one by a character is 401', async () => {
    const last = site.token.slice(-1)
    const other = site.token.slice(0, -1) + (last === 'a' ? 'b' : 'a')
    const r = await request('GET', `/api/sites/${site.siteId}/payments/${paymentId}`, { token: other })
    assertErrorShape(r, 401, 'auth.unauthorized')
  })

  for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Token abc', 'bearer-abc']) {
    test(`a malformed Authorization header (${JSON.stringify(header)}) is 401`, async () => {
      const r = await request('GET', `/api/sites/${site.siteId}/payments/${paymentId}`, {
        headers: { Authorization: header },
      })
      assertErrorShape(r, 401, 'auth.unauthorized')
    })
  }

  test('the real token under a scheme other than Bearer is 401', async () => {
    const r = await request('GET', `/api/sites/${site.siteId}/payments/${paymentId}`, {
      headers: { Authorization: `Basic ${site.token}` },
    })
    assertErrorShape(r, 401, 'auth.unauthorized')
  })

  test('401 comes before a malformed path id', async () => {
    const r = await request('GET', `/api/sites/${site.siteId}/payments/${'p'.repeat(201)}`)
    assertErrorShape(r, 401, 'auth.unauthorized')
  })

  test('401 comes before body parsing', async () => {
    const r = await request('PUT', `/api/sites/${site.siteId}/payments/${uid('pay')}`, { rawBody: '{"amount":' })
    assertErrorShape(r, 401, 'auth.unauthorized')
  })

  test('an unknown token on a valid card payment is 401 and creates nothing; so is a revoked one', async () => {
    const id = uid('pay')
    assertErrorShape(
      await request('PUT', `/api/sites/${site.siteId}/payments/${id}`, {
        token: `unknown-${uid()}`,
        body: cardPayment(),
      }),
      401,
      'auth.unauthorized',
    )
    assertErrorShape(await client(site).get(`/payments/${id}`), 404, 'payin.resource.not.found')
  })

  test('401 comes before every body problem on a create (type, size, JSON, schema)', async () => {
    const path = `/api/sites/${site.siteId}/payments/${uid('pay')}`
    const token = `unknown-${uid()}`
    for (const opts of [
      { rawBody: 'x=1', headers: { 'Content-Type': 'text/plain' } },
      { rawBody: `{"comment":"${'x'.repeat(70_000)}"}` },
      { rawBody: '{"amount":' },
      { body: { amount: 'nope' } },
    ])
      assertErrorShape(await request('PUT', path, { token, ...opts }), 401, 'auth.unauthorized')
  })

  test('an unknown token on another site path is 401, not 403', async () => {
    const other = await newSite()
    const r = await request('GET', `/api/sites/${other.siteId}/payments/${paymentId}`, { token: `unknown-${uid()}` })
    assertErrorShape(r, 401, 'auth.unauthorized')
  })
})

describe('malformed path ids (400)', () => {
  let api: ReturnType<typeof client>
  let paymentId: string
  before(async () => {
    api = client(await newSite())
    paymentId = uid('pay')
    const r = await api.put(`/payments/${paymentId}`, cardPayment())
    assert.equal(r.status, 200, r.text)
  })

  test('a 201-character paymentId is 400 with cause paymentId, on GET and on PUT', async () => {
    const id = 'p'.repeat(201)
    assertValidation(await api.get(`/payments/${id}`), 'paymentId')
    assertValidation(await api.put(`/payments/${id}`, cardPayment()), 'paymentId')
  })

  test('a 200-character paymentId of every allowed character class is accepted and echoed', async () => {
    const id = ('Az09._:-' + uid('p')).padEnd(200, 'x')
    assert.equal(id.length, 200)
    const r = await api.put(`/payments/${id}`, cardPayment())
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.paymentId, id)
    const read = await api.get(`/payments/${id}`)
    assert.equal(read.status, 200, read.text)
    assert.deepEqual(read.body, r.body)
  })

  test('a paymentId with an encoded space is 400 with cause paymentId', async () => {
    const r = await api.put(`/payments/pay%20${uid()}`, cardPayment())
    assertValidation(r, 'paymentId')
  })

  test('a paymentId with "!" is 400 with cause paymentId', async () => {
    const r = await api.get(`/payments/pay!${uid()}`)
    assertValidation(r, 'paymentId')
  })

  test('a malformed captureId is 400 with cause captureId', async () => {
    assertValidation(await api.put(`/payments/${paymentId}/captures/${'c'.repeat(201)}`), 'captureId')
    assertValidation(await api.get(`/payments/${paymentId}/captures/cap!x`), 'captureId')
  })

  test('a malformed refundId is 400 with cause refundId', async () => {
    assertValidation(
      await api.put(`/payments/${paymentId}/refunds/ref%20x`, { amount: { value: '1.00', currency: 'RUB' } }),
      'refundId',
    )
    assertValidation(await api.get(`/payments/${paymentId}/refunds/${'r'.repeat(201)}`), 'refundId')
  })

  test('a malformed paymentId in a refund path is 400 with cause paymentId', async () => {
    assertValidation(await api.get(`/payments/pay!x/refunds`), 'paymentId')
  })

  test('a malformed siteId is 400 with cause siteId', async () => {
    const r = await request('GET', `/api/sites/site!x/payments/${paymentId}`, { token: api.site.token })
    assertValidation(r, 'siteId')
  })

  test('400 for a malformed path id comes before 403', async () => {
    const other = await newSite()
    const r = await request('GET', `/api/sites/${other.siteId}/payments/${'p'.repeat(201)}`, { token: api.site.token })
    assertValidation(r, 'paymentId')
  })
})

describe('another site (403)', () => {
  let a: ReturnType<typeof client>
  let b: ReturnType<typeof client>
  let bPayment: string
  before(async () => {
    a = client(await newSite('a'))
    b = client(await newSite('b'))
    bPayment = uid('pay')
    const r = await b.put(`/payments/${bPayment}`, twoStepPayment())
    assert.equal(r.status, 200, r.text)
  })

  const asA = (
    method: string,
    path: string,
    opts: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ) => request(method, `/api/sites/${b.site.siteId}${path}`, { token: a.site.token, ...opts })

  test("reading another site's payment is 403 auth.forbidden", async () => {
    assertErrorShape(await asA('GET', `/payments/${bPayment}`), 403, 'auth.forbidden')
  })

  test('the 403 looks the same whether or not the payment exists on the other site', async () => {
    const existing = await asA('GET', `/payments/${bPayment}`)
    const missing = await asA('GET', `/payments/${uid('pay')}`)
    assertErrorShape(existing, 403, 'auth.forbidden')
    assertErrorShape(missing, 403, 'auth.forbidden')
    assert.deepEqual(stable(existing), stable(missing))
    assert.equal(existing.body.cause, undefined)
  })

  test("403 comes before body problems on a create under another site's path", async () => {
    for (const opts of [
      { rawBody: '{"amount":' },
      { body: { amount: 'nope' } },
      { rawBody: 'x', headers: { 'Content-Type': 'text/plain' } },
    ])
      assertErrorShape(await asA('PUT', `/payments/${uid('pay')}`, opts), 403, 'auth.forbidden')
  })

  test("creating a payment under another site's path is 403 and creates nothing there", async () => {
    const id = uid('pay')
    assertErrorShape(await asA('PUT', `/payments/${id}`, { body: cardPayment() }), 403, 'auth.forbidden')
    assertErrorShape(await b.get(`/payments/${id}`), 404, 'payin.resource.not.found')
  })

  test("capturing or refunding another site's payment is 403 and changes nothing", async () => {
    assertErrorShape(await asA('PUT', `/payments/${bPayment}/captures/${uid('cap')}`), 403, 'auth.forbidden')
    assertErrorShape(
      await asA('PUT', `/payments/${bPayment}/refunds/${uid('ref')}`, {
        body: { amount: { value: '100.00', currency: 'RUB' } },
      }),
      403,
      'auth.forbidden',
    )
    assertErrorShape(await asA('GET', `/payments/${bPayment}/refunds`), 403, 'auth.forbidden')
    const read = await b.get(`/payments/${bPayment}`)
    assert.equal(read.status, 200, read.text)
    assert.equal(read.body.capturedAmount.value, '0.00')
    assert.equal(read.body.refundedAmount.value, '0.00')
    const refunds = await b.get(`/payments/${bPayment}/refunds`)
    assert.deepEqual(refunds.body, [])
  })

  test('403 comes before body parsing', async () => {
    assertErrorShape(await asA('PUT', `/payments/${uid('pay')}`, { rawBody: '{"amount":' }), 403, 'auth.forbidden')
  })

  test('the payment of another site under the same paymentId is not revealed (own site: 404)', async () => {
    assertErrorShape(await a.get(`/payments/${bPayment}`), 404, 'payin.resource.not.found')
  })
})

describe('unknown resources and routes (404)', () => {
  let api: ReturnType<typeof client>
  let paymentId: string
  before(async () => {
    api = client(await newSite())
    paymentId = uid('pay')
    const r = await api.put(`/payments/${paymentId}`, cardPayment())
    assert.equal(r.status, 200, r.text)
  })

  test('an unknown payment is 404 payin.resource.not.found', async () => {
    assertErrorShape(await api.get(`/payments/${uid('pay')}`), 404, 'payin.resource.not.found')
  })

  test('a capture of an unknown payment is 404 and creates nothing', async () => {
    const pay = uid('pay')
    const cap = uid('cap')
    assertErrorShape(await api.put(`/payments/${pay}/captures/${cap}`), 404, 'payin.resource.not.found')
    assertErrorShape(await api.get(`/payments/${pay}/captures/${cap}`), 404, 'payin.resource.not.found')
  })

  test('a refund of an unknown payment is 404', async () => {
    const r = await api.put(`/payments/${uid('pay')}/refunds/${uid('ref')}`, {
      amount: { value: '1.00', currency: 'RUB' },
    })
    assertErrorShape(r, 404, 'payin.resource.not.found')
  })

  test('an unknown refund of a known payment is 404', async () => {
    assertErrorShape(await api.get(`/payments/${paymentId}/refunds/${uid('ref')}`), 404, 'payin.resource.not.found')
  })

  test('an unknown capture of a known payment is 404', async () => {
    assertErrorShape(await api.get(`/payments/${paymentId}/captures/${uid('cap')}`), 404, 'payin.resource.not.found')
  })

  test('the refund list of an unknown payment is 404', async () => {
    assertErrorShape(await api.get(`/payments/${uid('pay')}/refunds`), 404, 'payin.resource.not.found')
  })

  test('GET /api/nope is 404', async () => {
    assertErrorShape(await request('GET', '/api/nope', { token: api.site.token }), 404, 'payin.resource.not.found')
  })

  test('PUT /api/sites/{s}/whatever is 404', async () => {
    const r = await request('PUT', `/api/sites/${api.site.siteId}/whatever`, { token: api.site.token, body: {} })
    assertErrorShape(r, 404, 'payin.resource.not.found')
    assertErrorShape(
      await request('PUT', '/api/sites/x/whatever', { token: api.site.token, body: {} }),
      404,
      'payin.resource.not.found',
    )
  })

  test('an unknown route under a partner prefix is 404', async () => {
    assertErrorShape(
      await request('GET', '/partner/v1/nope', { token: api.site.token }),
      404,
      'payin.resource.not.found',
    )
    assertErrorShape(
      await request('GET', '/partner/payin/v1/nope', { token: api.site.token }),
      404,
      'payin.resource.not.found',
    )
  })

  test("the benchmark's bound route is an unknown route unless the server runs with BENCH_BOUNDS=1", async () => {
    for (const method of ['GET', 'PUT', 'POST', 'DELETE']) {
      for (const path of ['/api/bench-empty', '/partner/v1/bench-empty']) {
        const r = await request(method, path, {
          token: api.site.token,
          ...(method === 'PUT' || method === 'POST' ? { body: {} } : {}),
        })
        assertErrorShape(r, 404, 'payin.resource.not.found')
        assert.ok(r.headers.get('x-request-id'), `${method} ${path}: answered by the API wrapper`)
      }
    }
  })
})

describe('methods (405)', () => {
  let api: ReturnType<typeof client>
  let paymentId: string
  before(async () => {
    api = client(await newSite())
    paymentId = uid('pay')
    const r = await api.put(`/payments/${paymentId}`, cardPayment())
    assert.equal(r.status, 200, r.text)
  })

  const allowOf = (r: Answer) =>
    (r.headers.get('allow') ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean)
      .sort()

  test('DELETE on a payment is 405 with Allow: GET, PUT, and the payment stays', async () => {
    const r = await api.send('DELETE', `/payments/${paymentId}`)
    assertErrorShape(r, 405, 'http.method.not.allowed')
    assert.deepEqual(allowOf(r), ['GET', 'PUT'])
    assert.equal((await api.get(`/payments/${paymentId}`)).status, 200)
  })

  test('POST on a payment is 405 with an Allow header', async () => {
    const r = await api.post(`/payments/${paymentId}`, cardPayment())
    assertErrorShape(r, 405, 'http.method.not.allowed')
    assert.deepEqual(allowOf(r), ['GET', 'PUT'])
  })

  test('POST on a refund is 405 with an Allow header', async () => {
    const r = await api.post(`/payments/${paymentId}/refunds/${uid('ref')}`, {
      amount: { value: '1.00', currency: 'RUB' },
    })
    assertErrorShape(r, 405, 'http.method.not.allowed')
    assert.deepEqual(allowOf(r), ['GET', 'PUT'])
    const list = await api.get(`/payments/${paymentId}/refunds`)
    assert.deepEqual(list.body, [], 'the refused POST refunded nothing')
  })

  test('PUT on the refund list is 405 with Allow: GET', async () => {
    const r = await api.put(`/payments/${paymentId}/refunds`, { amount: { value: '1.00', currency: 'RUB' } })
    assertErrorShape(r, 405, 'http.method.not.allowed')
    assert.deepEqual(allowOf(r), ['GET'])
  })

  test('DELETE on a capture is 405 with an Allow header', async () => {
    const r = await api.send('DELETE', `/payments/${paymentId}/captures/${uid('cap')}`)
    assertErrorShape(r, 405, 'http.method.not.allowed')
    assert.deepEqual(allowOf(r), ['GET', 'PUT'])
  })
})

describe('request bodies', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite())
  })

  const expectNoPayment = async (id: string) =>
    assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')

  test('malformed JSON on a payment PUT is 400 http.message.conversion.failed and creates nothing', async () => {
    const id = uid('pay')
    const r = await api.send('PUT', `/payments/${id}`, { rawBody: '{"amount": {"value": "1.00",' })
    assertErrorShape(r, 400, 'http.message.conversion.failed')
    await expectNoPayment(id)
  })

  test('a JSON body with trailing garbage is 400 http.message.conversion.failed', async () => {
    const id = uid('pay')
    const r = await api.send('PUT', `/payments/${id}`, { rawBody: JSON.stringify(cardPayment()) + ' x' })
    assertErrorShape(r, 400, 'http.message.conversion.failed')
    await expectNoPayment(id)
  })

  test('an empty body on a payment PUT is 400 http.message.conversion.failed', async () => {
    const id = uid('pay')
    assertErrorShape(await api.send('PUT', `/payments/${id}`, { rawBody: '' }), 400, 'http.message.conversion.failed')
    assertErrorShape(await api.send('PUT', `/payments/${id}`), 400, 'http.message.conversion.failed')
    await expectNoPayment(id)
  })

  for (const raw of ['[1]', '"x"']) {
    test(`a non-object JSON body (${raw}) on a payment PUT is 400 validation.error with cause body`, async () => {
      const id = uid('pay')
      assertValidation(await api.send('PUT', `/payments/${id}`, { rawBody: raw }), 'body')
      await expectNoPayment(id)
    })
  }

  test('an error never echoes the card number that was sent', async () => {
    const pan = '4111111111111112' // Luhn-invalid
    const r = await api.put(`/payments/${uid('pay')}`, cardPayment({}, { pan }))
    assertValidation(r, 'paymentMethod.pan')
    assert.ok(!r.text.includes(pan), r.text)
    const bad = await api.send('PUT', `/payments/${uid('pay')}`, {
      rawBody: '{"paymentMethod":{"pan":"4111111111111111", x',
    })
    assertErrorShape(bad, 400, 'http.message.conversion.failed')
    assert.ok(!bad.text.includes('4111111111111111'), bad.text)
  })

  test('a body over 64 KiB is 413 http.payload.too.large and creates nothing', async () => {
    const id = uid('pay')
    const r = await api.put(`/payments/${id}`, cardPayment({ comment: 'x'.repeat(70_000) }))
    assertErrorShape(r, 413, 'http.payload.too.large')
    await expectNoPayment(id)
  })

  test('Content-Type application/json;charset=UTF-8 is accepted', async () => {
    const id = uid('pay')
    const r = await api.send('PUT', `/payments/${id}`, {
      body: cardPayment(),
      headers: { 'Content-Type': 'application/json;charset=UTF-8' },
    })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.paymentId, id)
    assert.equal(r.body.status.value, 'COMPLETED')
  })

  test('unknown fields are ignored', async () => {
    const id = uid('pay')
    const r = await api.put(`/payments/${id}`, {
      ...cardPayment(),
      somethingNew: { a: 1 },
      amount: { value: '5.00', currency: 'RUB', extra: true },
    })
    assert.equal(r.status, 200, r.text)
    assert.deepEqual(r.body.amount, { value: '5.00', currency: 'RUB' })
    assert.equal(r.body.somethingNew, undefined)
  })
})
