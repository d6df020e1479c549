// The dashboard's list cursors: what a page gave comes back as it was; anything else is the first page,
// never an error (a 36-character run of dashes once reached a ::uuid cast).
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decodeCursor, encodeCursor } from '../../lib/dashboard/dashboard-cursor.ts'

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
