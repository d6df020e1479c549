// The OpenAPI document as a client fetches it, and the reference page as a browser gets it: no token,
// the committed openapi.json itself, cacheable, under every prefix; /docs server-rendered from it, under
// the site's CSP, loading nothing from elsewhere.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { BASE_URL, assertErrorShape, request } from '../support/api.ts'
import { linkedStylesheets, pageAddresses } from '../support/page-addresses.ts'

const committed = JSON.parse(fs.readFileSync('openapi.json', 'utf8'))

test('GET /api/openapi.json: no token, the committed document, cacheable, readable from other origins', async () => {
  for (const prefix of ['/api', '/partner/payin/v1', '/partner/v1']) {
    const r = await request('GET', `${prefix}/openapi.json`)
    assert.equal(r.status, 200, r.text)
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/)
    assert.equal(r.headers.get('cache-control'), 'public, max-age=300')
    assert.equal(r.headers.get('access-control-allow-origin'), '*')
    assert.match(r.headers.get('x-trace-id') ?? '', /^[0-9a-f]{16}$/)
    assert.deepEqual(r.body, committed, `${prefix}/openapi.json differs from openapi.json`)
  }
})

test('the document is read, not written: other methods are 405 with Allow', async () => {
  const r = await request('POST', '/api/openapi.json', { body: {} })
  assertErrorShape(r, 405, 'http.method.not.allowed')
  assert.equal(r.headers.get('allow'), 'GET')
})

test('/docs: every operation with its method, path, error codes and curl command; the webhooks and schemas', async () => {
  const res = await fetch(`${BASE_URL}/docs`)
  assert.equal(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/)
  assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
  const html = await res.text()
  const text = html
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&amp;', '&')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
  for (const [path, item] of Object.entries(
    committed.paths as Record<string, Record<string, { operationId: string; summary: string }>>,
  ))
    for (const [method, op] of Object.entries(item)) {
      const at = html.indexOf(`id="${op.operationId}"`)
      assert.ok(at > 0, `${op.operationId} has no section`)
      const section = text.slice(
        text.indexOf(`id="${op.operationId}"`),
        text.indexOf('</section>', text.indexOf(`id="${op.operationId}"`)),
      )
      assert.ok(
        section.includes(`>${method.toUpperCase()}</span>`) && section.includes(path),
        `${op.operationId}: ${method} ${path}`,
      )
      assert.ok(section.includes(op.summary), `${op.operationId}: ${op.summary}`)
      assert.ok(section.includes('curl -s'), `${op.operationId}: curl`)
    }
  assert.ok(
    text.includes(
      `curl -s -X PUT "$BASE/sites/$SITE/payments/order-1001" \\\n  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json'`,
    ),
  )
  for (const code of [
    'validation.error',
    'payin.request.conflict',
    'payin.incorrect-method-invocation',
    'rate.limit.exceeded',
  ])
    assert.ok(text.includes(code), code)
  for (const webhook of ['paymentNotification', 'captureNotification', 'refundNotification'])
    assert.ok(html.includes(`id="webhook-${webhook}"`), webhook)
  for (const schema of Object.keys(committed.components.schemas))
    assert.ok(html.includes(`id="schema-${schema}"`), schema)
  assert.ok(text.includes(`export BASE=${BASE_URL}/api`), 'the curl variables name this service')
  // nothing from elsewhere: every address the page loads or links is the service's own (a path of its
  // origin, not //host/…, or a fragment), and so is every url() and @import of its CSS, linked stylesheets included
  const stylesheets: string[] = []
  for (const href of linkedStylesheets(html)) {
    const sheet = await fetch(new URL(href, `${BASE_URL}/docs`))
    assert.equal(sheet.status, 200, href)
    stylesheets.push(await sheet.text())
  }
  const { addresses, offSite } = pageAddresses(html, stylesheets)
  assert.ok(addresses.length > 50)
  assert.deepEqual(offSite, [])
})
