import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatDateTime, parseDateTime } from '../../lib/time/wire-time.ts'

const t = new Date('2026-03-22T15:23:00.042Z')

test('answers carry milliseconds (payments) or not (bills), and an offset, never Z', () => {
  assert.equal(formatDateTime(t, true, 'UTC'), '2026-03-22T15:23:00.042+00:00')
  assert.equal(formatDateTime(t, false, 'UTC'), '2026-03-22T15:23:00+00:00')
  assert.equal(formatDateTime(t, true, 'Europe/Moscow'), '2026-03-22T18:23:00.042+03:00')
  assert.equal(formatDateTime(t, false, 'America/New_York'), '2026-03-22T11:23:00-04:00')
  assert.equal(formatDateTime(t, false, 'Asia/Kolkata'), '2026-03-22T20:53:00+05:30')
})

test('inputs need an offset or Z', () => {
  assert.equal(parseDateTime('2026-03-22T18:23:00+03:00')?.toISOString(), '2026-03-22T15:23:00.000Z')
  assert.equal(parseDateTime('2026-03-22T15:23:00.5Z')?.toISOString(), '2026-03-22T15:23:00.500Z')
  assert.equal(parseDateTime('2026-03-22T18:23+0300')?.toISOString(), '2026-03-22T15:23:00.000Z')
  for (const bad of [
    '2026-03-22T15:23:00',
    '2026-03-22',
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    'tomorrow',
    '2026-03-22T25:00:00Z',
  ])
    assert.equal(parseDateTime(bad), null, bad)
})
