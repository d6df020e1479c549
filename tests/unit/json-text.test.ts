import assert from 'node:assert/strict'
import { test } from 'node:test'
import { JsonSyntaxError, parseJsonText, RawNumber } from '../../lib/http/json-text.ts'

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
  for (const bad of ['', '{', '{"a":}', '[1,]', "{'a':1}", '{"a":1} x', '"\u0001"', 'tru', '01', '{"pan":"4111111111111111"']) {
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
