// The dashboard's settings over HTTP (issue 14, point 6): the notification URL set and cleared as the
// API then uses it, refused by the same rule as the site command; the signing secret rotated, shown in
// that answer alone, verified on notifications delivered afterwards (by a worker instance of its own on
// port +140, to a receiver on loopback), never on the page; API tokens created (hash only) and revoked
// (the API refuses them, their sessions end, the site's last active one stays); the session and Origin
// rules; every change in the audit log; no secret or token in the database or the server log.
import assert from 'node:assert/strict'
import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import { after, test } from 'node:test'
import { PRIVATE_ADDRESS_REFUSAL } from '../../lib/notifications/callback-url.ts'
import { BASE_URL, cardPayment, client, newSite, request, uid, type Answer } from '../support/api.ts'
import { asSession, assertError, dashboardPage, ORIGIN, post, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { receiver, verifiesEveryWay, verifyAsWritten, verifyPayinSignature } from '../support/notification-receiver.ts'
import { WORKER_ENV } from '../support/notify-site.ts'
import { siteCommand } from '../support/site-command.ts'

const instances: Instance[] = []
/** every secret and token an answer carried: none may reach the database or the server's log */
const shownOnce: string[] = []
after(() => instances.forEach((i) => i.kill()))

const settingsPage = async (cookie: string) => {
  const res = await dashboardPage(cookie, '/dashboard/settings')
  return { status: res.status, html: await res.text() }
}

/** the site's signing secrets now, as the site command derives them */
async function secretsOf(siteId: string): Promise<{ current: string; previous: string | null }> {
  const { closeDb } = await import('../../lib/db/client.ts')
  const { notifySecrets } = await import('../../lib/notifications/site-notify.ts')
  try {
    return await notifySecrets(siteId)
  } finally {
    await closeDb()
  }
}

const auditOf = async (siteId: string) =>
  (
    await sql(`SELECT actor, action, subject, outcome, detail FROM "AuditEntry" WHERE "siteId" = $1 ORDER BY at, id`, [
      siteId,
    ])
  ).map((e) => `${e.actor} ${e.action} ${e.subject}: ${e.outcome}`)

const siteRow = async (siteId: string) =>
  (await sql(`SELECT "notifyUrl", "notifySecretVersion" FROM "Site" WHERE id = $1`, [siteId]))[0]

const assertNoStore = (a: Answer) => assert.match(a.headers.get('cache-control') ?? '', /no-store/)

test('the notification URL: set and cleared as the API then uses it; a refused one is a 400 naming the field, the same refusal as the site command', async () => {
  const site = await newSite('settings-url')
  const api = client(site)
  const cookie = await signIn(site)
  const hint = site.token.slice(0, 9)
  // a host name is accepted (it is checked again, on the address it resolves to, at each delivery); this suite's server
  // posts nothing
  const url = `http://localhost:9/payin-hook/${uid('h')}`
  const set = await post('/dashboard/actions/settings/notify-url', { url: `  ${url} ` }, asSession(cookie))
  assert.equal(set.status, 200, set.text)
  assert.deepEqual(set.body, { url })
  assert.equal((await siteRow(site.siteId)).notifyUrl, url)
  // the API sends a payment's notification there (the outbox row names the URL)
  const first = await api.newPayment(cardPayment())
  const outbox = (await api.get('/notifications')).body as { resourceId: string; url: string }[]
  assert.deepEqual(
    outbox.filter((n) => n.resourceId === first).map((n) => n.url),
    [url],
  )

  // refused: a literal private address (this server allows no network), not http(s), not a URL at all
  for (const bad of [
    'http://127.0.0.1:8080/hook',
    'http://169.254.169.254/latest',
    'http://[::ffff:10.0.0.1]/x',
    'ftp://files.example/x',
    'shop.example/hook',
    `https://shop.example/${'x'.repeat(2100)}`,
  ]) {
    const r = await post('/dashboard/actions/settings/notify-url', { url: bad }, asSession(cookie))
    assertError(r, 400, 'validation.error')
    assert.deepEqual(Object.keys(r.body.cause), ['url'], r.text)
    assert.ok(r.body.cause.url[0].length > 0)
  }
  const refused = await post(
    '/dashboard/actions/settings/notify-url',
    { url: 'http://10.1.2.3/hook' },
    asSession(cookie),
  )
  assert.deepEqual(refused.body.cause, { url: [PRIVATE_ADDRESS_REFUSAL] })
  assertError(
    await post('/dashboard/actions/settings/notify-url', { url: 5 }, asSession(cookie)),
    400,
    'validation.error',
  )
  assertError(await post('/dashboard/actions/settings/notify-url', {}, asSession(cookie)), 400, 'validation.error')
  // nothing changed
  assert.equal((await siteRow(site.siteId)).notifyUrl, url)
  // the site command (same rule, same words) refuses it too
  const byCommand = await siteCommand(['notify', site.siteId, 'http://10.1.2.3/hook'], {
    ...process.env,
    NOTIFY_ALLOW_NETWORKS: '',
  })
  assert.equal(byCommand.code, 1)
  assert.match(byCommand.stderr, /the notification URL must not point to a private address/)
  assert.equal((await siteRow(site.siteId)).notifyUrl, url)

  // cleared (empty = no notifications): the next payment's notification goes nowhere
  const cleared = await post('/dashboard/actions/settings/notify-url', { url: '' }, asSession(cookie))
  assert.equal(cleared.status, 200, cleared.text)
  assert.deepEqual(cleared.body, { url: null })
  assert.equal((await siteRow(site.siteId)).notifyUrl, null)
  const second = await api.newPayment(cardPayment())
  assert.equal(
    ((await api.get('/notifications')).body as { resourceId: string }[]).filter((n) => n.resourceId === second).length,
    0,
  )

  // the page shows the URL's state; the audit log has every attempt
  const page = await settingsPage(cookie)
  assert.equal(page.status, 200)
  assert.match(page.html, /Notification URL/)
  assert.deepEqual(await auditOf(site.siteId), [
    `${hint} notify-url ${url}: set`,
    // kept as parsed (an address written the URL standard's way), credentials never
    ...['http://127.0.0.1:8080/hook', 'http://169.254.169.254/latest', 'http://[::ffff:a00:1]/x'].map(
      (u) => `${hint} notify-url ${u}: refused: ${PRIVATE_ADDRESS_REFUSAL}`,
    ),
    `${hint} notify-url ftp://files.example/x: refused: must be an absolute http(s) URL`,
    // not a URL: not kept at all
    `${hint} notify-url (not a URL): refused: must be an absolute http(s) URL`,
    `${hint} notify-url https://shop.example/${'x'.repeat(300 - 'https://shop.example/'.length)}: refused: must be at most 2048 characters`,
    `${hint} notify-url http://10.1.2.3/hook: refused: ${PRIVATE_ADDRESS_REFUSAL}`,
    `${hint} notify-url (none): cleared`,
  ])
})

test('rotating the signing secret: the answer alone carries it; notifications signed afterwards verify with it; the page never shows it', async () => {
  const rx = receiver()
  const hook = await rx.start()
  const worker = await startInstance(Number(new URL(BASE_URL).port) + 140, {
    ...WORKER_ENV,
    NOTIFY_TIMEOUT_MS: '1000',
    NOTIFY_LEASE_MS: '2000',
  })
  instances.push(worker)
  try {
    const site = await newSite('settings-secret')
    // the worker instance allows the loopback receiver as a callbackUrl; this suite's server does not
    const api = client(site, '/api', worker.base)
    const cookie = await signIn(site)
    const before = await secretsOf(site.siteId)
    const arrived = async (id: string) => {
      await rx.waitFor(() => rx.forPath(`/cb/${id}`).length >= 1)
      return rx.forPath(`/cb/${id}`)[0]
    }

    const r = await post('/dashboard/actions/settings/rotate-secret', undefined, asSession(cookie))
    assert.equal(r.status, 200, r.text)
    assertNoStore(r)
    const fresh: string = r.body.secret
    shownOnce.push(fresh)
    assert.match(fresh, /^whsec_/)
    assert.notEqual(fresh, before.current)
    assert.equal(r.body.graceHours, 24)
    const until = Date.parse(r.body.previousUntil)
    assert.ok(Math.abs(until - (Date.now() + 24 * 3600_000)) < 60_000, r.body.previousUntil)
    // what the site command now derives
    assert.deepEqual(await secretsOf(site.siteId), {
      current: fresh,
      previous: before.current,
      previousUntil: new Date(until),
    })

    // during the grace period: Payin-Signature verifies with the new secret, Signature still with the previous one
    const during = uid('pay')
    assert.equal(
      (await api.put(`/payments/${during}`, cardPayment({ callbackUrl: `${hook}/cb/${during}` }))).status,
      200,
    )
    const n1 = await arrived(during)
    assert.ok(verifyPayinSignature(fresh, n1))
    assert.ok(verifyAsWritten(before.current, n1))

    // after a leak: the previous secret stops signing at once; the new one alone signs
    const r2 = await post('/dashboard/actions/settings/rotate-secret', { immediately: true }, asSession(cookie))
    assert.equal(r2.status, 200, r2.text)
    assertNoStore(r2)
    const fresher: string = r2.body.secret
    shownOnce.push(fresher)
    assert.equal(r2.body.previousUntil, null)
    const next = uid('pay')
    assert.equal((await api.put(`/payments/${next}`, cardPayment({ callbackUrl: `${hook}/cb/${next}` }))).status, 200)
    const n2 = await arrived(next)
    assert.ok(verifiesEveryWay(fresher, n2))
    assert.equal(verifyAsWritten(fresh, n2), false)
    assert.equal(verifyPayinSignature(fresh, n2), false)

    // the page (reloaded any number of times) shows none of them
    for (let i = 0; i < 2; i++) {
      const page = await settingsPage(cookie)
      assert.equal(page.status, 200)
      assert.match(page.html, /Signing secret/)
      for (const s of [before.current, fresh, fresher]) assert.equal(page.html.includes(s), false)
      assert.equal(/whsec_/.test(page.html), false)
    }
    assertError(
      await post('/dashboard/actions/settings/rotate-secret', { immediately: 'yes' }, asSession(cookie)),
      400,
      'validation.error',
    )
    const hint = site.token.slice(0, 9)
    assert.deepEqual(await auditOf(site.siteId), [
      `${hint} rotate-secret signing secret: rotated`,
      `${hint} rotate-secret signing secret: rotated, previous ended`,
    ])
    const stored = JSON.stringify(await sql(`SELECT * FROM "AuditEntry" WHERE "siteId" = $1`, [site.siteId]))
    for (const s of [fresh, fresher]) assert.equal(stored.includes(s), false)
  } finally {
    worker.kill()
    rx.close()
  }
})

test('creating a token: shown once, works for the API and for signing in, stored only as its hash', async () => {
  const site = await newSite('settings-create')
  const cookie = await signIn(site)
  const r = await post('/dashboard/actions/settings/tokens', undefined, asSession(cookie))
  assert.equal(r.status, 200, r.text)
  assertNoStore(r)
  const token: string = r.body.token
  shownOnce.push(token)
  assert.match(token, /^sk_[A-Za-z0-9_-]{43}$/)
  assert.equal(r.body.hint, token.slice(0, 9))
  // the API takes it, and so does the dashboard's sign-in
  const listed = await client({ siteId: site.siteId, token }).get('/notifications')
  assert.equal(listed.status, 200, listed.text)
  const second = await signIn({ siteId: site.siteId, token })
  assert.equal((await dashboardPage(second, '/dashboard/settings')).status, 200)
  // stored as its SHA-256 and hint only
  const rows = await sql(`SELECT * FROM "SiteToken" WHERE "siteId" = $1 AND hint = $2`, [
    site.siteId,
    token.slice(0, 9),
  ])
  assert.equal(rows.length, 1)
  assert.equal(rows[0].tokenHash, createHash('sha256').update(token).digest('hex'))
  for (const table of ['SiteToken', 'AuditEntry', 'DashboardSession'])
    assert.equal(
      JSON.stringify(await sql(`SELECT * FROM "${table}" WHERE "siteId" = $1`, [site.siteId])).includes(token),
      false,
      table,
    )
  // the page lists it by its hint and never shows it whole; the session opened with it is marked
  const page = await settingsPage(second)
  assert.equal(page.html.includes(token), false)
  assert.ok(page.html.includes(`${token.slice(0, 9)}…`))
  assert.match(page.html, /this session/)
  assert.deepEqual(await auditOf(site.siteId), [`${site.token.slice(0, 9)} create-token ${token.slice(0, 9)}: created`])
})

test('revoking a token: the API refuses it, every session opened with it ends, this session’s own token signs out, the last active token stays', async () => {
  const site = await newSite('settings-revoke')
  const a = await signIn(site)
  const created = await post('/dashboard/actions/settings/tokens', undefined, asSession(a))
  const b: string = created.body.token
  shownOnce.push(b)
  const [b1, b2] = [await signIn({ siteId: site.siteId, token: b }), await signIn({ siteId: site.siteId, token: b })]
  const idOf = async (token: string) =>
    (
      await sql(`SELECT id FROM "SiteToken" WHERE "tokenHash" = $1`, [createHash('sha256').update(token).digest('hex')])
    )[0].id as string
  const bId = await idOf(b)
  const revokeFrom = (cookie: string, id: string) =>
    post(`/dashboard/actions/settings/tokens/${id}/revoke`, undefined, asSession(cookie))

  const r = await revokeFrom(a, bId)
  assert.equal(r.status, 200, r.text)
  assert.deepEqual(r.body, { revoked: b.slice(0, 9), signedOut: false })
  // the API refuses it; both of its sessions end (pages: the sign-in page; actions: 401); a's goes on
  assertError(await client({ siteId: site.siteId, token: b }).get('/notifications'), 401, 'auth.unauthorized')
  for (const s of [b1, b2]) {
    const page = await dashboardPage(s, '/dashboard/settings')
    assert.equal(page.status, 307)
    assert.equal(new URL(page.headers.get('location')!, BASE_URL).pathname, '/dashboard')
    assertError(await post('/dashboard/actions/settings/tokens', undefined, asSession(s)), 401, 'auth.unauthorized')
  }
  assert.equal((await dashboardPage(a, '/dashboard/settings')).status, 200)
  assertError(await post('/dashboard/actions/sign-in', { siteId: site.siteId, token: b }), 401, 'auth.unauthorized')
  // again: it is revoked already; an unknown id, another site's token, a malformed id
  assertError(await revokeFrom(a, bId), 409, 'payin.incorrect-method-invocation')
  assertError(await revokeFrom(a, randomUUID()), 404, 'payin.resource.not.found')
  const other = await newSite('settings-other')
  assertError(await revokeFrom(a, await idOf(other.token)), 404, 'payin.resource.not.found')
  assert.equal((await client(other).get('/notifications')).status, 200)
  assertError(await revokeFrom(a, 'not-an-id'), 400, 'validation.error')

  // the site's last active token is not revoked: without it nobody could sign in or call the API
  const aId = await idOf(site.token)
  const last = await revokeFrom(a, aId)
  assertError(last, 409, 'payin.incorrect-method-invocation')
  assert.equal((await client(site).get('/notifications')).status, 200)
  assert.equal((await dashboardPage(a, '/dashboard/settings')).status, 200)

  // with another one made, this session's own token can go: the answer says this session ended
  const c: string = (await post('/dashboard/actions/settings/tokens', undefined, asSession(a))).body.token
  shownOnce.push(c)
  const own = await revokeFrom(a, aId)
  assert.equal(own.status, 200, own.text)
  assert.deepEqual(own.body, { revoked: site.token.slice(0, 9), signedOut: true })
  assert.equal((await dashboardPage(a, '/dashboard/settings')).status, 307)
  assertError(await client(site).get('/notifications'), 401, 'auth.unauthorized')
  assert.equal((await client({ siteId: site.siteId, token: c }).get('/notifications')).status, 200)

  // two revocations at once cannot take the last two tokens together
  const d: string = (
    await post(
      '/dashboard/actions/settings/tokens',
      undefined,
      asSession(await signIn({ siteId: site.siteId, token: c })),
    )
  ).body.token
  shownOnce.push(d)
  const [sc, sd] = [await signIn({ siteId: site.siteId, token: c }), await signIn({ siteId: site.siteId, token: d })]
  const [cId, dId] = [await idOf(c), await idOf(d)]
  const both = await Promise.all([revokeFrom(sd, cId), revokeFrom(sc, dId)])
  assert.equal(both.filter((x) => x.status === 200).length, 1, both.map((x) => x.text).join('\n'))
  assert.equal(
    (
      await sql(`SELECT count(*)::int AS n FROM "SiteToken" WHERE "siteId" = $1 AND "revokedAt" IS NULL`, [site.siteId])
    )[0].n,
    1,
  )

  const hintA = site.token.slice(0, 9)
  const audit = await auditOf(site.siteId)
  assert.deepEqual(audit.slice(0, 5), [
    `${hintA} create-token ${b.slice(0, 9)}: created`,
    `${hintA} revoke-token ${b.slice(0, 9)}: revoked`,
    `${hintA} revoke-token ${hintA}: refused: last active token`,
    `${hintA} create-token ${c.slice(0, 9)}: created`,
    `${hintA} revoke-token ${hintA}: revoked, this session ended`,
  ])
  assert.equal(audit.filter((e) => / revoke-token .*: revoked$/.test(e)).length, 2)
})

test('without a session: 401; from another origin (or none): 403; nothing changed', async () => {
  const site = await newSite('settings-guard')
  const cookie = await signIn(site)
  const tokenId = (await sql(`SELECT id FROM "SiteToken" WHERE "siteId" = $1`, [site.siteId]))[0].id
  const actions: [string, unknown][] = [
    ['notify-url', { url: 'https://shop.example/hook' }],
    ['rotate-secret', {}],
    ['tokens', undefined],
    [`tokens/${tokenId}/revoke`, undefined],
  ]
  for (const [path, body] of actions) {
    const at = `/dashboard/actions/settings/${path}`
    assertError(await post(at, body), 401, 'auth.unauthorized')
    assertError(await post(at, body, asSession('not-a-session')), 401, 'auth.unauthorized')
    for (const origin of [undefined, 'http://evil.example', 'null']) {
      const headers: Record<string, string> = { ...asSession(cookie), 'Content-Type': 'application/json' }
      if (origin) headers.Origin = origin
      assertError(
        await request('POST', at, { rawBody: body === undefined ? undefined : JSON.stringify(body), headers }),
        403,
        'auth.forbidden',
      )
    }
    assertError(await post(at, body, { ...asSession(cookie), 'Sec-Fetch-Site': 'cross-site' }), 403, 'auth.forbidden')
    // a GET is not an action
    assertError(
      await request('GET', at, { headers: { ...asSession(cookie), Origin: ORIGIN } }),
      405,
      'http.method.not.allowed',
    )
  }
  assert.deepEqual(await siteRow(site.siteId), { notifyUrl: null, notifySecretVersion: 0 })
  assert.equal(
    (
      await sql(`SELECT count(*)::int AS n FROM "SiteToken" WHERE "siteId" = $1 AND "revokedAt" IS NULL`, [site.siteId])
    )[0].n,
    1,
  )
  assert.equal((await sql(`SELECT count(*)::int AS n FROM "SiteToken" WHERE "siteId" = $1`, [site.siteId]))[0].n, 1)
  assert.deepEqual(await auditOf(site.siteId), [])
  // and the page itself wants a session
  const page = await fetch(`${BASE_URL}/dashboard/settings`, { redirect: 'manual' })
  assert.equal(page.status, 307)
})

test('no secret or token shown once reached the server’s log', () => {
  const log = process.env.SERVER_LOG
  if (!log || !fs.existsSync(log)) return
  const text = fs.readFileSync(log, 'utf8')
  assert.ok(shownOnce.length >= 5)
  for (const s of shownOnce) assert.equal(text.includes(s), false)
})
