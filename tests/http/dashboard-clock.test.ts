// The site's sandbox clock in the dashboard (issue 16, point 1): "Advance" (POST
// /dashboard/actions/sandbox/clock/advance) moves the session's site's clock, which the API's
// GET …/sandbox/clock then shows, and no other site's; the settings page shows the site's time and how
// far ahead it runs; each advance is in the settings' audit log; a move that is not forward (zero,
// negative, a `to` at or before the clock, past the limit) is the service's 400, moving nothing; the
// session and Origin rules; New bill's deadlines count from the site's time; with SANDBOX_CLOCK=off
// (an instance of its own, port +145) the action is a 404 and the page has no clock.
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { BASE_URL, DAY_MS, WIRE_TIME, client, newSite, request } from '../support/api.ts'
import { ORIGIN, asSession, assertError, post, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'

const ADVANCE = '/dashboard/actions/sandbox/clock/advance'
const instances: Instance[] = []
after(() => instances.forEach((i) => i.kill()))

/** the site's clock as the API reads it */
async function apiClock(site: { siteId: string; token: string }): Promise<{ now: string; offsetSeconds: number }> {
  const r = await client(site).get('/sandbox/clock')
  assert.equal(r.status, 200, r.text)
  return r.body
}

/** within a minute of `expected` (the test's clock and the server's are the same machine's) */
const near = (iso: string, expected: number) =>
  assert.ok(Math.abs(Date.parse(iso) - expected) < 60_000, `${iso} is not near ${new Date(expected).toISOString()}`)

const auditOf = async (siteId: string) =>
  (
    await sql(`SELECT actor, action, subject, outcome, detail FROM "AuditEntry" WHERE "siteId" = $1 ORDER BY at, id`, [
      siteId,
    ])
  ).map((e) => ({
    entry: `${e.actor} ${e.action} ${e.subject}: ${e.outcome}`,
    detail: e.detail as Record<string, string>,
  }))

/** the page's text, tags left out (a server-rendered page: what a reader sees, give or take spacing) */
const textOf = async (cookie: string, path: string, base = BASE_URL) => {
  const res = await fetch(`${base}${path}`, { headers: asSession(cookie), redirect: 'manual' })
  assert.equal(res.status, 200)
  return (await res.text())
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ')
}

test('Advance moves the session’s site’s clock, which the API then shows, and no other site’s; the page shows it; each advance is audited', async () => {
  const site = await newSite('dash-clock')
  const other = await newSite('dash-clock-other')
  const cookie = await signIn(site)
  const hint = site.token.slice(0, 9)
  assert.equal((await apiClock(site)).offsetSeconds, 0)
  let page = await textOf(cookie, '/dashboard/settings')
  assert.match(page, /Sandbox clock/)
  assert.match(page, /Site time: [^(]+ \(real time\)/)

  const r = await post(ADVANCE, { seconds: 86_400 }, asSession(cookie))
  assert.equal(r.status, 200, r.text)
  assert.equal(r.body.offsetSeconds, 86_400)
  assert.match(r.body.now, WIRE_TIME)
  near(r.body.now, Date.now() + DAY_MS)
  // the API reads the same clock; the other site's is untouched
  const read = await apiClock(site)
  assert.equal(read.offsetSeconds, 86_400)
  near(read.now, Date.now() + DAY_MS)
  const untouched = await apiClock(other)
  assert.equal(untouched.offsetSeconds, 0)
  near(untouched.now, Date.now())
  page = await textOf(cookie, '/dashboard/settings')
  assert.match(page, /\(1 day ahead\)/)

  // the API's other form of the body: `to` a date-time (the clock at it, give or take the request's time)
  const to = new Date(Date.now() + 2 * DAY_MS + 3 * 3600_000 + 5 * 60_000)
  const r2 = await post(ADVANCE, { to: to.toISOString() }, asSession(cookie))
  assert.equal(r2.status, 200, r2.text)
  near(r2.body.now, to.getTime())
  assert.ok(Math.abs(r2.body.offsetSeconds - (to.getTime() - Date.now()) / 1000) < 60, String(r2.body.offsetSeconds))
  page = await textOf(cookie, '/dashboard/settings')
  assert.match(page, /\(2 days 3 hours (4|5) minutes ahead\)/)
  assert.equal((await apiClock(other)).offsetSeconds, 0)

  // the settings' audit log: who, by how much (or to when), how far ahead then
  const audit = await auditOf(site.siteId)
  assert.deepEqual(
    audit.map((a) => a.entry),
    [`${hint} clock sandbox clock: advanced`, `${hint} clock sandbox clock: advanced`],
  )
  assert.deepEqual(audit[0].detail, { seconds: '86400', offsetSeconds: '86400', now: audit[0].detail.now })
  near(audit[0].detail.now, Date.now() + DAY_MS)
  assert.deepEqual(Object.keys(audit[1].detail).sort(), ['now', 'offsetSeconds', 'to'])
  assert.equal(audit[1].detail.to, to.toISOString())
  assert.equal(Number(audit[1].detail.offsetSeconds), r2.body.offsetSeconds)
  assert.match(page, /Clock advanced sandbox clock by 1 day; now 1 day ahead/)
  assert.match(page, /Clock advanced sandbox clock to .+?; now 2 days 3 hours (4|5) minutes ahead/)
  assert.deepEqual(await auditOf(other.siteId), [])
})

test('New bill counts from the site’s time: a deadline a day after real time is refused once the clock is two days on; the form says so', async () => {
  const site = await newSite('dash-clock-bill')
  const cookie = await signIn(site)
  assert.doesNotMatch(await textOf(cookie, '/dashboard/bills/new'), /sandbox clock/)
  assert.equal((await post(ADVANCE, { seconds: 2 * 86_400 }, asSession(cookie))).status, 200)
  const bill = (expires: number) => ({
    amount: { value: '10.00', currency: 'RUB' },
    expirationDateTime: new Date(expires).toISOString(),
    flags: ['SALE'],
  })

  const late = await post(
    `/dashboard/actions/bills/${crypto.randomUUID()}`,
    bill(Date.now() + DAY_MS),
    asSession(cookie),
  )
  assertError(late, 400, 'validation.error')
  assert.deepEqual(Object.keys(late.body.cause), ['expirationDateTime'])
  // the form shows the service's words, which name the site's time: two days ahead of the browser's clock
  const reading = /^must be in the future: the site's sandbox clock, advanced ahead of real time, reads (\S+)$/.exec(
    late.body.cause.expirationDateTime.join('; '),
  )
  assert.ok(reading, late.text)
  assert.match(reading[1], WIRE_TIME)
  assert.ok(Math.abs(Date.parse(reading[1]) - Date.now() - 2 * DAY_MS) < 60_000, reading[1])
  const billId = crypto.randomUUID()
  const onTime = await post(`/dashboard/actions/bills/${billId}`, bill(Date.now() + 3 * DAY_MS), asSession(cookie))
  assert.equal(onTime.status, 200, onTime.text)
  assert.equal((await client(site).get(`/bills/${billId}/details`)).body.status.value, 'CREATED')
  // the form's note under the deadline (its default, a day after the site's time, is the browser journey's)
  assert.match(
    await textOf(cookie, '/dashboard/bills/new'),
    /The site’s sandbox clock runs 2 days ahead of real time: the deadline counts from its time\./,
  )
})

test('not forward: zero, negative, not whole, neither or both fields, a `to` at or before the clock, past the limit — a 400 naming the field, the clock unmoved, nothing audited', async () => {
  const site = await newSite('dash-clock-refused')
  const cookie = await signIn(site)
  const refused = async (body: unknown, field: string) => {
    const r = await post(ADVANCE, body, asSession(cookie))
    assertError(r, 400, 'validation.error')
    assert.ok(r.body.cause?.[field]?.length, r.text)
    return r
  }
  assert.deepEqual((await refused({ seconds: 0 }, 'seconds')).body.cause.seconds, [
    'must be at least 1: the clock only moves forward',
  ])
  await refused({ seconds: -3600 }, 'seconds')
  await refused({ seconds: 1.5 }, 'seconds')
  await refused({ seconds: '60' }, 'seconds')
  await refused({}, 'seconds')
  await refused({ seconds: 60, to: new Date(Date.now() + DAY_MS).toISOString() }, 'seconds')
  await refused({ to: 'tomorrow' }, 'to')
  await refused({ to: new Date(Date.now() - 60_000).toISOString() }, 'to')
  await refused({ seconds: 3650 * 86_400 + 1 }, 'seconds')
  assert.equal((await apiClock(site)).offsetSeconds, 0)

  // a day on; then "to" an hour from real time is backwards for the site, and the limit counts the whole offset
  assert.equal((await post(ADVANCE, { seconds: 86_400 }, asSession(cookie))).status, 200)
  const back = await refused({ to: new Date(Date.now() + 3600_000).toISOString() }, 'to')
  assert.match(back.body.cause.to[0], /^must be later than the site's clock, now .+: the clock only moves forward$/)
  const tooFar = await refused({ seconds: 3650 * 86_400 }, 'seconds')
  assert.deepEqual(tooFar.body.cause.seconds, ["would take the site's clock more than 3650 days ahead of real time"])
  assert.equal((await apiClock(site)).offsetSeconds, 86_400)
  assert.deepEqual(
    (await auditOf(site.siteId)).map((a) => a.entry),
    [`${site.token.slice(0, 9)} clock sandbox clock: advanced`],
  )
})

test('without a session: 401; from another origin (or none): 403; a GET is 405; nothing moved', async () => {
  const site = await newSite('dash-clock-guard')
  const cookie = await signIn(site)
  const body = { seconds: 3600 }
  assertError(await post(ADVANCE, body), 401, 'auth.unauthorized')
  assertError(await post(ADVANCE, body, asSession('not-a-session')), 401, 'auth.unauthorized')
  for (const origin of [
    undefined,
    'http://evil.example',
    'null',
    ORIGIN.replace(/:\d+$/, (p) => `:${Number(p.slice(1)) + 1}`),
  ]) {
    const headers: Record<string, string> = { ...asSession(cookie), 'Content-Type': 'application/json' }
    if (origin) headers.Origin = origin
    assertError(await request('POST', ADVANCE, { rawBody: JSON.stringify(body), headers }), 403, 'auth.forbidden')
  }
  assertError(
    await post(ADVANCE, body, { ...asSession(cookie), 'Sec-Fetch-Site': 'cross-site' }),
    403,
    'auth.forbidden',
  )
  assertError(await post(ADVANCE, body, { ...asSession(cookie), 'Sec-Fetch-Site': 'same-site' }), 403, 'auth.forbidden')
  assertError(
    await request('GET', ADVANCE, { headers: { ...asSession(cookie), Origin: ORIGIN } }),
    405,
    'http.method.not.allowed',
  )
  // the site's API token is not a session
  assertError(
    await request('POST', ADVANCE, { body, token: site.token, headers: { Origin: ORIGIN } }),
    401,
    'auth.unauthorized',
  )
  assert.equal((await apiClock(site)).offsetSeconds, 0)
  assert.deepEqual(await auditOf(site.siteId), [])
})

test('SANDBOX_CLOCK=off: the action is a 404 with or without a session, the settings page has no clock, New bill is on real time', async () => {
  const off = await startInstance(Number(new URL(BASE_URL).port) + 145, {
    SANDBOX_CLOCK: 'off',
    SCHEDULER: 'off',
    NOTIFICATIONS_WORKER: 'off',
  })
  instances.push(off)
  const site = await newSite('dash-clock-off')
  const cookie = await signIn(site)
  // a clock moved while it was on: the switched-off instance ignores it
  assert.equal((await post(ADVANCE, { seconds: 86_400 }, asSession(cookie))).status, 200)
  const origin = { Origin: new URL(off.base).origin }
  for (const headers of [{ ...asSession(cookie), ...origin }, origin, {}]) {
    assertError(
      await request('POST', ADVANCE, { body: { seconds: 60 }, headers, base: off.base }),
      404,
      'payin.resource.not.found',
    )
    assertError(await request('GET', ADVANCE, { headers, base: off.base }), 404, 'payin.resource.not.found')
  }
  const page = await textOf(cookie, '/dashboard/settings', off.base)
  assert.match(page, /API tokens/)
  assert.doesNotMatch(page, /Sandbox clock|Site time|Advance/)
  // its audit log still lists the advance made while the clock was on (the log is history)
  assert.match(page, /Clock advanced sandbox clock by 1 day; now 1 day ahead/)
  assert.doesNotMatch(await textOf(cookie, '/dashboard/bills/new', off.base), /sandbox clock/)
  // nothing more was moved
  assert.equal((await apiClock(site)).offsetSeconds, 86_400)
})
