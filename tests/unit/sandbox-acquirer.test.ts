import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import {
  cardOutcome,
  cardProfile,
  chargeOutcome,
  isExpired,
  isProductionTestCard,
  luhnValid,
  maskPan,
  parseExpiry,
  PRODUCTION_TEST_CARDS,
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

test("production's test cards: its docs' 48 numbers, 12 per network, Luhn-valid", () => {
  const prefixes = { Mir: '2200', Visa: '4256', Mastercard: '5236', UnionPay: '6056' }
  assert.deepEqual(Object.keys(PRODUCTION_TEST_CARDS), Object.keys(prefixes))
  for (const [network, pans] of Object.entries(PRODUCTION_TEST_CARDS)) {
    assert.equal(new Set(pans).size, 12, network)
    for (const pan of pans) {
      assert.ok(luhnValid(pan) && pan.length === 16, pan)
      assert.ok(pan.startsWith(prefixes[network as keyof typeof prefixes]), pan)
    }
  }
  // the one number in both tables keeps the sandbox's rule
  const both = Object.values(PRODUCTION_TEST_CARDS)
    .flat()
    .filter((pan) => pan in TEST_CARDS)
  assert.deepEqual(both, ['2200000000000004'])
  assert.ok(!isProductionTestCard('2200000000000004'))
  assert.deepEqual(cardOutcome('2200000000000004', { month: 2, year: 2030 }, now, { cvv: '849' }), {
    kind: 'approved',
  })
})

test("production's test cards follow its rules by expiry month; other numbers keep theirs", () => {
  const visa = '4256000000000003'
  const outcomeIn = (month: number, pan = visa) => cardOutcome(pan, { month, year: 2030 }, now, { cvv: '123' })
  assert.deepEqual(outcomeIn(2), { kind: 'declined', reason: 'ACQUIRING_DECLINED' })
  assert.deepEqual(outcomeIn(3), { kind: 'delayed', approved: true })
  assert.deepEqual(outcomeIn(4), { kind: 'delayed', approved: false })
  for (const month of [1, 5, 6, 7, 8, 9, 10, 11, 12])
    assert.deepEqual(outcomeIn(month), { kind: 'approved' }, `${month}`)
  for (const month of [2, 3, 4]) assert.deepEqual(outcomeIn(month, '4111111111111111'), { kind: 'approved' })
  assert.deepEqual(cardOutcome(visa, { month: 3, year: 2020 }, now, { cvv: '849' }), {
    kind: 'declined',
    reason: 'ACQUIRING_EXPIRED_CARD',
  })
})

test("production's 3-D Secure rule: CVV 849 or a holder name containing 3ds (any case); not kept in the profile", () => {
  const mc = '5236000000000005'
  const expiry = { month: 3, year: 2030 }
  for (const entry of [{ cvv: '849' }, { cvv: '123', holderName: 'My 3DS card' }, { cvv: '1', holderName: 'x3dsy' }])
    assert.deepEqual(cardOutcome(mc, expiry, now, entry), { kind: 'threeDS' }, JSON.stringify(entry))
  for (const entry of [{ cvv: '8490' }, { cvv: '123', holderName: '3 DS' }, { cvv: '123' }])
    assert.deepEqual(cardOutcome(mc, expiry, now, entry), { kind: 'delayed', approved: true }, JSON.stringify(entry))
  // other numbers ignore the CVV and the name
  assert.deepEqual(cardOutcome('4111111111111111', valid, now, { cvv: '849', holderName: '3ds' }), {
    kind: 'approved',
  })
  // a token or a series charges the profile: the month's class, which knows no CVV
  const profile = cardProfile(mc, expiry)
  assert.deepEqual(profile, { outcome: 'delayedApproval', month: 3, year: 2030 })
  assert.deepEqual(chargeOutcome(profile, now), { kind: 'delayed', approved: true })
  assert.deepEqual(chargeOutcome(cardProfile(mc, { month: 4, year: 2030 }), now), { kind: 'delayed', approved: false })
  assert.equal(cardProfile(mc, { month: 2, year: 2030 }).outcome, 'ACQUIRING_DECLINED')
})

test("the merchants' test-card table lists production's numbers by network, and the README names them", () => {
  const doc = fs.readFileSync('docs/merchants/testing-your-integration.md', 'utf8')
  for (const [network, pans] of Object.entries(PRODUCTION_TEST_CARDS)) {
    const line = doc.split('\n').find((l) => l.startsWith(`| ${network} |`))
    assert.ok(line, `a row for ${network}`)
    assert.deepEqual(
      [...line.matchAll(/\d{16}/g)].map((m) => m[0]),
      [...pans],
      network,
    )
  }
  assert.match(fs.readFileSync('README.md', 'utf8'), /production's test cards/i)
})
