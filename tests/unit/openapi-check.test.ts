// The HTTP tests' answer check (tests/support/openapi-check.ts) can fail: a loopback server that answers
// a documented operation with a wrong shape, an undocumented status, a body that is not JSON or without
// the headers it documents, any path with a JSON error that is not the Error shape, or an API path with
// an error that is not JSON or has no trace id, makes fetch reject; answers as documented pass. The
// published document reads production's answers (tests/fixtures/observed-responses, copied from the
// protocol's reference), while the strict variant still refuses what this service never sends.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import {
  answerChecker,
  assertDocumented,
  documentChecker,
  rawAnswer,
  UndocumentedAnswer,
  type Answer,
} from '../support/openapi-check.ts'
import { buildApiDocument } from '../../lib/openapi/api-document.ts'

const TRACE = '0123456789abcdef'
const error = (errorCode: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    serviceName: 'payin-core',
    errorCode,
    description: 'd',
    userMessage: 'u',
    dateTime: '2026-11-22T10:15:30.123+00:00',
    traceId: TRACE,
    ...extra,
  })

/** a payment as this service answers it */
const PAYMENT_TIME = '2026-11-22T10:15:30.123+00:00'
const PAYMENT = {
  paymentId: 'p',
  billId: 'b',
  createdDateTime: PAYMENT_TIME,
  amount: { value: '1.00', currency: 'RUB' },
  capturedAmount: { value: '1.00', currency: 'RUB' },
  refundedAmount: { value: '0.00', currency: 'RUB' },
  paymentMethod: { type: 'CARD', maskedPan: '411111******1111' },
  status: { value: 'COMPLETED', changedDateTime: PAYMENT_TIME },
  flags: ['SALE'],
}

/** a JSON 200 of `method path` with `body` */
const okAnswer = (path: string, body: unknown, method = 'GET'): Answer => ({
  method,
  path,
  status: 200,
  headers: { 'content-type': 'application/json', 'x-trace-id': TRACE },
  text: JSON.stringify(body),
})

// path → [status, content type, body, headers]
const ANSWERS: Record<string, [number, string, string, Record<string, string>?]> = {
  '/api/health': [200, 'application/json', '{"status":"ok"}'],
  '/partner/v1/health': [200, 'application/json', '{"status":"fine"}'],
  '/api/ready': [200, 'application/json', '{"status":"ready"}', { 'X-Trace-Id': 'not-a-trace-id' }],
  '/api/openapi.json': [
    200,
    'application/json',
    '{"openapi":"3.1.1","info":{"title":"t","version":"1"},"paths":{}}',
    { 'X-Trace-Id': '' },
  ],
  '/api/sites/s/payments/p': [418, 'application/json', error('internal.error')],
  '/api/sites/s/payments/p/refunds': [404, 'application/json', error('payin.request.conflict')],
  '/api/sites/s/bills/b/details': [404, 'application/json', error('payin.resource.not.found')],
  '/api/sites/s/bills/b': [200, 'text/html', '<p>hello</p>'],
  '/api/sites/s/notifications': [429, 'application/json', error('rate.limit.exceeded')],
  '/api/sites/s/payments/p/captures/c': [400, '', ''],
  '/api/somewhere': [405, 'text/html', '<h1>Method not allowed</h1>'],
  '/api/elsewhere': [404, 'application/json', error('payin.resource.not.found'), { 'X-Trace-Id': '' }],
  '/api/other': [404, 'application/json', error('payin.resource.not.found'), { 'X-Trace-Id': 'fedcba9876543210' }],
  '/pay/x/attempts': [400, 'application/json', JSON.stringify({ message: 'no' })],
  '/dashboard/actions/sign-out': [403, 'application/json', error('auth.forbidden')],
  '/pay/x': [200, 'text/html', '<p>a page</p>'],
  '/pay/gone': [404, 'text/html', '<p>no such page</p>'],
}

let server: http.Server
let base = ''
before(async () => {
  server = http.createServer((req, res) => {
    const [status, type, body, headers = {}] = ANSWERS[req.url!.split('?')[0]] ?? [404, 'text/plain', 'none']
    // every answer carries a trace id unless the case says otherwise ('' leaves it out)
    const all: Record<string, string> = { ...(type ? { 'Content-Type': type } : {}), 'X-Trace-Id': TRACE, ...headers }
    if (all['X-Trace-Id'] === '') delete all['X-Trace-Id']
    res.writeHead(status, all).end(body)
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
    assert.match(
      e.message,
      /GET \/health \(health\) answered 200, a body the strict variant \(this service.s exact answers\) does not describe/,
    )
    assert.match(e.message, /\/status must be equal to constant/)
    assert.match(e.message, /body: \{"status":"fine"\}/)
    return true
  })
})

test('an undocumented status is refused', async () => {
  await assert.rejects(
    fetch(`${base}/api/sites/s/payments/p`),
    /GET \/sites\/\{siteId\}\/payments\/\{paymentId\} \(readPayment\) answered 418, a status the document does not give it/,
  )
})

test('an error code the operation does not document for its status is refused', async () => {
  await assert.rejects(
    fetch(`${base}/api/sites/s/payments/p/refunds`),
    /\(listRefunds\) answered 404, a body the strict variant \(this service.s exact answers\) does not describe[^]*errorCode must be equal to one of the allowed values/,
  )
})

test('a documented JSON answer in another media type is refused', async () => {
  await assert.rejects(
    fetch(`${base}/api/sites/s/bills/b`),
    /\(listBillPayments\) answered 200 with Content-Type text\/html/,
  )
})

test('a JSON error on any path must be the Error shape', async () => {
  await assert.rejects(
    fetch(`${base}/pay/x/attempts`, { method: 'POST' }),
    /POST \/pay\/x\/attempts answered 400, a body the strict variant \(this service.s exact answers\) does not describe \(#\/components\/schemas\/Error\)/,
  )
})

test('raw HTTP answers are checked by assertDocumented', () => {
  const json = { 'content-type': 'application/json', 'x-trace-id': TRACE }
  assert.doesNotThrow(() =>
    assertDocumented({
      method: 'GET',
      path: '/api/nope',
      status: 404,
      headers: json,
      text: error('payin.resource.not.found'),
    }),
  )
  assert.throws(
    () =>
      assertDocumented({ method: 'GET', path: '/api/nope', status: 404, headers: json, text: error('no.such.code') }),
    UndocumentedAnswer,
  )
  assert.throws(
    () =>
      assertDocumented({
        method: 'PUT',
        path: '/api/sites/s/payments/p',
        status: 400,
        headers: { ...json, 'content-type': 'application/json; charset=utf-8' },
        text: error('validation.error', { cause: { amount: 'not a list' } }),
      }),
    /\/cause\/amount must be array/,
  )
  assert.throws(
    () =>
      assertDocumented({ method: 'PUT', path: '/api/sites/s/payments/p', status: 400, headers: json, text: '{"oops' }),
    /not JSON/,
  )
  // read off a socket: headers, a chunked body
  const chunked = (body: string) =>
    `HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nX-Trace-Id: ${TRACE}\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`
  const read = rawAnswer('GET', '/api/nope', chunked(error('payin.resource.not.found')))
  assert.deepEqual(
    [read.status, read.headers['x-trace-id'], JSON.parse(read.text).errorCode],
    [404, TRACE, 'payin.resource.not.found'],
  )
  assert.doesNotThrow(() => assertDocumented(read))
  assert.throws(
    () =>
      assertDocumented(
        rawAnswer('PROPFIND', '/api/sites/s/payments/p', 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'),
      ),
    /an error under the API's prefixes is the JSON Error/,
  )
})

test("an error under the API's prefixes must be the JSON Error with its trace id, whatever the method or path", async () => {
  // Next.js's own answers to a method it does not know: an empty 400, an HTML page
  await assert.rejects(
    fetch(`${base}/api/sites/s/payments/p/captures/c`, { method: 'PROPFIND' }),
    /PROPFIND \/api\/sites\/s\/payments\/p\/captures\/c answered 400 with Content-Type null: an error under the API's prefixes is the JSON Error/,
  )
  await assert.rejects(fetch(`${base}/api/somewhere`, { method: 'PATCH' }), /answered 405 with Content-Type text\/html/)
  await assert.rejects(fetch(`${base}/api/elsewhere`), /answered 404 without an X-Trace-Id header/)
  await assert.rejects(
    fetch(`${base}/api/other`),
    /with X-Trace-Id fedcba9876543210 but traceId "0123456789abcdef" in its body/,
  )
  await assert.rejects(
    fetch(`${base}/api/elsewhere`, { method: 'HEAD' }),
    /HEAD \/api\/elsewhere answered 404 without an X-Trace-Id header/,
  )
  // a page's own HTML 404 is not the API's
  assert.equal((await fetch(`${base}/pay/gone`)).status, 404)
})

test('the headers an answer documents: required ones there, each as its schema says', async () => {
  // a 429 says when to come back
  await assert.rejects(
    fetch(`${base}/api/sites/s/notifications`),
    /\(listNotifications\) answered 429 with headers the document does not describe:\n {2}no Retry-After header/,
  )
  await assert.rejects(
    fetch(`${base}/api/ready`),
    /\(ready\) answered 200 with headers[^]*X-Trace-Id: "not-a-trace-id" is not as/,
  )
  await assert.rejects(
    fetch(`${base}/api/openapi.json`),
    /\(openApiDocument\) answered 200 with headers[^]*no X-Trace-Id header/,
  )
  const { problemOf } = documentChecker()
  const limited = { method: 'GET', path: '/api/sites/s/notifications', status: 429, text: error('rate.limit.exceeded') }
  assert.equal(
    problemOf({
      ...limited,
      headers: { 'content-type': 'application/json', 'x-trace-id': TRACE, 'retry-after': '30' },
    }),
    null,
  )
  assert.match(
    problemOf({
      ...limited,
      headers: { 'content-type': 'application/json', 'x-trace-id': TRACE, 'retry-after': '0' },
    }) ?? '',
    /Retry-After: "0" is not as/,
  )
})

test("a 2xx of a PUT or POST holds the JSON body the test sent to the operation's requestBody", () => {
  const { problemOf } = documentChecker()
  const capture = {
    captureId: 'cap-1',
    createdDateTime: '2026-11-22T10:15:30.123+00:00',
    amount: { value: '1.00', currency: 'RUB' },
    status: { value: 'COMPLETED', changedDateTime: '2026-11-22T10:15:30.123+00:00' },
  }
  const answer = (requestBody?: string): Answer => ({
    method: 'PUT',
    path: '/api/sites/s/payments/p/captures/cap-1',
    status: 200,
    headers: { 'content-type': 'application/json', 'x-trace-id': TRACE },
    text: JSON.stringify(capture),
    requestBody,
  })
  assert.equal(problemOf(answer('{"amount":{"value":"1.00","currency":"RUB"}}')), null)
  assert.equal(problemOf(answer()), null)
  assert.match(
    problemOf(answer('{"amount":{"value":"one","currency":"RUB"}}')) ?? '',
    /\(capturePayment\) answered 200 to a request the service accepted but the document's requestBody refuses[^]*\/amount\/value/,
  )
  // a refused request (4xx) is the service's to judge, not the document's
  assert.equal(
    problemOf({
      ...answer('{"amount":{"value":"one","currency":"RUB"}}'),
      status: 400,
      text: error('validation.error', { cause: { 'amount.value': ['no'] } }),
    }),
    null,
  )
})

/**
 * each file of tests/fixtures/observed-responses (answers of production, copied from the protocol's reference): the
 * operation (on the path of the ids it carries) and status it answers
 */
const OBSERVED: Record<string, [method: string, path: string, status: number]> = {
  'bills-create.json': ['PUT', '/api/sites/s/bills/893794793973', 200],
  'bills-create_validation_error.json': ['PUT', '/api/sites/s/bills/b', 400],
  'bills-payments.json': ['GET', '/api/sites/s/bills/893794793973', 200],
  'bills-status.json': ['GET', '/api/sites/s/bills/893794793973/details', 200],
  'captures-create.json': ['PUT', '/api/sites/s/payments/p/captures/capture-id', 200],
  'captures-repeated_capture_attemption_error.json': ['PUT', '/api/sites/s/payments/p/captures/c', 409],
  'captures-status.json': ['GET', '/api/sites/s/payments/p/captures/capture-id', 200],
  'refunds-bad_request_error.json': ['PUT', '/api/sites/s/payments/p/refunds/r', 400],
  'refunds-create.json': ['PUT', '/api/sites/s/payments/p/refunds/899343443', 200],
  'refunds-status.json': ['GET', '/api/sites/s/payments/p/refunds/899343443', 200],
  'refunds-statuses.json': ['GET', '/api/sites/s/payments/p/refunds', 200],
}
const OBSERVED_DIR = new URL('../fixtures/observed-responses/', import.meta.url)

test("production's answers (observed) validate against the published document; the strict variant refuses them", () => {
  const files = fs
    .readdirSync(OBSERVED_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
  assert.deepEqual(files, Object.keys(OBSERVED).sort(), 'every observed answer is mapped to its operation')
  const published = answerChecker(JSON.parse(fs.readFileSync('openapi.json', 'utf8')))
  const strict = answerChecker(buildApiDocument({ strict: true }))
  for (const [file, [method, path, status]] of Object.entries(OBSERVED)) {
    const text = fs.readFileSync(new URL(file, OBSERVED_DIR), 'utf8')
    // production's trace id is in the body; the observed files carry no headers
    const headers = { 'content-type': 'application/json', 'x-trace-id': JSON.parse(text).traceId ?? TRACE }
    const answer: Answer = { method, path, status, headers, text }
    assert.ok(published.operationOf(method, path), `${file}: ${method} ${path} is a documented operation`)
    assert.equal(published.problemOf(answer), null, file)
    // what production sends and this service does not: extra fields, fields left out, TEST, six-digit fractions, …
    assert.match(
      strict.problemOf(answer) ?? '',
      /does not describe/,
      `${file}: the strict variant tells production's answer from ours`,
    )
  }
})

test('the strict variant refuses an extra field, a missing one, another value or date-time form; the published document reads them', () => {
  const payment = PAYMENT
  const answer = (body: object) => okAnswer('/api/sites/s/payments/p', body)
  const { problemOf } = documentChecker()
  const published = answerChecker(JSON.parse(fs.readFileSync('openapi.json', 'utf8')))
  assert.equal(problemOf(answer(payment)), null)
  const variants: [string, object, RegExp][] = [
    ['an extra field', { ...payment, credentialOnFile: { type: 'RECURRING' } }, /must NOT have additional properties/],
    [
      'an extra field deeper in',
      { ...payment, paymentMethod: { ...payment.paymentMethod, cardHolder: 'CARD HOLDER' } },
      /\/paymentMethod must NOT have additional properties/,
    ],
    [
      'a flag of production',
      { ...payment, flags: ['SALE', 'TEST'] },
      /\/flags\/1 must be equal to one of the allowed values/,
    ],
    [
      'a date-time without milliseconds',
      { ...payment, createdDateTime: '2026-11-22T10:15:30+03:00' },
      /\/createdDateTime must match pattern/,
    ],
  ]
  for (const [what, body, refusal] of variants) {
    assert.match(problemOf(answer(body)) ?? '', new RegExp(`the strict variant[^]*${refusal.source}`), what)
    assert.equal(published.problemOf(answer(body)), null, `${what}: the published document reads it`)
  }
  const { flags: _, ...withoutFlags } = payment
  assert.match(problemOf(answer(withoutFlags)) ?? '', /must have required property 'flags'/)
  // a field production always sends stays required in the published document too
  const { status: __, ...withoutStatus } = payment
  assert.match(published.problemOf(answer(withoutStatus)) ?? '', /must have required property 'status'/)
})

test("a notification is checked against the document's webhooks: its body and signature headers", () => {
  const { webhookProblemOf } = documentChecker()
  const about = {
    billId: 'b-1',
    paymentMethod: { type: 'CARD', maskedPan: '411111******1111', rrn: '482913750164', authCode: '305918' },
    merchantSiteUid: 's-1',
    customer: {},
    customFields: {},
  }
  const payment = {
    type: 'PAYMENT',
    paymentId: 'p-1',
    createdDateTime: '2026-11-23T12:04:05+00:00',
    amount: { value: 60.5, currency: 'RUB' },
    status: { value: 'SUCCESS', changedDateTime: '2026-11-23T12:04:05+00:00' },
    ...about,
    flags: ['SALE'],
  }
  const headers = { signature: 'a'.repeat(64), 'payin-signature': `t=1790000000,v1=${'b'.repeat(64)}` }
  const body = (object: object) => JSON.stringify({ payment: object, type: 'PAYMENT', version: '1' })
  assert.equal(webhookProblemOf(body(payment), headers), null)
  // the API's status word instead of the notification's, and a date-time with milliseconds
  assert.match(
    webhookProblemOf(
      body({ ...payment, status: { value: 'COMPLETED', changedDateTime: '2026-11-23T12:04:05.120+00:00' } }),
      headers,
    ) ?? '',
    /\/payment\/status\/value must be equal to one of the allowed values/,
  )
  assert.match(webhookProblemOf(body({ ...payment, extra: 1 }), headers) ?? '', /must NOT have additional properties/)
  assert.match(webhookProblemOf(body(payment), { signature: 'A1' }) ?? '', /Signature: A1[^]*no Payin-Signature header/)
  assert.match(
    webhookProblemOf(JSON.stringify({ type: 'SOMETHING' }), headers) ?? '',
    /a type the document does not describe/,
  )
})

test("production-shaped values the published document reads and the strict variant refuses: flags beside ours (TEST), production's rrn, a token not of our pt_ form", () => {
  const published = answerChecker(JSON.parse(fs.readFileSync('openapi.json', 'utf8')))
  const strict = answerChecker(buildApiDocument({ strict: true }))
  const headers = { signature: 'a'.repeat(64), 'payin-signature': `t=1790000000,v1=${'b'.repeat(64)}` }
  const T = '2023-03-22T18:38:24+03:00'
  // as production's answers carry them (bills-status.json: rrn "123", flags ["TEST"])
  const paymentMethod = { type: 'CARD', maskedPan: '453265******8362', rrn: '123', authCode: '18121' }
  const about = { billId: 'b-1', paymentMethod, customer: {}, customFields: {} }
  const amount = { value: 3, currency: 'RUB' }
  const notifications: [string, object][] = [
    [
      'payment',
      {
        payment: {
          type: 'PAYMENT',
          paymentId: 'p-1',
          createdDateTime: T,
          amount,
          status: { value: 'SUCCESS', changedDateTime: T },
          ...about,
          flags: ['SALE', 'TEST'],
          tokenData: { paymentToken: 'a1b2c3d4-token', expiredDate: T },
        },
        type: 'PAYMENT',
        version: '1',
      },
    ],
    [
      'payment without flags of ours',
      {
        payment: {
          type: 'PAYMENT',
          paymentId: 'p-1',
          createdDateTime: T,
          amount,
          status: { value: 'SUCCESS', changedDateTime: T },
          ...about,
          flags: [],
        },
        type: 'PAYMENT',
        version: '1',
      },
    ],
    [
      'capture',
      {
        capture: {
          type: 'CAPTURE',
          captureId: 'c-1',
          paymentId: 'p-1',
          createdDateTime: T,
          amount,
          status: { value: 'SUCCESS', changedDateTime: T },
          ...about,
          flags: ['TEST'],
        },
        type: 'CAPTURE',
        version: '1',
      },
    ],
    [
      'refund',
      {
        refund: {
          type: 'REFUND',
          refundId: 'r-1',
          paymentId: 'p-1',
          createdDateTime: T,
          amount,
          status: { value: 'SUCCESS', changedDateTime: T },
          ...about,
          flags: ['TEST'],
        },
        type: 'REFUND',
        version: '1',
      },
    ],
  ]
  for (const [what, body] of notifications) {
    assert.equal(
      published.webhookProblemOf(JSON.stringify(body), headers),
      null,
      `${what}: the published webhook reads it`,
    )
    assert.match(
      strict.webhookProblemOf(JSON.stringify(body), headers) ?? '',
      /does not describe/,
      `${what}: the strict variant refuses it`,
    )
  }
  // the API's answer: a token issued in production's form
  const payment = {
    ...PAYMENT,
    customer: { account: 'acc-1' },
    flags: ['SALE', 'BIND_PAYMENT_TOKEN', 'TEST'],
    createdToken: { token: '3f0c9a7e-token', name: '411111******1111' },
  }
  const answer = okAnswer('/api/sites/s/payments/p', payment)
  assert.equal(published.problemOf(answer), null)
  assert.match(strict.problemOf(answer) ?? '', /\/createdToken\/token must match pattern/)
})

test('the strict variant holds an answer to the rules between its fields, and every check to the ids of its path: each drift refused', () => {
  const { problemOf, webhookProblemOf } = documentChecker()
  const published = answerChecker(JSON.parse(fs.readFileSync('openapi.json', 'utf8')))
  const T = PAYMENT_TIME
  const money = PAYMENT.amount
  const payment = PAYMENT
  const ok = okAnswer
  const paymentAnswer = (body: object) => ok('/api/sites/s/payments/p', body)
  const waiting = {
    ...payment,
    capturedAmount: { value: '0.00', currency: 'RUB' },
    status: { value: 'WAITING', changedDateTime: T },
  }
  // as this service answers them
  for (const body of [
    payment,
    { ...payment, status: { value: 'DECLINED', changedDateTime: T, reason: 'ACQUIRING_DECLINED' } },
    { ...waiting, requirements: { otp: 'Enter the code' } },
    { ...waiting, paymentMethod: { type: 'MOBILE' } },
    { ...payment, paymentMethod: { type: 'TOKEN' } },
  ])
    assert.equal(problemOf(paymentAnswer(body)), null, JSON.stringify(body))
  const rules: [string, object, RegExp][] = [
    [
      'a DECLINED status without a reason',
      { ...payment, status: { value: 'DECLINED', changedDateTime: T } },
      /\/status must have required property 'reason'/,
    ],
    [
      'a COMPLETED status with a reason',
      { ...payment, status: { value: 'COMPLETED', changedDateTime: T, reason: 'ACQUIRING_DECLINED' } },
      /\/status\/reason boolean schema is false/,
    ],
    [
      'a COMPLETED payment with requirements',
      { ...payment, requirements: { otp: 'Enter the code' } },
      /\/requirements boolean schema is false/,
    ],
    [
      'a MOBILE payment with a maskedPan',
      { ...waiting, paymentMethod: { type: 'MOBILE', maskedPan: '411111******1111' } },
      /\/paymentMethod\/maskedPan boolean schema is false/,
    ],
    [
      'a CARD payment without its maskedPan',
      { ...payment, paymentMethod: { type: 'CARD' } },
      /\/paymentMethod must have required property 'maskedPan'/,
    ],
  ]
  for (const [what, body, refusal] of rules) {
    assert.match(problemOf(paymentAnswer(body)) ?? '', new RegExp(`the strict variant[^]*${refusal.source}`), what)
    assert.equal(
      published.problemOf(paymentAnswer(body)),
      null,
      `${what}: the published document does not state the rule`,
    )
  }
  // a capture's and a refund's status, in a list too
  const capture = {
    captureId: 'c',
    createdDateTime: T,
    amount: money,
    status: { value: 'DECLINED', changedDateTime: T },
  }
  assert.match(
    problemOf(ok('/api/sites/s/payments/p/captures/c', capture)) ?? '',
    /\/status must have required property 'reason'/,
  )
  const refund = {
    refundId: 'r',
    createdDateTime: T,
    amount: money,
    status: { value: 'COMPLETED', changedDateTime: T, reason: 'INVALID_AMOUNT' },
    flags: [],
  }
  assert.match(
    problemOf(ok('/api/sites/s/payments/p/refunds', [refund])) ?? '',
    /\/0\/status\/reason boolean schema is false/,
  )
  // a notification's reason fields: on declines, and only there
  const headers = { signature: 'a'.repeat(64), 'payin-signature': `t=1790000000,v1=${'b'.repeat(64)}` }
  const NT = '2026-11-23T12:04:05+00:00'
  const notification = (status: object) =>
    JSON.stringify({
      refund: {
        type: 'REFUND',
        refundId: 'r',
        paymentId: 'p',
        createdDateTime: NT,
        amount: { value: 1, currency: 'RUB' },
        status: { changedDateTime: NT, ...status },
        billId: 'b',
        paymentMethod: { type: 'CARD', maskedPan: '411111******1111', rrn: null, authCode: null },
        merchantSiteUid: 's',
        customer: {},
        customFields: {},
        flags: [],
      },
      type: 'REFUND',
      version: '1',
    })
  assert.equal(
    webhookProblemOf(
      notification({ value: 'DECLINE', reasonCode: 'INVALID_AMOUNT', reasonMessage: 'too much' }),
      headers,
    ),
    null,
  )
  assert.match(
    webhookProblemOf(notification({ value: 'DECLINE' }), headers) ?? '',
    /\/refund\/status must have required property 'reasonCode'/,
  )
  assert.match(
    webhookProblemOf(
      notification({ value: 'SUCCESS', reasonCode: 'INVALID_AMOUNT', reasonMessage: 'too much' }),
      headers,
    ) ?? '',
    /\/refund\/status\/reasonCode boolean schema is false/,
  )

  // the resource of the path: its ids are the path's
  const bill = {
    siteId: 's',
    billId: 'b',
    invoiceUid: '0b6f5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    amount: { value: '1.00', currency: 'RUB' },
    flags: ['SALE'],
    status: { value: 'CREATED', changedDateTime: '2026-11-22T10:15:30+00:00' },
    creationDateTime: '2026-11-22T10:15:30+00:00',
    expirationDateTime: '2026-11-23T10:15:30+00:00',
    payUrl: 'http://localhost:3000/pay/0b6f5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  }
  const { billId: _, ...billPayment } = { ...payment, billId: 'b' }
  assert.equal(problemOf(ok('/api/sites/s/bills/b', bill, 'PUT')), null)
  assert.equal(problemOf(ok('/api/sites/s/bills/b', [{ ...billPayment, billId: 'b' }])), null)
  assert.equal(problemOf(ok('/partner/v1/sites/s/payments/p/complete', payment, 'POST')), null)
  const paths: [string, string, string, unknown, RegExp][] = [
    [
      'another paymentId',
      'GET',
      '/api/sites/s/payments/p',
      { ...payment, paymentId: 'q' },
      /paymentId "q" is not the path's "p"/,
    ],
    [
      'another paymentId (complete, under a partner prefix)',
      'POST',
      '/partner/payin/v1/sites/s/payments/p/complete',
      { ...payment, paymentId: 'q' },
      /paymentId "q" is not the path's "p"/,
    ],
    ['another billId', 'PUT', '/api/sites/s/bills/b', { ...bill, billId: 'c' }, /billId "c" is not the path's "b"/],
    [
      "another site's bill",
      'GET',
      '/api/sites/s/bills/b/details',
      { ...bill, siteId: 't', payments: [] },
      /siteId "t" is not the path's "s"/,
    ],
    [
      "a payment of another bill in the bill's list",
      'GET',
      '/api/sites/s/bills/b',
      [
        { ...billPayment, billId: 'b' },
        { ...billPayment, billId: 'c' },
      ],
      /\[1\]\.billId "c" is not the path's "b"/,
    ],
    [
      'another captureId',
      'PUT',
      '/api/sites/s/payments/p/captures/c',
      { ...capture, captureId: 'd', status: { value: 'COMPLETED', changedDateTime: T } },
      /captureId "d" is not the path's "c"/,
    ],
    [
      'another refundId',
      'GET',
      '/api/sites/s/payments/p/refunds/r',
      { ...refund, refundId: 's', status: { value: 'COMPLETED', changedDateTime: T } },
      /refundId "s" is not the path's "r"/,
    ],
  ]
  for (const [what, method, path, body, refusal] of paths)
    assert.match(problemOf(ok(path, body, method)) ?? '', refusal, what)
})
