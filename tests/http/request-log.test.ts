// One JSON log line per request, under the X-Trace-Id the client got: API answers with their status,
// page requests too (static assets are not logged).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { BASE_URL, client, newSite, uid } from '../support/api.ts'

/** the server log's line carrying the trace id, waiting a little for it to be written */
async function logLineOf(traceId: string): Promise<Record<string, unknown> | undefined> {
  for (let i = 0; i < 40; i++) {
    const line = fs
      .readFileSync(process.env.SERVER_LOG!, 'utf8')
      .split('\n')
      .find((l) => l.includes(`"traceId":"${traceId}"`))
    if (line) return JSON.parse(line)
    await new Promise((r) => setTimeout(r, 50))
  }
  return undefined
}

test('an API answer is logged with its trace id, method, path and status', async () => {
  const res = await fetch(`${BASE_URL}/api/sites/nobody/payments/p-1`)
  await res.arrayBuffer()
  const line = await logLineOf(res.headers.get('x-trace-id')!)
  assert.ok(line, "no log line with the answer's trace id")
  assert.equal(line.method, 'GET')
  assert.equal(line.path, '/api/sites/nobody/payments/p-1')
  assert.equal(line.status, res.status)
})

test('a page request is logged with its trace id; a static asset is not', async () => {
  const api = client(await newSite('log'))
  const bill = await api.put(`/bills/${uid('b')}`, {
    amount: { value: '1.00', currency: 'RUB' },
    expirationDateTime: new Date(Date.now() + 86400_000).toISOString(),
  })
  const res = await fetch(`${BASE_URL}/pay/${bill.body.invoiceUid}`)
  const html = await res.text()
  const line = await logLineOf(res.headers.get('x-trace-id')!)
  assert.ok(line, "no log line with the page's trace id")
  assert.equal(line.kind, 'page')
  assert.equal(line.method, 'GET')
  assert.match(String(line.path), /^\/pay\//)

  // the payment page's own script, and a script of Next.js (the home page's)
  const home = await (await fetch(`${BASE_URL}/`)).text()
  for (const script of [
    /"(\/_pay\/payment-form\.[0-9a-f]+\.js)"/.exec(html)?.[1],
    /src="(\/_next\/static\/[^"]+\.js)"/.exec(home)?.[1],
  ]) {
    assert.ok(script, 'the page loads a script')
    const asset = await fetch(`${BASE_URL}${script}`)
    await asset.arrayBuffer()
    assert.equal(asset.status, 200)
    assert.equal(await logLineOf(asset.headers.get('x-trace-id')!), undefined)
  }
})
