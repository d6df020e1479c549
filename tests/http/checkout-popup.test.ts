// The checkout popup library as merchants load it (GET /popup/v2.js, issue 31): the hand-written file as it is, a
// script any origin may load, at most 5 KB gzipped; ES5 (no arrow, class, let, const or template: the linter parses
// it as ES5, this checks the file served).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { gzipSync } from 'node:zlib'
import { BASE_URL } from '../support/api.ts'

const BUDGET_GZIP = 5 * 1024

test('/popup/v2.js: the library file as it is, a script for any origin, small', async () => {
  const res = await fetch(`${BASE_URL}/popup/v2.js`)
  assert.equal(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /^text\/javascript/)
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
  assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin')
  assert.match(res.headers.get('x-trace-id') ?? '', /^[0-9a-f]{16}$/)
  const text = await res.text()
  assert.equal(text, fs.readFileSync('lib/popup/v2.js', 'utf8'))
  assert.match(text, /QiwiCheckout = \{ openInvoice: openInvoice, createInvoice: createInvoice \}/)
  const gzipped = gzipSync(text, { level: 9 }).length
  assert.ok(gzipped <= BUDGET_GZIP, `the library weighs ${gzipped} bytes gzipped, over ${BUDGET_GZIP}`)
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')
  assert.doesNotMatch(code, /=>|\bclass\b|\blet\b|\bconst\b|`|\bimport\b|\brequire\(/)
})
