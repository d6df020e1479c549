// Hostile request targets meet the contract's error shape, never a 500 or an HTML page: malformed
// percent-encodings, control characters, bytes Node's parser refuses, bare protocol prefixes, methods
// the service does not serve (TRACE, PROPFIND, …: a 405 with Allow, logged); a trailing slash is
// served as without it (no HTML 308).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import { test } from 'node:test'
import { BASE_URL, billRequest, cardPayment, client, newSite, request, uid } from '../support/api.ts'
import { assertDocumented, rawAnswer } from '../support/openapi-check.ts'

/** an answer in the contract's error shape, with the trace id in header and body */
function assertErrorShape(
  r: { status: number; headers: Headers; body: any; text: string },
  status: number,
  errorCode: string,
) {
  assert.equal(r.status, status, r.text)
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/)
  assert.equal(r.body?.serviceName, 'payin-core', r.text)
  assert.equal(r.body.errorCode, errorCode)
  assert.match(r.body.dateTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/)
  assert.ok(r.headers.get('x-trace-id'), 'X-Trace-Id header')
  assert.equal(r.body.traceId, r.headers.get('x-trace-id'))
}

test('a malformed percent-encoding in any path is a 400 in the error shape', async () => {
  const site = await newSite('pct')
  for (const path of [
    `/api/sites/${site.siteId}/payments/%E0%A4%A`,
    `/api/sites/${site.siteId}/payments/%zz`,
    '/api/%C0%AF',
    `/partner/v1/sites/${site.siteId}/bills/%`,
    '/pay/%zz',
    '/pay/%E0%A4%A/attempts',
    '/acs/%ff',
  ]) {
    const r = await request('GET', path, { token: site.token })
    assertErrorShape(r, 400, 'validation.error')
    assert.ok(r.body.cause?.path, `${path}: cause names the path`)
  }
})

test('control characters in a path (encoded) are a 400, not passed on', async () => {
  const site = await newSite('ctl')
  for (const path of [`/api/sites/${site.siteId}/payments/a%00b`, `/api/sites/${site.siteId}/bills/%0a`, '/pay/%7f']) {
    assertErrorShape(await request('GET', path, { token: site.token }), 400, 'validation.error')
  }
})

/** one raw request line over a socket to the server; the answer as text */
function rawRequest(requestLine: Buffer): Promise<string> {
  const { hostname, port } = new URL(BASE_URL)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () =>
      socket.write(Buffer.concat([requestLine, Buffer.from('\r\nHost: x\r\n\r\n')])),
    )
    let text = ''
    socket.on('data', (c) => (text += c.toString('latin1')))
    socket.on('error', reject)
    socket.on('close', () => resolve(text))
  })
}

test("bytes Node's parser refuses in a request line get the error shape and a trace id", async () => {
  // the last on a documented operation's path: a request that is not HTTP reaches no operation, yet its answer is one
  // the document gives every operation
  for (const bad of [
    'GET /api/\x01x HTTP/1.1',
    'GET /a b c HTTP/1.1',
    'GET /api/\xff HTTP/1.1',
    'GET /pay/\x7f HTTP/1.1',
    'GET /api/sites/s/payments/\x00 HTTP/1.1',
  ]) {
    const answer = await rawRequest(Buffer.from(bad, 'latin1'))
    assert.match(answer, /^HTTP\/1\.1 400 /, JSON.stringify(bad))
    const traceId = /\r\nX-Trace-Id: ([0-9a-f]{16})\r\n/i.exec(answer)?.[1]
    assert.ok(traceId, 'X-Trace-Id header')
    const text = answer.slice(answer.indexOf('\r\n\r\n') + 4)
    const body = JSON.parse(text)
    assert.equal(body.errorCode, 'http.message.conversion.failed')
    assertDocumented(rawAnswer('GET', bad.split(' ')[1], answer))
    assert.equal(body.traceId, traceId)
    assert.match(body.dateTime, /[+-]\d\d:\d\d$/)
  }
})

test('a raw # in the request target (a fragment, never sent by a client) is a 400 in the error shape, not a redirect', async () => {
  const site = await newSite('frag')
  for (const target of [
    `/api/sites/${site.siteId}/payments/#`,
    `/api/sites/${site.siteId}/payments/p#x`,
    '/pay/#',
    '/api/health?x=#y',
  ]) {
    const answer = await rawRequest(
      Buffer.from(`GET ${target} HTTP/1.1\r\nAuthorization: Bearer ${site.token}`, 'latin1'),
    )
    assert.match(answer, /^HTTP\/1\.1 400 /, target)
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))
    assert.equal(body.errorCode, 'http.message.conversion.failed')
    assert.match(body.description, /fragment \(#\)/)
    assertDocumented(rawAnswer('GET', target, answer))
  }
})

/** the server log's line of a trace id (15 s at most) */
async function logLineOf(traceId: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 15_000
  for (;;) {
    const line = fs
      .readFileSync(process.env.SERVER_LOG!, 'utf8')
      .split('\n')
      .find((l) => l.includes(`"traceId":"${traceId}"`))
    if (line) return JSON.parse(line)
    if (Date.now() > deadline) throw new Error(`no log line with trace id ${traceId}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

test('a method the service does not serve (TRACE, PROPFIND, MKCOL, PURGE, LINK) is the JSON 405 with Allow and a trace id, logged; on any path', async () => {
  const site = await newSite('methods')
  const payment = `/api/sites/${site.siteId}/payments/${uid('pay')}`
  const cases: [string, string, number, string | null][] = [
    ['TRACE', payment, 405, 'PUT, GET'],
    ['PROPFIND', payment, 405, 'PUT, GET'],
    ['MKCOL', `/partner/v1/sites/${site.siteId}/bills/b-1`, 405, 'PUT, GET'],
    ['PURGE', '/api/health', 405, 'GET'],
    ['LINK', `/partner/payin/v1/sites/${site.siteId}/payments/p/complete`, 405, 'POST'],
    ['PROPFIND', '/api/openapi.json', 405, 'GET'],
    // an unknown API path is a 404 whatever the method, as for the others
    ['PROPFIND', `/api/sites/${site.siteId}/nothing`, 404, null],
    // the pages: read and posted
    ['TRACE', '/pay/0d3c8b61-4a8e-4a57-a64b-1f2f9b8f0c11', 405, 'GET, HEAD, POST'],
    ['PROPFIND', '/', 405, 'GET, HEAD, POST'],
  ]
  for (const [method, path, status, allow] of cases) {
    const raw = await rawRequest(
      Buffer.from(`${method} ${path} HTTP/1.1\r\nAuthorization: Bearer ${site.token}`, 'latin1'),
    )
    const answer = rawAnswer(method, path, raw)
    const what = `${method} ${path}: ${raw.slice(0, 300)}`
    assert.equal(answer.status, status, what)
    assert.match(answer.headers['content-type'] ?? '', /^application\/json/, what)
    assert.equal(answer.headers.allow, allow ?? undefined, what)
    const body = JSON.parse(answer.text)
    assert.equal(body.errorCode, status === 405 ? 'http.method.not.allowed' : 'payin.resource.not.found', what)
    assert.match(answer.headers['x-trace-id'] ?? '', /^[0-9a-f]{16}$/, what)
    assert.equal(body.traceId, answer.headers['x-trace-id'])
    assertDocumented(answer)
    const line = await logLineOf(body.traceId)
    assert.deepEqual(
      [line.kind, line.method, line.status, line.level],
      ['front-door', method, status, 'info'],
      JSON.stringify(line),
    )
  }
  // nothing was created by the refused requests
  assert.equal((await request('GET', payment, { token: site.token })).status, 404)
})

test('the bare protocol prefixes and unknown partner paths answer the JSON 404', async () => {
  for (const path of [
    '/api',
    '/api/',
    '/partner/v1',
    '/partner/v1/',
    '/partner/payin/v1',
    '/partner/payin/v1/',
    '/partner',
    '/partner/v2/sites/x/payments/y',
    '/API',
  ]) {
    const r = await request('GET', path)
    assertErrorShape(r, 404, 'payin.resource.not.found')
  }
  // POST as well (no body is read)
  assertErrorShape(await request('POST', '/partner/v1', { body: {} }), 404, 'payin.resource.not.found')
})

test('a trailing slash is served as without it, never an HTML 308', async () => {
  const site = await newSite('slash')
  const api = client(site)
  const id = await api.newPayment(cardPayment())
  const health = await fetch(`${BASE_URL}/api/health/`, { redirect: 'manual' })
  assert.equal(health.status, 200)
  assert.deepEqual(await health.json(), { status: 'ok' })
  for (const prefix of ['/api', '/partner/v1', '/partner/payin/v1']) {
    const r = await request('GET', `${prefix}/sites/${site.siteId}/payments/${id}/`, { token: site.token })
    assert.equal(r.status, 200, `${prefix}: ${r.text}`)
    assert.equal(r.body.paymentId, id)
  }
  const unknown = await fetch(`${BASE_URL}/api/sites/${site.siteId}/nothing/`, {
    redirect: 'manual',
    headers: { Authorization: `Bearer ${site.token}` },
  })
  assert.equal(unknown.status, 404)
  assert.match(unknown.headers.get('content-type') ?? '', /^application\/json/)
  const page = await fetch(`${BASE_URL}/pay/0d3c8b61-4a8e-4a57-a64b-1f2f9b8f0c11/`, { redirect: 'manual' })
  assert.notEqual(page.status, 308)
  assert.equal(page.status, 404)
})

test("a query is the page's to judge: a payer's link with `50%off` or Latin-1 escapes opens the page", async () => {
  const site = await newSite('query')
  const bill = await client(site).put(`/bills/${uid('bill')}`, billRequest())
  const res = await fetch(`${BASE_URL}/pay/${bill.body.invoiceUid}?utm_campaign=50%off&q=%E9t%E9`)
  assert.equal(res.status, 200)
  assert.match(await res.text(), /<form/)
})
