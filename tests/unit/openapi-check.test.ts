// The HTTP tests' answer check (tests/support/openapi-check.ts) can fail: a loopback server that answers
// a documented operation with a wrong shape, an undocumented status or a body that is not JSON, or any
// path with an error that is not the Error shape, makes fetch reject; answers as documented pass.
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { assertDocumented, documentChecker, UndocumentedAnswer } from '../support/openapi-check.ts'

const error = (errorCode: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ serviceName: 'payin-core', errorCode, description: 'd', userMessage: 'u', dateTime: '2026-11-22T10:15:30.123+00:00', traceId: '0123456789abcdef', ...extra })

// path → [status, content type, body]
const ANSWERS: Record<string, [number, string, string]> = {
  '/api/health': [200, 'application/json', '{"status":"ok"}'],
  '/partner/v1/health': [200, 'application/json', '{"status":"fine"}'],
  '/api/sites/s/payments/p': [418, 'application/json', error('internal.error')],
  '/api/sites/s/payments/p/refunds': [404, 'application/json', error('payin.request.conflict')],
  '/api/sites/s/bills/b/details': [404, 'application/json', error('payin.resource.not.found')],
  '/api/sites/s/bills/b': [200, 'text/html', '<p>hello</p>'],
  '/pay/x/attempts': [400, 'application/json', JSON.stringify({ message: 'no' })],
  '/dashboard/actions/sign-out': [403, 'application/json', error('auth.forbidden')],
  '/pay/x': [200, 'text/html', '<p>a page</p>'],
}

let server: http.Server
let base = ''
before(async () => {
  server = http.createServer((req, res) => {
    const [status, type, body] = ANSWERS[req.url!.split('?')[0]] ?? [404, 'text/plain', 'none']
    res.writeHead(status, { 'Content-Type': type }).end(body)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
after(() => new Promise<void>((r) => server.close(() => r())))

test('an answer as documented passes, its body still readable', async () => {
  const res = await fetch(`${base}/api/health`)
  assert.deepEqual(await res.json(), { status: 'ok' })
  assert.equal((await fetch(`${base}/api/sites/s/bills/b/details`)).status, 404)
  assert.equal((await fetch(`${base}/dashboard/actions/sign-out`, { method: 'POST' })).status, 403)
  // not the API: its pages are not checked
  assert.equal((await fetch(`${base}/pay/x`)).status, 200)
})

test('a wrong shape is refused, naming the operation, the status, what is wrong and the body', async () => {
  await assert.rejects(fetch(`${base}/partner/v1/health`), (e: Error) => {
    assert.ok(e instanceof UndocumentedAnswer)
    assert.match(e.message, /GET \/health \(health\) answered 200, a body the document does not describe/)
    assert.match(e.message, /\/status must be equal to constant/)
    assert.match(e.message, /body: \{"status":"fine"\}/)
    return true
  })
})

test('an undocumented status is refused', async () => {
  await assert.rejects(fetch(`${base}/api/sites/s/payments/p`), /GET \/sites\/\{siteId\}\/payments\/\{paymentId\} \(readPayment\) answered 418, a status the document does not give it/)
})

test("an error code the operation does not document for its status is refused", async () => {
  await assert.rejects(fetch(`${base}/api/sites/s/payments/p/refunds`), /\(listRefunds\) answered 404, a body the document does not describe[^]*errorCode must be equal to one of the allowed values/)
})

test('a documented JSON answer in another media type is refused', async () => {
  await assert.rejects(fetch(`${base}/api/sites/s/bills/b`), /\(listBillPayments\) answered 200 with Content-Type text\/html/)
})

test('a JSON error on any path must be the Error shape', async () => {
  await assert.rejects(fetch(`${base}/pay/x/attempts`, { method: 'POST' }), /POST \/pay\/x\/attempts answered 400, a body the document does not describe \(#\/components\/schemas\/Error\)/)
})

test('raw HTTP answers are checked by assertDocumented', () => {
  assert.doesNotThrow(() => assertDocumented({ method: 'GET', path: '/api/nope', status: 404, contentType: 'application/json', text: error('payin.resource.not.found') }))
  assert.throws(() => assertDocumented({ method: 'GET', path: '/api/nope', status: 404, contentType: 'application/json', text: error('no.such.code') }), UndocumentedAnswer)
  assert.throws(
    () => assertDocumented({ method: 'PUT', path: '/api/sites/s/payments/p', status: 400, contentType: 'application/json; charset=utf-8', text: error('validation.error', { cause: { amount: 'not a list' } }) }),
    /\/cause\/amount must be array/,
  )
  assert.throws(() => assertDocumented({ method: 'PUT', path: '/api/sites/s/payments/p', status: 400, contentType: 'application/json', text: '{"oops' }), /not JSON/)
})

test("a notification is checked against the document's webhooks: its body and signature headers", () => {
  const { webhookProblemOf } = documentChecker()
  const about = {
    billId: 'b-1',
    paymentMethod: { type: 'CARD', maskedPan: '411111******1111', rrn: '482913750164', authCode: '305918' },
    customer: {},
    customFields: {},
  }
  const payment = { type: 'PAYMENT', paymentId: 'p-1', createdDateTime: '2026-11-23T12:04:05+00:00', amount: { value: 60.5, currency: 'RUB' }, status: { value: 'SUCCESS', changedDateTime: '2026-11-23T12:04:05+00:00' }, ...about, flags: ['SALE'] }
  const headers = { signature: 'a'.repeat(64), 'payin-signature': `t=1790000000,v1=${'b'.repeat(64)}` }
  const body = (object: object) => JSON.stringify({ payment: object, type: 'PAYMENT', version: '1' })
  assert.equal(webhookProblemOf(body(payment), headers), null)
  // the API's status word instead of the notification's, and a date-time with milliseconds
  assert.match(webhookProblemOf(body({ ...payment, status: { value: 'COMPLETED', changedDateTime: '2026-11-23T12:04:05.120+00:00' } }), headers) ?? '', /\/payment\/status\/value must be equal to one of the allowed values/)
  assert.match(webhookProblemOf(body({ ...payment, extra: 1 }), headers) ?? '', /must NOT have additional properties/)
  assert.match(webhookProblemOf(body(payment), { signature: 'A1' }) ?? '', /Signature: A1[^]*no Payin-Signature header/)
  assert.match(webhookProblemOf(JSON.stringify({ type: 'SOMETHING' }), headers) ?? '', /a type the document does not describe/)
})
