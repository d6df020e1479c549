import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatValue, isKnownCurrency, money, parseAmountValue, wireAmount } from '../../lib/money/money.ts'

const minor = (text: string) => {
  const r = parseAmountValue(text)
  return r.ok ? r.minor : r.message
}

test('amounts round down to two decimals', () => {
  assert.equal(minor('100'), 10000)
  assert.equal(minor('100.5'), 10050)
  assert.equal(minor('10.999'), 1099)
  assert.equal(minor('0.019'), 1)
  assert.equal(minor('007.10'), 710)
  assert.equal(minor('100.129999999999999999'), 10012)
})

test('amounts must be > 0.00 and ≤ 1,000,000,000.00 after rounding', () => {
  assert.equal(minor('1000000000.00'), 100_000_000_000)
  assert.equal(minor('1000000000.009'), 100_000_000_000)
  assert.match(String(minor('1000000000.01')), /must not exceed/)
  assert.match(String(minor('99999999999999999999')), /must not exceed/)
  assert.match(String(minor('0.009')), /greater than 0/)
  assert.match(String(minor('0')), /greater than 0/)
  assert.match(String(minor('-1')), /greater than 0/)
})

test('only plain decimal notation', () => {
  for (const bad of ['1e2', '1E2', '0x10', '1.', '.5', '1,5', '', ' ', 'NaN', 'Infinity', '+1'])
    assert.equal(typeof minor(bad), 'string', bad)
})

test('no whitespace around an amount: " 10.00", "10.00 ", "\\t10", "10\\n" are not plain decimal notation', () => {
  for (const bad of [' 10.00', '10.00 ', '\t10', '10\n', '\u00a010.00', '\u200310'])
    assert.match(String(minor(bad)), /plain notation/, JSON.stringify(bad))
})

test('answered as a string with two decimals', () => {
  assert.equal(formatValue(money(10000, 'RUB')), '100.00')
  assert.equal(formatValue(money(5, 'USD')), '0.05')
  assert.deepEqual(wireAmount(100_000_000_000n, 'JPY'), { value: '1000000000.00', currency: 'JPY' })
})

test('currencies are ISO 4217 alphabetic codes known to dinero.js', () => {
  for (const c of ['RUB', 'USD', 'EUR', 'JPY', 'KZT']) assert.ok(isKnownCurrency(c), c)
  for (const c of ['rub', 'XXX', 'ABC', 'RU', 'RUBB', '', 'toString', '__proto__']) assert.ok(!isKnownCurrency(c), c)
})
