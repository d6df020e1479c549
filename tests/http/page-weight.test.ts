// The payment page's script budget (issue 13): every script a bill's page loads or runs — its HTML's
// <script src> and script preloads, every script Chromium fetches while loading it and at the payer's
// first move, and its inline scripts — gzipped (zlib, level 9), at most 100 KiB in all. Measured by
// bench/page-weight.ts, which `npm run bench` uses too. (With Next.js's app router the page loaded
// 178.4 KiB; its browser runtime alone is 135 KiB.)
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SCRIPT_BUDGET_GZIP, describePageWeight, kb, measurePageWeight } from '../../bench/page-weight.ts'
import { BASE_URL, billRequest, client, newSite, uid } from '../support/api.ts'

test("a bill's payment page loads at most 100 KiB of scripts, gzipped", async (t) => {
  const api = client(await newSite('weight'))
  const bill = await api.put(
    `/bills/${uid('bill')}`,
    billRequest({ amount: { value: '1490.00', currency: 'RUB' }, comment: 'Order 1001' }),
  )
  assert.equal(bill.status, 200, bill.text)
  const page = new URL(bill.body.payUrl)
  assert.equal(page.origin, new URL(BASE_URL).origin, 'the payUrl is on the server under test')

  const w = await measurePageWeight(BASE_URL, page.pathname)
  for (const line of describePageWeight(w)) t.diagnostic(line)

  // the measurement itself: the page's own scripts were found, fetched and measured
  assert.ok(w.scripts.length > 0, 'no script found on the page')
  assert.ok(
    w.scripts.some((s) => s.foundIn !== 'html'),
    'the browser fetched no script',
  )
  assert.ok(
    w.scripts.every((s) => s.bytes > 0 && s.gzipBytes > 0 && s.gzipBytes < s.bytes + 64),
    'a script was not measured',
  )
  assert.equal(w.totalGzipBytes, w.scripts.reduce((s, x) => s + x.gzipBytes, 0) + w.inline.gzipBytes)
  // the form's own script is among them, and no script of Next.js's browser runtime
  assert.ok(
    w.scripts.some((s) => /^\/_pay\/payment-form\.[0-9a-f]+\.js$/.test(s.url)),
    "the form's script was not loaded",
  )
  assert.deepEqual(
    w.scripts.filter((s) => s.url.startsWith('/_next/')).map((s) => s.url),
    [],
  )

  assert.ok(
    w.totalGzipBytes <= SCRIPT_BUDGET_GZIP,
    `the page's scripts weigh ${kb(w.totalGzipBytes)} (${w.totalGzipBytes} bytes) gzipped, over the budget of ${kb(SCRIPT_BUDGET_GZIP)}:\n` +
      w.scripts.map((s) => `  ${kb(s.gzipBytes)} ${s.url}${s.nomodule ? ' (nomodule)' : ''}`).join('\n'),
  )
})
