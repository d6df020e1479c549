// The merchant dashboard's session rules over HTTP: signing in with a site's token, the cookie, the
// Origin check on every state-changing request, idle expiry, signing out and token revocation ending
// sessions server-side, failed sign-ins limited per client and per site (on an instance of its own:
// every test of the suite signs in from 127.0.0.1), and the audit log of a capture and a refund.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, test } from 'node:test'
import { BASE_URL, client, newSite, request, rub, twoStepPayment, uid } from '../support/api.ts'
import { asSession, assertError, COOKIE, dashboardPage, post, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'

const instances: Instance[] = []
after(() => instances.forEach((i) => i.kill()))

test('signing in: a session cookie (httpOnly, SameSite=Strict, dashboard paths), stored only as a hash', async () => {
  const site = await newSite('dash')
  const r = await post('/dashboard/actions/sign-in', { siteId: site.siteId, token: site.token })
  assert.equal(r.status, 200, r.text)
  const cookie = r.headers.get('set-cookie')!
  assert.match(cookie, /^payin_dashboard=[A-Za-z0-9_-]{43}; /)
  assert.match(cookie, /; HttpOnly/)
  assert.match(cookie, /; SameSite=Strict/)
  assert.match(cookie, /; Path=\/dashboard/)
  assert.doesNotMatch(cookie, /Secure/, 'plain http here: a Secure cookie would never come back')
  const value = /^payin_dashboard=([^;]+)/.exec(cookie)![1]
  const rows = await sql(`SELECT "idHash" FROM "DashboardSession" WHERE "siteId" = $1`, [site.siteId])
  assert.equal(rows.length, 1)
  assert.notEqual(rows[0].idHash, value)
  assert.equal(
    JSON.stringify(await sql(`SELECT * FROM "DashboardSession" WHERE "siteId" = $1`, [site.siteId])).includes(value),
    false,
  )
  assert.equal((await dashboardPage(value)).status, 200)
})

test('wrong credentials: one answer for an unknown site, a wrong token and another site’s token', async () => {
  const site = await newSite('dash')
  const other = await newSite('dash-other')
  const answers = await Promise.all([
    post('/dashboard/actions/sign-in', { siteId: uid('no-such-site'), token: site.token }),
    post('/dashboard/actions/sign-in', { siteId: site.siteId, token: `${site.token}x` }),
    post('/dashboard/actions/sign-in', { siteId: site.siteId, token: other.token }),
  ])
  for (const a of answers) {
    assertError(a, 401, 'auth.unauthorized')
    assert.equal(a.body.description, 'Wrong site ID or API token')
    assert.equal(a.headers.get('set-cookie'), null)
  }
  assertError(await post('/dashboard/actions/sign-in', { siteId: '', token: '' }), 400, 'validation.error')
})

test('every state-changing request needs the service’s own Origin', async () => {
  const site = await newSite('dash')
  const value = await signIn(site)
  const api = client(site)
  const p = uid('p')
  assert.equal((await api.put(`/payments/${p}`, twoStepPayment({ amount: rub('10.00') }))).status, 200)
  const capture = { amount: '10.00', key: crypto.randomUUID() }
  for (const origin of [undefined, 'http://evil.example', 'null']) {
    const headers: Record<string, string> = { ...asSession(value), 'Content-Type': 'application/json' }
    if (origin) headers.Origin = origin
    const r = await request('POST', `/dashboard/actions/payments/${p}/capture`, {
      rawBody: JSON.stringify(capture),
      headers,
    })
    assertError(r, 403, 'auth.forbidden')
  }
  // the browser's own word counts too
  assertError(
    await post(`/dashboard/actions/payments/${p}/capture`, capture, {
      ...asSession(value),
      'Sec-Fetch-Site': 'cross-site',
    }),
    403,
    'auth.forbidden',
  )
  assertError(
    await post(`/dashboard/actions/payments/${p}/capture`, capture, {
      ...asSession(value),
      'Sec-Fetch-Site': 'same-site',
    }),
    403,
    'auth.forbidden',
  )
  assertError(
    await request('POST', '/dashboard/actions/sign-in', {
      body: { siteId: site.siteId, token: site.token },
      headers: { Origin: 'http://evil.example' },
    }),
    403,
    'auth.forbidden',
  )
  // with PUBLIC_BASE_URL set (as on this server), a Host header naming the attacker's origin is not believed
  assertError(
    await request('POST', '/dashboard/actions/sign-in', {
      body: { siteId: site.siteId, token: site.token },
      headers: { Origin: 'http://evil.example', Host: 'evil.example' },
    }),
    403,
    'auth.forbidden',
  )
  // a second session cookie (a sibling host can plant one): no session at all, for actions and pages alike
  const mine = await signIn(site)
  const twice = { Cookie: `${COOKIE}=${mine}; ${COOKIE}=${value}` }
  assertError(await post(`/dashboard/actions/payments/${p}/capture`, capture, twice), 401, 'auth.unauthorized')
  const page = await fetch(`${BASE_URL}/dashboard/payments`, { headers: twice, redirect: 'manual' })
  assert.equal(page.status, 307)
  // nothing was captured
  assert.equal((await api.get(`/payments/${p}`)).body.capturedAmount.value, '0.00')
  const ok = await post(`/dashboard/actions/payments/${p}/capture`, capture, asSession(value))
  assert.equal(ok.status, 200, ok.text)
  assert.equal((await api.get(`/payments/${p}`)).body.capturedAmount.value, '10.00')
})

test('without a session: 401 for actions, the sign-in page for pages', async () => {
  assertError(
    await post(`/dashboard/actions/payments/${uid('p')}/refund`, { amount: '1.00', key: crypto.randomUUID() }),
    401,
    'auth.unauthorized',
  )
  assertError(
    await post(
      `/dashboard/actions/payments/${uid('p')}/refund`,
      { amount: '1.00', key: crypto.randomUUID() },
      asSession('not-a-session'),
    ),
    401,
    'auth.unauthorized',
  )
  const page = await fetch(`${BASE_URL}/dashboard/payments`, { redirect: 'manual' })
  assert.ok([303, 307, 308].includes(page.status), String(page.status))
  assert.equal(new URL(page.headers.get('location')!, BASE_URL).pathname, '/dashboard')
})

test('a session ends: idle for 8 hours, signed out, or its token revoked', async () => {
  const site = await newSite('dash')
  const idle = await signIn(site)
  const signedOut = await signIn(site)
  const revoked = await signIn(site)
  const old = await signIn(site)
  // busy, but signed in 24 hours and a minute ago: over, however recent its last request
  await sql(`UPDATE "DashboardSession" SET "createdAt" = now() - interval '24 hours 1 minute' WHERE "idHash" = $1`, [
    sha(old),
  ])
  assert.equal((await dashboardPage(old)).status, 307)
  // idle: 8 hours and a minute since its last request
  await sql(`UPDATE "DashboardSession" SET "lastSeenAt" = now() - interval '8 hours 1 minute' WHERE "idHash" = $1`, [
    sha(idle),
  ])
  assert.equal((await dashboardPage(idle)).status, 307)
  // a request within the 8 hours restarts the clock
  await sql(`UPDATE "DashboardSession" SET "lastSeenAt" = now() - interval '7 hours 59 minutes' WHERE "idHash" = $1`, [
    sha(signedOut),
  ])
  assert.equal((await dashboardPage(signedOut)).status, 200)
  // signed out: the same cookie value no longer works, whoever holds it
  const out = await post('/dashboard/actions/sign-out', undefined, asSession(signedOut))
  assert.equal(out.status, 200, out.text)
  assert.match(out.headers.get('set-cookie') ?? '', /^payin_dashboard=; .*Max-Age=0/)
  assert.equal((await dashboardPage(signedOut)).status, 307)
  assertError(
    await post(
      `/dashboard/actions/payments/${uid('p')}/capture`,
      { amount: '1.00', key: crypto.randomUUID() },
      asSession(signedOut),
    ),
    401,
    'auth.unauthorized',
  )
  // the token revoked: every session opened with it ends
  assert.equal((await dashboardPage(revoked)).status, 200)
  await sql(`UPDATE "SiteToken" SET "revokedAt" = now() WHERE "siteId" = $1`, [site.siteId])
  assert.equal((await dashboardPage(revoked)).status, 307)
  assertError(
    await post('/dashboard/actions/sign-in', { siteId: site.siteId, token: site.token }),
    401,
    'auth.unauthorized',
  )
})

const sha = (value: string) => createHash('sha256').update(`dashboard-session\0${value}`).digest('hex')

test('another site’s payment: 404 on its page and for actions, nothing done', async () => {
  const mine = await newSite('dash')
  const theirs = await newSite('dash-theirs')
  const p = uid('p')
  assert.equal((await client(theirs).put(`/payments/${p}`, twoStepPayment({ amount: rub('10.00') }))).status, 200)
  const value = await signIn(mine)
  assert.equal((await dashboardPage(value, `/dashboard/payments/${p}`)).status, 404)
  assertError(
    await post(
      `/dashboard/actions/payments/${p}/capture`,
      { amount: '10.00', key: crypto.randomUUID() },
      asSession(value),
    ),
    404,
    'payin.resource.not.found',
  )
  assert.equal((await client(theirs).get(`/payments/${p}`)).body.capturedAmount.value, '0.00')
})

test('capture and refund through the dashboard: the API agrees, a form sent twice acts once, each action in the audit log', async () => {
  const site = await newSite('dash')
  const api = client(site)
  const value = await signIn(site)
  const p = uid('p')
  assert.equal((await api.put(`/payments/${p}`, twoStepPayment({ amount: rub('50.00') }))).status, 200)
  const key = crypto.randomUUID()
  const [a, b] = await Promise.all([
    post(`/dashboard/actions/payments/${p}/capture`, { amount: '40.00', key }, asSession(value)),
    post(`/dashboard/actions/payments/${p}/capture`, { amount: '40.00', key }, asSession(value)),
  ])
  for (const r of [a, b]) {
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status, 'COMPLETED')
  }
  const refund = await post(
    `/dashboard/actions/payments/${p}/refund`,
    { amount: '15.50', key: crypto.randomUUID() },
    asSession(value),
  )
  assert.equal(refund.status, 200, refund.text)
  assert.equal(refund.body.status, 'COMPLETED')
  // over what is left of the capture: refused, where the API would record a declined refund (the dashboard offers
  // only what can work)
  const over = await post(
    `/dashboard/actions/payments/${p}/refund`,
    { amount: '30.00', key: crypto.randomUUID() },
    asSession(value),
  )
  assertError(over, 409, 'payin.incorrect-method-invocation')
  assert.equal(over.body.description, 'The amount is more than is left to refund')
  assertError(
    await post(
      `/dashboard/actions/payments/${p}/refund`,
      { amount: 'ten', key: crypto.randomUUID() },
      asSession(value),
    ),
    400,
    'validation.error',
  )
  // a second capture is refused by the capture service (an API error, shown inline), and recorded as refused
  const again = await post(
    `/dashboard/actions/payments/${p}/capture`,
    { amount: '5.00', key: crypto.randomUUID() },
    asSession(value),
  )
  assert.equal(again.status, 409, again.text)
  const read = (await api.get(`/payments/${p}`)).body
  assert.equal(read.capturedAmount.value, '40.00')
  assert.equal(read.refundedAmount.value, '15.50')
  const refunds = (await api.get(`/payments/${p}/refunds`)).body
  assert.equal(refunds.length, 1)
  const audit = await sql(`SELECT actor, action, subject, outcome FROM "AuditEntry" WHERE "siteId" = $1 ORDER BY at`, [
    site.siteId,
  ])
  const hint = site.token.slice(0, 9)
  assert.ok(audit.every((e) => e.actor === hint && e.subject === p))
  assert.deepEqual(
    audit.map((e) => `${e.action} ${e.outcome}`),
    [
      'capture COMPLETED',
      'refund COMPLETED',
      `refund refused: ${over.body.description}`,
      `capture refused: ${again.body.description}`,
    ],
  )
})

test('failed sign-ins are limited per client and per site, counted before they are judged; a client with a clean record still gets in', async () => {
  const instance = await startInstance(Number(new URL(BASE_URL).port) + 120, {
    DASHBOARD_SIGN_IN_FAILURES_PER_CLIENT: '3',
    DASHBOARD_SIGN_IN_FAILURES_PER_SITE: '5',
    // the client address is taken from X-Forwarded-For behind one trusted proxy
    TRUSTED_PROXY_HOPS: '1',
    // windows start at multiples of their length since 1970: 10⁹ s, so that the test never straddles two (at a
    // boundary a fixed window lets the next window's attempts be judged: the burst below saw 6 of 20 once)
    DASHBOARD_SIGN_IN_WINDOW_SECONDS: '1000000000',
  })
  instances.push(instance)
  const site = await newSite('dash-limits')
  const from = (client: string, token: string, siteId = site.siteId) =>
    post(
      '/dashboard/actions/sign-in',
      { siteId, token },
      { Origin: instance.base, 'X-Forwarded-For': client },
      instance.base,
    )
  // per client: three failures, then even the right token waits for the window's end
  for (let i = 0; i < 3; i++) assert.equal((await from('203.0.113.1', 'sk_wrong')).status, 401)
  const limited = await from('203.0.113.1', site.token)
  assertError(limited, 429, 'rate.limit.exceeded')
  const retryAfter = Number(limited.headers.get('retry-after'))
  // the window's remaining time
  const windowEnd = (Math.floor(Date.now() / 1e12) + 1) * 1e9
  assert.ok(retryAfter > 0 && Math.abs(retryAfter - (windowEnd - Date.now() / 1000)) < 60, `Retry-After ${retryAfter}`)
  // another client is not held back by the first one's failures
  assert.equal((await from('203.0.113.2', site.token)).status, 200)
  // per site: past its limit (5), a client that has failed for it waits; a client with a clean record
  // still gets its check, so wrong tokens from many addresses cannot lock the merchant out
  assert.equal((await from('203.0.113.10', 'sk_wrong')).status, 401) // the site's 5th (the limited attempt counted too)
  assert.equal((await from('203.0.113.11', 'sk_wrong')).status, 401) // 6th: this client's first, checked
  assertError(await from('203.0.113.11', 'sk_wrong'), 429, 'rate.limit.exceeded')
  assertError(await from('203.0.113.10', site.token), 429, 'rate.limit.exceeded')
  assert.equal((await from('203.0.113.3', site.token)).status, 200)
  // sent all at once, no attempt slips past the limit: exactly three are judged, the rest refused
  const burst = await newSite('dash-limits-burst')
  const answers = await Promise.all(Array.from({ length: 20 }, () => from('203.0.113.60', 'sk_wrong', burst.siteId)))
  assert.deepEqual(answers.map((a) => a.status).sort(), [...Array(3).fill(401), ...Array(17).fill(429)])
  // another site is not held back
  const other = await newSite('dash-limits-other')
  assert.equal((await from('203.0.113.4', other.token, other.siteId)).status, 200)
})
