// The dashboard's list cursors: what a page gave comes back as it was; anything else is the first page,
// never an error (a 36-character run of dashes once reached a ::uuid cast; dates JavaScript takes and
// PostgreSQL cannot store, a statement's failure). A search with a control character is not run.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decodeCursor, encodeCursor } from '../../lib/dashboard/dashboard-cursor.ts'
import { paymentSearch } from '../../lib/dashboard/dashboard-payments.ts'

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url')

test('a cursor comes back as it was made', () => {
  const row = { createdAt: new Date('2026-11-23T10:00:00.123Z'), id: crypto.randomUUID() }
  assert.deepEqual(decodeCursor(encodeCursor(row)), row)
})

test('a cursor that is not ours is no cursor', () => {
  const at = '2026-11-23T10:00:00.000Z'
  for (const bad of [
    undefined,
    '',
    'not base64 json',
    b64('-'.repeat(36)),
    b64([at, '-'.repeat(36)]),
    b64([at, 'gggggggg-gggg-gggg-gggg-gggggggggggg']),
    b64(['yesterday', crypto.randomUUID()]),
    b64([12, crypto.randomUUID()]),
    b64({ at, id: crypto.randomUUID() }),
    b64(null),
    'x'.repeat(201),
  ])
    assert.equal(decodeCursor(bad), null, String(bad))
})

test('a cursor holds an instant as encodeCursor writes it, in the years 0001–9999, or is no cursor', () => {
  const id = crypto.randomUUID()
  for (const at of ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z']) {
    assert.deepEqual(decodeCursor(b64([at, id])), { createdAt: new Date(at), id }, at)
  }
  for (const at of [
    '0000-01-01T00:00:00.000Z',
    '-000001-01-01T00:00:00.000Z',
    '+200000-01-01T00:00:00.000Z',
    '-200000-01-01T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    '-271821-04-20T00:00:00.000Z',
    '+010000-01-01T00:00:00.000Z',
    '1 January 200000',
    '2026-11-23',
    '2026-11-23T10:00:00Z',
    '2026-11-23T10:00:00.000+00:00',
    '2026-02-30T10:00:00.000Z',
    '2026-11-23T24:00:00.000Z',
    '2026-11-23T10:00:00.000Z\u0000',
  ])
    assert.equal(decodeCursor(b64([at, id])), null, at)
})

test('a search: trimmed, at most 200 characters (never half a surrogate pair); one with a control character is not run', () => {
  assert.deepEqual(paymentSearch('  pay-1 \r\n'), { search: 'pay-1', refused: false, shown: 'pay-1' })
  assert.deepEqual(paymentSearch(''), { search: '', refused: false, shown: '' })
  const long = `${'x'.repeat(199)}😀tail`
  assert.equal(paymentSearch(long).search, `${'x'.repeat(199)}😀`)
  assert.equal(paymentSearch('x'.repeat(5000)).search.length, 200)
  for (const raw of [
    '\u0000',
    'a\u0000b',
    '\u0007',
    '\u001b[31m',
    'a\u007f',
    '\u0085',
    'a\r\nb',
    'a\tb',
    '\ud800',
    'x\udc00y',
  ]) {
    const s = paymentSearch(raw)
    assert.equal(s.refused, true, JSON.stringify(raw))
    assert.equal(s.search, '', JSON.stringify(raw))
    assert.doesNotMatch(s.shown, /[\p{Cc}\p{Cs}]/u, JSON.stringify(raw))
  }
  assert.equal(paymentSearch('a\u0000b').shown, 'ab')
  // a pair of surrogates is a character like any other
  assert.equal(paymentSearch('😀').refused, false)
})
