import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { JsonSyntaxError, parseJsonText, parseJsonTextStrict, RawNumber } from '../../lib/http/json-text.ts'

test('reads what JSON.parse reads', () => {
  const text = '{"a":[1,2.5,-3,"x\\u00e9\\n",true,false,null],"b":{"c":"d"}, "e" : 0}'
  assert.deepEqual(parseJsonText(text), JSON.parse(text))
})

test('keeps the text of numbers a double cannot reproduce', () => {
  const v = parseJsonText('[1e2, 100.129999999999999999, 0.0000001, 10.50]') as unknown[]
  assert.deepEqual(v[0], new RawNumber('1e2'))
  assert.deepEqual(v[1], new RawNumber('100.129999999999999999'))
  assert.deepEqual(v[2], new RawNumber('0.0000001'))
  assert.equal(v[3], 10.5)
})

test('__proto__ is data, not a prototype', () => {
  const v = parseJsonText('{"__proto__":{"polluted":true}}') as Record<string, unknown>
  assert.equal(({} as Record<string, unknown>).polluted, undefined)
  assert.equal((v as { polluted?: boolean }).polluted, undefined)
  assert.deepEqual(Object.keys(v), ['__proto__'])
})

test('refuses malformed text without quoting it', () => {
  for (const bad of [
    '',
    '{',
    '{"a":}',
    '[1,]',
    "{'a':1}",
    '{"a":1} x',
    '"\u0001"',
    'tru',
    '01',
    '{"pan":"4111111111111111"',
  ]) {
    assert.throws(
      () => parseJsonText(bad),
      (e: unknown) => e instanceof JsonSyntaxError && !e.message.includes('4111'),
      JSON.stringify(bad),
    )
  }
})

test('limits nesting depth', () => {
  assert.throws(() => parseJsonText('['.repeat(100000) + ']'.repeat(100000)), JsonSyntaxError)
  assert.doesNotThrow(() => parseJsonText('['.repeat(30) + ']'.repeat(30)))
})

test('the fast path (JSON.parse) and the reader answer alike: the same value, key order and number texts, or the same error', () => {
  const outcome = (f: () => unknown) => {
    try {
      const v = f()
      return {
        v,
        keys: JSON.stringify(v, (_k, x) =>
          x instanceof RawNumber
            ? `raw:${x.text}`
            : x && typeof x === 'object' && !Array.isArray(x)
              ? Object.entries(x)
              : x,
        ),
      }
    } catch (e) {
      return { error: e instanceof JsonSyntaxError ? `JsonSyntaxError: ${e.message}` : String(e) }
    }
  }
  const number = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
    fc.constantFrom(
      '0',
      '-0',
      '1e2',
      '1E+2',
      '10.50',
      '100.129999999999999999',
      '0.0000001',
      '1e400',
      '-1e-400',
      '01',
      '1.',
      '.5',
      '+1',
      '-',
      '9007199254740993',
    ),
  )
  const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'a', 'a'))
  const text: fc.Arbitrary<string> = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      number,
      fc.string().map((s) => JSON.stringify(s)),
      fc.constantFrom('true', 'false', 'null', '"\\ud800"', '"\\u0000"', '"a\\/b"', '"\u0001"', 'tru', "'x'", '"\\x"'),
      fc.array(tie('value') as fc.Arbitrary<string>, { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
      fc
        .array(fc.tuple(key, tie('value') as fc.Arbitrary<string>), { maxLength: 4 })
        .map((kv) => `{${kv.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    ),
  })).value as fc.Arbitrary<string>
  const noisy = fc
    .tuple(text, fc.constantFrom('', ' ', '\n', '\t', ' x', ',', ']', '}', '\u00a0'))
    .map(([t, tail]) => t + tail)
  fc.assert(
    fc.property(noisy, (t) => {
      assert.deepEqual(
        outcome(() => parseJsonText(t)),
        outcome(() => parseJsonTextStrict(t)),
        t,
      )
    }),
    { numRuns: 20_000 },
  )
  // nesting around the limit, with and without a value at the deepest place
  for (const n of [63, 64, 65, 66]) {
    for (const t of [
      '['.repeat(n) + ']'.repeat(n),
      '['.repeat(n) + '1' + ']'.repeat(n),
      '{"a":'.repeat(n) + '1' + '}'.repeat(n),
    ])
      assert.deepEqual(
        outcome(() => parseJsonText(t)),
        outcome(() => parseJsonTextStrict(t)),
        `${n}`,
      )
  }
})
