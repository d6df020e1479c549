import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decideCapture, decideRefund, refundableMinor, type PaymentTotals } from '../../lib/payments/payment-rules.ts'

const authorised: PaymentTotals = {
  status: 'COMPLETED',
  flags: [],
  currency: 'RUB',
  amountMinor: 10000,
  capturedMinor: 0,
  refundedMinor: 0,
  reversed: false,
}
const sale: PaymentTotals = { ...authorised, flags: ['SALE'], capturedMinor: 10000 }

test('capture: whole by default, partial up to the authorised amount, once', () => {
  assert.deepEqual(decideCapture(authorised, null), { ok: true, amountMinor: 10000 })
  assert.deepEqual(decideCapture(authorised, 6000), { ok: true, amountMinor: 6000 })
  assert.deepEqual(decideCapture(authorised, 10001), { ok: false, reason: 'INVALID_AMOUNT' })
  assert.deepEqual(decideCapture({ ...authorised, capturedMinor: 6000 }, null), { ok: false, reason: 'INVALID_STATE' })
})

test('capture: never of a SALE, declined, waiting or reversed payment', () => {
  for (const p of [
    sale,
    { ...authorised, status: 'DECLINED' },
    { ...authorised, status: 'WAITING' },
    { ...authorised, reversed: true },
  ])
    assert.deepEqual(decideCapture(p, null), { ok: false, reason: 'INVALID_STATE' })
})

test('refund: completed refunds never exceed the captured amount', () => {
  assert.deepEqual(decideRefund(sale, 2000), { ok: true, reversal: false, releases: false })
  assert.deepEqual(decideRefund({ ...sale, refundedMinor: 8000 }, 2000), { ok: true, reversal: false, releases: false })
  assert.deepEqual(decideRefund({ ...sale, refundedMinor: 8001 }, 2000), { ok: false, reason: 'INVALID_AMOUNT' })
  const partlyCaptured = { ...authorised, capturedMinor: 6000 }
  assert.deepEqual(decideRefund(partlyCaptured, 6000), { ok: true, reversal: false, releases: false })
  assert.deepEqual(decideRefund(partlyCaptured, 6001), { ok: false, reason: 'INVALID_AMOUNT' })
})

test('refund of an uncaptured hold: a reversal, partial or of all it holds, never more', () => {
  assert.deepEqual(decideRefund(authorised, 10000), { ok: true, reversal: true, releases: true })
  assert.deepEqual(decideRefund(authorised, 5000), { ok: true, reversal: true, releases: false })
  assert.deepEqual(decideRefund(authorised, 10001), { ok: false, reason: 'INVALID_AMOUNT' })
  const partlyReversed = { ...authorised, refundedMinor: 3000, reversedMinor: 3000 }
  assert.deepEqual(decideRefund(partlyReversed, 7000), { ok: true, reversal: true, releases: true })
  assert.deepEqual(decideRefund(partlyReversed, 7001), { ok: false, reason: 'INVALID_AMOUNT' })
  assert.deepEqual(decideRefund({ ...authorised, reversed: true, refundedMinor: 10000 }, 10000), {
    ok: false,
    reason: 'INVALID_STATE',
  })
})

test('after a partial reversal: captures up to what remains, refunds up to what was captured', () => {
  const partlyReversed = { ...authorised, refundedMinor: 3000, reversedMinor: 3000 }
  assert.deepEqual(decideCapture(partlyReversed, null), { ok: true, amountMinor: 7000 })
  assert.deepEqual(decideCapture(partlyReversed, 7001), { ok: false, reason: 'INVALID_AMOUNT' })
  const captured = { ...partlyReversed, capturedMinor: 7000 }
  assert.deepEqual(decideRefund(captured, 7000), { ok: true, reversal: false, releases: false })
  assert.deepEqual(decideRefund(captured, 7001), { ok: false, reason: 'INVALID_AMOUNT' })
})

test('refund: never of a declined or waiting payment', () => {
  assert.deepEqual(decideRefund({ ...sale, status: 'DECLINED' }, 100), { ok: false, reason: 'INVALID_STATE' })
  assert.deepEqual(decideRefund({ ...sale, status: 'WAITING' }, 100), { ok: false, reason: 'INVALID_STATE' })
})

test('refundable: exactly what decideRefund allows, so the dashboard offers a refund only where one can work', () => {
  const cases: [PaymentTotals, number][] = [
    [authorised, 10000],
    [{ ...authorised, reversedMinor: 2500, refundedMinor: 2500 }, 7500],
    [{ ...authorised, capturedMinor: 6000 }, 6000],
    [{ ...authorised, capturedMinor: 6000, reversedMinor: 1000, refundedMinor: 3000 }, 4000],
    [sale, 10000],
    [{ ...sale, refundedMinor: 10000 }, 0],
    [{ ...authorised, reversed: true, reversedMinor: 10000, refundedMinor: 10000 }, 0],
    [{ ...sale, status: 'DECLINED', capturedMinor: 0 }, 0],
    [{ ...authorised, status: 'WAITING' }, 0],
  ]
  for (const [p, expected] of cases) {
    assert.equal(refundableMinor(p), expected, JSON.stringify(p))
    if (expected > 0) assert.equal(decideRefund(p, expected).ok, true, JSON.stringify(p))
    assert.equal(decideRefund(p, expected + 1).ok, false, JSON.stringify(p))
  }
})
