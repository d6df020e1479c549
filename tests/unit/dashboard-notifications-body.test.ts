// The notification body as the dashboard shows it: indented for reading, every token kept as posted
// (numbers as written, strings with their escapes), only whitespace added outside strings.
import assert from 'node:assert/strict'
import { test } from 'node:test'

process.env.SECRET_KEY = 'unit-test-key'
const { indentJson } = await import('../../lib/dashboard/dashboard-notifications.ts')

const posted =
  '{"payment":{"type":"PAYMENT","amount":{"value":60.50,"currency":"RUB"},"customer":{},"flags":["SALE"],"customFields":{"note":"a, b: {c} [d] \\"e\\" \\\\"},"tokenData":null},"type":"PAYMENT","version":"1"}'

test('indented, and nothing but whitespace added outside strings', () => {
  const shown = indentJson(posted)
  assert.equal(
    shown,
    [
      '{',
      '  "payment": {',
      '    "type": "PAYMENT",',
      '    "amount": {',
      '      "value": 60.50,',
      '      "currency": "RUB"',
      '    },',
      '    "customer": {},',
      '    "flags": [',
      '      "SALE"',
      '    ],',
      '    "customFields": {',
      '      "note": "a, b: {c} [d] \\"e\\" \\\\"',
      '    },',
      '    "tokenData": null',
      '  },',
      '  "type": "PAYMENT",',
      '  "version": "1"',
      '}',
    ].join('\n'),
  )
  assert.deepEqual(JSON.parse(shown), JSON.parse(posted))
})

test('already indented text is indented the same way; an empty array stays on its line', () => {
  assert.equal(indentJson(indentJson(posted)), indentJson(posted))
  assert.equal(indentJson('{"a":[],"b":[1,2]}'), '{\n  "a": [],\n  "b": [\n    1,\n    2\n  ]\n}')
})
