// Trace ids keep the protocol's shape (16 lowercase hex characters) and never hold a run of digits
// that the log's card-number mask would hide, so an answer's trace id is always found in the log.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { redact } from '../../lib/log/log-line.ts'
import { isRequestId, isTraceId, newRequestId, newTraceId, requestIds } from '../../lib/http/trace-id.ts'

test("100 000 new trace ids: the protocol's shape, distinct, and untouched by the card-number mask", () => {
  const seen = new Set<string>()
  for (let i = 0; i < 100_000; i++) {
    const id = newTraceId()
    assert.match(id, /^[0-9a-f]{16}$/)
    assert.equal(redact(`{"traceId":"${id}"}`), `{"traceId":"${id}"}`, id)
    assert.ok(isTraceId(id), id)
    seen.add(id)
  }
  assert.equal(seen.size, 100_000)
})

test('a trace id given from outside is taken only in the shape this service issues', () => {
  assert.equal(isTraceId('4111111111111111'), false) // a card number is not a trace id
  assert.equal(isTraceId('eea5393707696491'), false) // hex, but with a 13-digit run
  assert.equal(isTraceId('ABCDEFabcdefabcd'), false)
  assert.equal(isTraceId(null), false)
  assert.equal(isTraceId('01234a6789b12345'), true)
})

test("100 000 new request ids: not a trace id's shape, distinct, and untouched by the card-number mask", () => {
  const seen = new Set<string>()
  for (let i = 0; i < 100_000; i++) {
    const id = newRequestId()
    assert.match(id, /^[0-9a-f]{20}$/)
    assert.equal(redact(`{"requestId":"${id}"}`), `{"requestId":"${id}"}`, id)
    assert.equal(isTraceId(id), false)
    assert.ok(isRequestId(id), id)
    seen.add(id)
  }
  assert.equal(seen.size, 100_000)
})

test('a request keeps the trace id it brought and gets a request id of its own', () => {
  const traceId = newTraceId()
  const req = () => new Request('http://x/', { headers: { 'X-Trace-Id': traceId } })
  const [a, b] = [requestIds(req()), requestIds(req())]
  assert.equal(a.traceId, traceId)
  assert.equal(b.traceId, traceId)
  assert.notEqual(a.requestId, b.requestId)
  assert.notEqual(
    requestIds(new Request('http://x/', { headers: { 'X-Trace-Id': '4111111111111111' } })).traceId,
    '4111111111111111',
  )
})

test("a request id is taken (from the page proxy's header) only in the shape this service issues", () => {
  assert.equal(isRequestId('41111111111111110000'), false) // digits only
  assert.equal(isRequestId(newTraceId()), false)
  assert.equal(isRequestId(null), false)
  assert.equal(isRequestId('012345a789012b456789'), true)
})
