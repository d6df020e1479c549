// The payment page's script budget (issue 13): every script file a bill's page loads — its HTML's
// <script src> and every script Chromium fetches while loading it — gzipped (zlib, level 9), at most
// 100 KiB in all. Measured by bench/page-weight.ts, which `npm run bench` uses too.
// NOTE: this test FAILS until the page is made lighter (work under way, issue 13): when it was written
// the page loaded 217.0 KiB gzipped (222,180 bytes in 7 scripts, 178.4 KiB without the nomodule
// polyfills). It is kept failing on purpose: it is the target, not a description of today's page.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SCRIPT_BUDGET_GZIP, describePageWeight, kb, measurePageWeight } from '../../bench/page-weight.ts'
import { BASE_URL, billRequest, client, newSite, uid } from '../support/api.ts'

test("a bill's payment page loads at most 100 KiB of scripts, gzipped", async (t) => {
  const api = client(await newSite('weight'))
  const bill = await api.put(`/bills/${uid('bill')}`, billRequest({ amount: { value: '1490.00', currency: 'RUB' }, comment: 'Order 1001' }))
  assert.equal(bill.status, 200, bill.text)
  const page = new URL(bill.body.payUrl)
  assert.equal(page.origin, new URL(BASE_URL).origin, 'the payUrl is on the server under test')

  const w = await measurePageWeight(BASE_URL, page.pathname)
  for (const line of describePageWeight(w)) t.diagnostic(line)

  // the measurement itself: the page's own scripts were found, fetched and measured
  assert.ok(w.scripts.length > 0, 'no script found on the page')
  assert.ok(w.scripts.some((s) => s.foundIn !== 'html'), 'the browser fetched no script')
  assert.ok(w.scripts.every((s) => s.bytes > 0 && s.gzipBytes > 0 && s.gzipBytes < s.bytes + 64), 'a script was not measured')
  assert.equal(w.totalGzipBytes, w.scripts.reduce((s, x) => s + x.gzipBytes, 0))

  assert.ok(
    w.totalGzipBytes <= SCRIPT_BUDGET_GZIP,
    `the page's scripts weigh ${kb(w.totalGzipBytes)} (${w.totalGzipBytes} bytes) gzipped, over the budget of ${kb(SCRIPT_BUDGET_GZIP)}:\n` +
      w.scripts.map((s) => `  ${kb(s.gzipBytes)} ${s.url}${s.nomodule ? ' (nomodule)' : ''}`).join('\n'),
  )
})
