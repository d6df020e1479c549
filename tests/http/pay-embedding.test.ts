// The payment page framed by a merchant (issue 31): a site's allowed frame origins, set in the dashboard's way, become
// its pages' frame-ancestors (exactly those; X-Frame-Options gone) and the targets of their events; another site's
// pages, and a site with none, stay unframeable. A refused origin is the contract's 400 naming `origins`, audited.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { BASE_URL, billRequest, cardPayment, client, newSite, uid } from '../support/api.ts'
import { asSession, assertError, post, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'

const setOrigins = (session: string, origins: unknown) =>
  post('/dashboard/actions/settings/frame-origins', { origins }, asSession(session))

async function billPage(site: { siteId: string; token: string }) {
  const bill = await client(site).put(`/bills/${uid('b')}`, billRequest())
  assert.equal(bill.status, 200, bill.text)
  const res = await fetch(`${BASE_URL}/pay/${bill.body.invoiceUid}`)
  return { res, html: await res.text(), bill: bill.body }
}

test("a site's allowed origins are its pages' frame-ancestors, and nothing else's", async () => {
  const site = await newSite('embed')
  const session = await signIn(site)
  const set = await setOrigins(session, ['https://shop.example/', 'http://127.0.0.2:8080'])
  assert.equal(set.status, 200, set.text)
  assert.deepEqual(set.body, { origins: ['https://shop.example', 'http://127.0.0.2:8080'] })

  const { res, html, bill } = await billPage(site)
  const csp = res.headers.get('content-security-policy') ?? ''
  assert.match(csp, /(^|; )frame-ancestors https:\/\/shop\.example http:\/\/127\.0\.0\.2:8080(;|$)/)
  assert.equal((csp.match(/frame-ancestors/g) ?? []).length, 1)
  assert.match(csp, /script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
  assert.equal(res.headers.get('x-frame-options'), null)
  // the events' script: nonce'd, naming the allowed origins as targets, never '*'
  const nonce = /'nonce-([^']+)'/.exec(csp)![1]
  const inline = [...html.matchAll(/<script nonce="([^"]+)">([^<]*)<\/script>/g)]
  const events = inline.find((m) => m[2].includes('INITIALIZED'))
  assert.ok(events, 'the page posts INITIALIZED')
  assert.equal(events[1], nonce)
  assert.ok(events[2].includes('"https://shop.example"') && events[2].includes(`"${bill.billId}"`))
  assert.doesNotMatch(html, /postMessage\([^)]*["']\*["']/)

  // a paid bill's page tells PAYMENT_SUCCEEDED, still framed by the same origins
  const paid = await fetch(`${BASE_URL}/pay/${bill.invoiceUid}/attempts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: new URL(BASE_URL).origin },
    body: JSON.stringify({ method: 'card', pan: '4111111111111111', expiry: '12/30', cvv: '123' }),
  })
  assert.equal(paid.status, 200, await paid.text())
  const after = await fetch(`${BASE_URL}/pay/${bill.invoiceUid}`)
  const afterHtml = await after.text()
  assert.match(after.headers.get('content-security-policy') ?? '', /frame-ancestors https:\/\/shop\.example /)
  assert.match(afterHtml, /\["PAYMENT_SUCCEEDED"\]/)

  // another site's page, and this one's once cleared: no framing at all, no events
  const other = await billPage(await newSite('embed'))
  assert.match(other.res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/)
  assert.equal(other.res.headers.get('x-frame-options'), 'DENY')
  assert.doesNotMatch(other.html, /INITIALIZED/)
  assert.deepEqual((await setOrigins(session, [])).body, { origins: [] })
  const cleared = await billPage(site)
  assert.match(cleared.res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/)
  assert.equal(cleared.res.headers.get('x-frame-options'), 'DENY')
  assert.doesNotMatch(cleared.html, /INITIALIZED/)

  const audit = await sql(
    `SELECT action, subject, outcome FROM "AuditEntry" WHERE "siteId" = $1 AND action = 'frame-origins' ORDER BY at`,
    [site.siteId],
  )
  assert.deepEqual(
    audit.map((a) => [a.subject, a.outcome]),
    [
      ['https://shop.example http://127.0.0.2:8080', 'set'],
      ['(none)', 'cleared'],
    ],
  )
})

test('a refused origin: 400 naming origins, nothing changed, the refusal audited', async () => {
  const site = await newSite('embed')
  const session = await signIn(site)
  assert.equal((await setOrigins(session, ['https://shop.example'])).status, 200)
  for (const origins of [
    ['https://*.shop.example'],
    ['http://shop.example'],
    ['https://shop.example/pay'],
    ['https://shop.example', 'null'],
    Array.from({ length: 11 }, (_, i) => `https://s${i}.example`),
    'https://shop.example',
  ]) {
    const r = await setOrigins(session, origins)
    assertError(r, 400, 'validation.error')
    assert.ok(Array.isArray(r.body.cause.origins), r.text)
  }
  const [row] = await sql(`SELECT "frameOrigins" FROM "Site" WHERE id = $1`, [site.siteId])
  assert.deepEqual(row.frameOrigins, ['https://shop.example'])
  const refused = await sql(
    `SELECT subject, outcome FROM "AuditEntry" WHERE "siteId" = $1 AND outcome LIKE 'refused%'`,
    [site.siteId],
  )
  assert.ok(refused.some((a) => a.subject.startsWith('https://*.shop.example') || a.subject === '(not a URL)'))
  // the cross-site or signed-out post is refused as every dashboard action is
  assert.equal((await post('/dashboard/actions/settings/frame-origins', { origins: [] })).status, 401)
})

test('a stored origin with `$` patterns is written as it is: no part of the policy spliced in again', async () => {
  const site = await newSite('embed')
  // as a row written before origins were held to plain host names (the dashboard refuses these now)
  await sql(`UPDATE "Site" SET "frameOrigins" = $2 WHERE id = $1`, [
    site.siteId,
    ["https://x$'.example", 'https://y$`.example', 'https://z$&.example'],
  ])
  const { res } = await billPage(site)
  const csp = res.headers.get('content-security-policy') ?? ''
  const names = csp.split(/;\s*/).map((d) => d.split(' ')[0])
  assert.deepEqual(names, [...new Set(names)], csp)
  assert.match(
    csp,
    /(^|; )frame-ancestors https:\/\/x\$'\.example https:\/\/y\$`\.example https:\/\/z\$&\.example(;|$)/,
  )
})

test("a page attempt's 3-D Secure challenge is framed as its page; an API payment's as before", async () => {
  const acsCsp = async (acsUrl: string, fields: Record<string, string>) => {
    const r = await fetch(acsUrl.replace(/\/acs$/, fields.result ? '/acs/result' : '/acs'), {
      method: 'POST',
      body: new URLSearchParams(fields),
    })
    assert.equal(r.status, 200, await r.text())
    return r.headers.get('content-security-policy') ?? ''
  }
  const challenged = async (origins: string[] | null) => {
    const site = await newSite('embed')
    if (origins) assert.equal((await setOrigins(await signIn(site), origins)).status, 200)
    const { bill } = await billPage(site)
    const a = await fetch(`${BASE_URL}/pay/${bill.invoiceUid}/attempts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: new URL(BASE_URL).origin },
      body: JSON.stringify({ method: 'card', pan: '4000000000003220', expiry: '12/30', cvv: '123' }),
    })
    const step = await a.json()
    assert.equal(step.kind, 'threeDS', JSON.stringify(step))
    return { site, step }
  }
  const framing = async (step: { acsUrl: string; pareq: string; md: string; termUrl: string }) => {
    const fields = { PaReq: step.pareq, MD: step.md, TermUrl: step.termUrl }
    return [await acsCsp(step.acsUrl, fields), await acsCsp(step.acsUrl, { ...fields, result: 'pass' })]
  }
  for (const csp of await framing((await challenged(['https://shop.example'])).step))
    assert.match(csp, /(^|; )frame-ancestors https:\/\/shop\.example(;|$)/)
  const { site, step } = await challenged(null)
  for (const csp of await framing(step)) assert.match(csp, /(^|; )frame-ancestors 'none'(;|$)/)
  // a merchant's own checkout (an API payment, its own TermUrl): no frame-ancestors, as before
  const api = client(site)
  const p = await api.put(`/payments/${uid('p')}`, cardPayment({ flags: ['SALE'] }, { pan: '4000000000003220' }))
  const threeDS = p.body.requirements.threeDS
  for (const csp of await framing({ ...threeDS, md: 'x', termUrl: 'https://m.example/3ds' }))
    assert.doesNotMatch(csp, /frame-ancestors/)
})
