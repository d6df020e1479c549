// The New bill form's deadline: the datetime-local value the merchant typed, sent with the browser's own
// offset for that moment (its time zone here is TZ), never without one.
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { localInput, withLocalOffset } from '../../lib/dashboard/local-date-time.ts'

const saved = process.env.TZ
after(() => {
  if (saved === undefined) delete process.env.TZ
  else process.env.TZ = saved
})

/** runs `f` with the process in time zone `tz` (Node applies a changed TZ at once) */
function inZone<T>(tz: string, f: () => T): T {
  process.env.TZ = tz
  return f()
}

test('the local time typed, with the offset of that moment in the browser’s time zone', () => {
  assert.equal(
    inZone('Europe/Moscow', () => withLocalOffset('2026-12-01T10:00')),
    '2026-12-01T10:00:00+03:00',
  )
  assert.equal(
    inZone('Asia/Kolkata', () => withLocalOffset('2026-12-01T10:00')),
    '2026-12-01T10:00:00+05:30',
  )
  assert.equal(
    inZone('UTC', () => withLocalOffset('2026-12-01T10:00:30')),
    '2026-12-01T10:00:30+00:00',
  )
  // the same zone, summer and winter
  assert.equal(
    inZone('America/New_York', () => withLocalOffset('2026-07-01T09:15')),
    '2026-07-01T09:15:00-04:00',
  )
  assert.equal(
    inZone('America/New_York', () => withLocalOffset('2026-12-01T09:15')),
    '2026-12-01T09:15:00-05:00',
  )
  // a time that does not exist there (the clocks jump 02:00 → 03:00): written as the moment it became, with its offset
  const gap = inZone('America/New_York', () => withLocalOffset('2026-03-08T02:30'))!
  assert.equal(gap, '2026-03-08T03:30:00-04:00')
})

test('the instant is the one typed: back to a Date, the same moment in every zone', () => {
  for (const tz of ['Europe/Moscow', 'Asia/Kolkata', 'America/Los_Angeles', 'Pacific/Chatham', 'UTC']) {
    const at = new Date(Date.UTC(2026, 10, 22, 15, 45))
    const typed = inZone(tz, () => localInput(at))
    assert.equal(Date.parse(inZone(tz, () => withLocalOffset(typed))!), at.getTime(), tz)
  }
})

test('no date-time: null (the form says so, nothing is sent)', () => {
  for (const v of ['', 'tomorrow', '2026-12-01', '2026-13-01T10:00', '2026-12-01T10:00+03:00'])
    assert.equal(withLocalOffset(v), null, v)
})
