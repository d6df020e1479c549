// Security headers on every kind of response: pages, the payment page, the API, the access-control page.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { BASE_URL, client, newSite, uid } from '../support/api.ts'
import { asSession, signIn } from '../support/dashboard.ts'

async function headersOf(path: string, init?: RequestInit) {
  const res = await fetch(`${BASE_URL}${path}`, { redirect: 'manual', ...init })
  await res.arrayBuffer()
  return { status: res.status, h: res.headers }
}

test('pages: CSP with a script nonce and no framing, nosniff, no referrer, a trace id', async () => {
  const api = client(await newSite('headers'))
  const bill = await api.put(`/bills/${uid('b')}`, {
    amount: { value: '1.00', currency: 'RUB' },
    expirationDateTime: new Date(Date.now() + 86400_000).toISOString(),
  })
  for (const path of ['/', `/pay/${bill.body.invoiceUid}`, `/pay/${crypto.randomUUID()}`]) {
    const { h } = await headersOf(path)
    const csp = h.get('content-security-policy') ?? ''
    assert.match(csp, /frame-ancestors 'none'/, path)
    assert.match(csp, /script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/, path)
    assert.doesNotMatch(csp, /unsafe-eval/, path)
    assert.equal(h.get('x-frame-options'), 'DENY', path)
    assert.equal(h.get('x-content-type-options'), 'nosniff', path)
    assert.equal(h.get('referrer-policy'), 'no-referrer', path)
    assert.match(h.get('x-trace-id') ?? '', /^[0-9a-f]{16}$/, path)
  }
})

test("the dashboard's pages: the payment page's CSP and headers, and signed-in pages never cached", async () => {
  const site = await newSite('headers')
  const session = asSession(await signIn(site))
  for (const [path, init] of [
    ['/dashboard', {}],
    // the overview: /dashboard signed in
    ['/dashboard', { headers: session }],
    ['/dashboard/payments', { headers: session }],
    [`/dashboard/payments/${uid('none')}`, { headers: session }],
  ] as const) {
    const { status, h } = await headersOf(path, init)
    assert.ok(status === 200 || status === 404, `${path}: ${status}`)
    const csp = h.get('content-security-policy') ?? ''
    assert.match(csp, /frame-ancestors 'none'/, path)
    assert.match(csp, /script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/, path)
    assert.equal(h.get('x-frame-options'), 'DENY', path)
    assert.equal(h.get('x-content-type-options'), 'nosniff', path)
    assert.equal(h.get('referrer-policy'), 'no-referrer', path)
    if ('headers' in init) assert.match(h.get('cache-control') ?? '', /no-store/, path)
  }
})

test('API answers: nosniff, no caching, a locked-down CSP, a trace id', async () => {
  for (const path of ['/api/health', '/api/nope', '/partner/v1/sites/x/payments/y', '/dashboard/actions/sign-out']) {
    const { h } = await headersOf(path)
    assert.equal(h.get('x-content-type-options'), 'nosniff', path)
    assert.equal(h.get('cache-control'), 'no-store', path)
    assert.match(h.get('content-security-policy') ?? '', /default-src 'none'; frame-ancestors 'none'/, path)
    assert.match(h.get('x-trace-id') ?? '', /^[0-9a-f]{16}$/, path)
    assert.equal(h.get('x-powered-by'), null, path)
  }
})

test('the access-control page: its own CSP, nosniff, no caching', async () => {
  const { status, h } = await headersOf('/acs', {
    method: 'POST',
    body: new URLSearchParams({ PaReq: 'x', MD: '', TermUrl: 'https://m.example/' }),
  })
  assert.equal(status, 400)
  assert.match(h.get('content-security-policy') ?? '', /default-src 'none'/)
  assert.equal(h.get('x-content-type-options'), 'nosniff')
  assert.equal(h.get('cache-control'), 'no-store')
})

test("the pages' scripts, and the 3-D Secure return, carry a trace id too", async () => {
  const api = client(await newSite('headers'))
  const bill = await api.put(`/bills/${uid('b')}`, {
    amount: { value: '1.00', currency: 'RUB' },
    expirationDateTime: new Date(Date.now() + 86400_000).toISOString(),
  })
  const home = await (await fetch(`${BASE_URL}/`)).text()
  const payPage = await (await fetch(`${BASE_URL}/pay/${bill.body.invoiceUid}`)).text()
  const scripts = [
    /src="(\/_next\/static\/[^"]+\.js)"/.exec(home)?.[1],
    /"(\/_pay\/payment-form\.[0-9a-f]+\.js)"/.exec(payPage)?.[1],
  ]
  for (const script of scripts) {
    assert.ok(script, 'the page loads a script')
    const { status, h } = await headersOf(script)
    assert.equal(status, 200, script)
    assert.match(h.get('content-type') ?? '', /javascript/, script)
    assert.equal(h.get('x-content-type-options'), 'nosniff', script)
    assert.match(h.get('x-trace-id') ?? '', /^[0-9a-f]{16}$/, script)
  }
  const back = await headersOf(`/pay/${crypto.randomUUID()}/3ds-return`, {
    method: 'POST',
    body: new URLSearchParams({ PaRes: 'x', MD: 'y' }),
  })
  assert.equal(back.status, 303)
  assert.match(back.h.get('x-trace-id') ?? '', /^[0-9a-f]{16}$/)
})
