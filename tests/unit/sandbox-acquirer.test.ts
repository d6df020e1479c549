import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  cardOutcome,
  isExpired,
  luhnValid,
  maskPan,
  parseExpiry,
  TEST_CARDS,
} from '../../lib/acquirer/sandbox-acquirer.ts'

const now = new Date('2026-11-22T10:00:00Z')
const valid = { month: 12, year: 2030 }

test('the contract test-card table', () => {
  const expected: Record<string, string> = {
    '4111111111111111': 'approved',
    '5555555555554444': 'approved',
    '2200000000000004': 'approved',
    '4000000000000002': 'ACQUIRING_DECLINED',
    '4000000000009995': 'ACQUIRING_INSUFFICIENT_FUNDS',
    '4000000000000069': 'ACQUIRING_EXPIRED_CARD',
    '4000000000000127': 'ACQUIRING_INCORRECT_CVV',
    '4000000000000119': 'TRY_AGAIN_LATER',
    '4000000000003220': 'threeDS',
    '4000000000001000': 'otp',
  }
  assert.deepEqual(Object.keys(TEST_CARDS).sort(), Object.keys(expected).sort())
  for (const [pan, want] of Object.entries(expected)) {
    const o = cardOutcome(pan, valid, now)
    assert.equal(o.kind === 'declined' ? o.reason : o.kind, want, pan)
    assert.ok(luhnValid(pan), `${pan} is Luhn-valid`)
  }
  assert.deepEqual(cardOutcome('4242424242424242', valid, now), { kind: 'approved' })
})

test('Luhn and length', () => {
  assert.ok(luhnValid('4242424242424242'))
  assert.ok(!luhnValid('4111111111111112'))
  assert.ok(!luhnValid('411111111111')) // 12 digits
  assert.ok(!luhnValid('41111111111111111111')) // 20 digits
  assert.ok(!luhnValid('4111-1111-1111-1111'))
})

test('expiry MM/YY: valid through the end of its month', () => {
  assert.deepEqual(parseExpiry('01/27'), { month: 1, year: 2027 })
  for (const bad of ['13/27', '00/27', '1/27', '01/2027', '0127', '']) assert.equal(parseExpiry(bad), null, bad)
  assert.ok(!isExpired({ month: 11, year: 2026 }, now))
  assert.ok(isExpired({ month: 10, year: 2026 }, now))
  assert.ok(isExpired({ month: 12, year: 2025 }, now))
  assert.deepEqual(cardOutcome('4111111111111111', { month: 10, year: 2026 }, now), {
    kind: 'declined',
    reason: 'ACQUIRING_EXPIRED_CARD',
  })
})

test('masked numbers keep the first six and last four digits', () => {
  assert.equal(maskPan('4111111111111111'), '411111******1111')
  assert.equal(maskPan('4000000000000'), '400000***0000')
})
