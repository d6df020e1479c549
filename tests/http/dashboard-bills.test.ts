// The dashboard's Bills over HTTP: "Create bill" (POST /dashboard/actions/bills/{billId}) makes the very
// bill the API reads, runs the API's own rules (the same refusals, in the contract's shape, writing
// nothing), creates one bill for a form sent twice; it needs the session and the service's own Origin;
// the pages show the site's bills only; each creation is in the audit log.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  BASE_URL,
  BILL_TIME,
  DAY_MS,
  assertErrorShape,
  assertValidation,
  client,
  fromNow,
  newSite,
  request,
  uid,
} from '../support/api.ts'
import { asSession, assertError, dashboardPage, post, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'

/** a bill as the New bill form sends it (the API's bill request: amount, deadline with an offset, …) */
const formBill = (over: Record<string, unknown> = {}) => ({
  amount: { value: '125.50', currency: 'RUB' },
  expirationDateTime: fromNow(DAY_MS).replace('Z', '+00:00'),
  comment: 'Order 42',
  flags: ['SALE'],
  successUrl: 'https://shop.example.com/ok',
  failedUrl: 'https://shop.example.com/fail',
  ...over,
})

const createPath = (billId: string) => `/dashboard/actions/bills/${billId}`
const billRows = (siteId: string) => sql(`SELECT "billId" FROM "Bill" WHERE "siteId" = $1`, [siteId])

test('Create bill makes the bill the API reads: amount, currency, status, payUrl, deadline', async () => {
  const site = await newSite('dash-bills')
  const value = await signIn(site)
  const billId = crypto.randomUUID()
  // the browser's offset travels with the deadline: +03:00 here, answered in the service's time zone
  const at = new Date(Date.now() + 2 * DAY_MS)
  at.setUTCMilliseconds(0)
  const local = new Date(at.getTime() + 3 * 3600_000).toISOString().slice(0, 19)
  const r = await post(createPath(billId), formBill({ expirationDateTime: `${local}+03:00` }), asSession(value))
  assert.equal(r.status, 200, r.text)
  assert.equal(r.body.billId, billId)
  assert.equal(r.body.status.value, 'CREATED')
  assert.match(r.body.expirationDateTime, BILL_TIME)
  assert.equal(Date.parse(r.body.expirationDateTime), at.getTime())

  const api = client(site)
  const details = await api.get(`/bills/${billId}/details`)
  assert.equal(details.status, 200, details.text)
  assert.deepEqual(details.body.amount, { value: '125.50', currency: 'RUB' })
  assert.equal(details.body.status.value, 'CREATED')
  assert.equal(details.body.payUrl, r.body.payUrl)
  assert.match(details.body.payUrl, /\/pay\/[0-9a-f-]{36}$/)
  assert.deepEqual(details.body.payments, [])
  // the API's replay of the same request answers the same bill: one rule for both ways in
  const replay = await api.put(`/bills/${billId}`, formBill({ expirationDateTime: `${local}+03:00` }))
  assert.equal(replay.status, 200, replay.text)
  assert.equal(replay.body.invoiceUid, r.body.invoiceUid)

  // the pages: listed, with its own page holding the payUrl and the QR code
  const list = await dashboardPage(value, '/dashboard/bills')
  assert.equal(list.status, 200)
  assert.ok((await list.text()).includes(billId))
  const page = await dashboardPage(value, `/dashboard/bills/${billId}`)
  assert.equal(page.status, 200)
  const html = await page.text()
  assert.ok(html.includes(r.body.payUrl))
  assert.match(html, /role="img" aria-label="QR code of the payment link"><svg/)
})

test('an open-amount bill: no value, the payer enters it', async () => {
  const site = await newSite('dash-bills')
  const value = await signIn(site)
  const billId = crypto.randomUUID()
  const r = await post(
    createPath(billId),
    formBill({ amount: { currency: 'EUR' }, comment: undefined, successUrl: undefined, failedUrl: undefined }),
    asSession(value),
  )
  assert.equal(r.status, 200, r.text)
  assert.deepEqual(r.body.amount, { currency: 'EUR' })
  const details = await client(site).get(`/bills/${billId}/details`)
  assert.deepEqual(details.body.amount, { currency: 'EUR' })
  assert.equal(details.body.status.value, 'CREATED')
  const list = await (await dashboardPage(value, '/dashboard/bills')).text()
  assert.ok(list.includes('Open amount'))
})

test('refusals: the API’s own causes, in the contract’s shape, and nothing written', async () => {
  const site = await newSite('dash-bills')
  const value = await signIn(site)
  const cases: [Record<string, unknown>, string][] = [
    [{ expirationDateTime: fromNow(46 * DAY_MS) }, 'expirationDateTime'],
    [{ expirationDateTime: fromNow(-60_000) }, 'expirationDateTime'],
    // no offset: the server does not guess the merchant's time zone
    [{ expirationDateTime: fromNow(DAY_MS).slice(0, 19) }, 'expirationDateTime'],
    [{ successUrl: 'ftp://shop.example.com/ok' }, 'successUrl'],
    [{ failedUrl: 'not a url' }, 'failedUrl'],
    [{ amount: { value: '0.00', currency: 'RUB' } }, 'amount.value'],
    [{ amount: { value: '1000000000.01', currency: 'RUB' } }, 'amount.value'],
    [{ amount: { value: '10.00', currency: 'XYZ' } }, 'amount.currency'],
  ]
  for (const [over, field] of cases) {
    const r = await post(createPath(crypto.randomUUID()), formBill(over), asSession(value))
    assertValidation(r, field)
  }
  assertError(
    await post('/dashboard/actions/bills/not%20an%20id', formBill(), asSession(value)),
    400,
    'validation.error',
  )
  assert.deepEqual(await billRows(site.siteId), [])
  assert.deepEqual(await sql(`SELECT id FROM "AuditEntry" WHERE "siteId" = $1`, [site.siteId]), [])
})

test('a form sent twice (same bill id) makes one bill; the same id with another bill is a conflict', async () => {
  const site = await newSite('dash-bills')
  const value = await signIn(site)
  const billId = crypto.randomUUID()
  const body = formBill()
  const [a, b] = await Promise.all([
    post(createPath(billId), body, asSession(value)),
    post(createPath(billId), body, asSession(value)),
  ])
  for (const r of [a, b]) assert.equal(r.status, 200, r.text)
  assert.equal(a.body.invoiceUid, b.body.invoiceUid)
  const later = await post(createPath(billId), body, asSession(value))
  assert.equal(later.status, 200, later.text)
  assert.equal(later.body.invoiceUid, a.body.invoiceUid)
  assert.equal((await billRows(site.siteId)).length, 1)
  assertErrorShape(
    await post(createPath(billId), formBill({ amount: { value: '1.00', currency: 'RUB' } }), asSession(value)),
    409,
    'payin.request.conflict',
  )
  assert.equal((await billRows(site.siteId)).length, 1)
})

test('no session: 401; another Origin, no Origin or a cross-site fetch: 403; nothing written', async () => {
  const site = await newSite('dash-bills')
  const value = await signIn(site)
  assertError(await post(createPath(crypto.randomUUID()), formBill()), 401, 'auth.unauthorized')
  assertError(
    await post(createPath(crypto.randomUUID()), formBill(), asSession('not-a-session')),
    401,
    'auth.unauthorized',
  )
  for (const origin of [undefined, 'http://evil.example', 'null']) {
    const headers: Record<string, string> = { ...asSession(value), 'Content-Type': 'application/json' }
    if (origin) headers.Origin = origin
    assertError(
      await request('POST', createPath(crypto.randomUUID()), { rawBody: JSON.stringify(formBill()), headers }),
      403,
      'auth.forbidden',
    )
  }
  assertError(
    await post(createPath(crypto.randomUUID()), formBill(), { ...asSession(value), 'Sec-Fetch-Site': 'cross-site' }),
    403,
    'auth.forbidden',
  )
  assert.deepEqual(await billRows(site.siteId), [])
  // the pages without a session: the sign-in page
  for (const path of ['/dashboard/bills', '/dashboard/bills/new', `/dashboard/bills/${uid('b')}`]) {
    const page = await fetch(`${BASE_URL}${path}`, { redirect: 'manual' })
    assert.ok([303, 307, 308].includes(page.status), `${path}: ${page.status}`)
    assert.equal(new URL(page.headers.get('location')!, BASE_URL).pathname, '/dashboard')
  }
})

test('another site’s bill: 404 page, not in the list; its id creates a bill of my own site', async () => {
  const mine = await newSite('dash-bills')
  const theirs = await newSite('dash-bills-theirs')
  const billId = uid('theirs')
  const made = await post(createPath(billId), formBill(), asSession(await signIn(theirs)))
  assert.equal(made.status, 200, made.text)
  const value = await signIn(mine)
  assert.equal((await dashboardPage(value, `/dashboard/bills/${billId}`)).status, 404)
  assert.equal((await dashboardPage(value, `/dashboard/bills/${uid('none')}`)).status, 404)
  assert.ok(!(await (await dashboardPage(value, '/dashboard/bills')).text()).includes(billId))
  // ids are per site: the same id in my site is my own new bill; theirs is untouched
  const own = await post(createPath(billId), formBill({ amount: { value: '7.00', currency: 'RUB' } }), asSession(value))
  assert.equal(own.status, 200, own.text)
  assert.notEqual(own.body.invoiceUid, made.body.invoiceUid)
  assert.deepEqual((await client(theirs).get(`/bills/${billId}/details`)).body.amount, {
    value: '125.50',
    currency: 'RUB',
  })
})

test('each Create bill is in the audit log: who, action "bill", the bill id, its status', async () => {
  const site = await newSite('dash-bills')
  const value = await signIn(site)
  const billId = crypto.randomUUID()
  assert.equal((await post(createPath(billId), formBill(), asSession(value))).status, 200)
  const audit = await sql(
    `SELECT actor, action, subject, outcome, "paymentRef", detail FROM "AuditEntry" WHERE "siteId" = $1`,
    [site.siteId],
  )
  assert.equal(audit.length, 1)
  assert.equal(audit[0].actor, site.token.slice(0, 9))
  assert.equal(audit[0].action, 'bill')
  assert.equal(audit[0].subject, billId)
  assert.equal(audit[0].outcome, 'CREATED')
  assert.equal(audit[0].paymentRef, null)
  assert.deepEqual(
    { amount: audit[0].detail.amount, currency: audit[0].detail.currency },
    { amount: '125.50', currency: 'RUB' },
  )
  // shown on the bill's page
  const html = await (await dashboardPage(value, `/dashboard/bills/${billId}`)).text()
  assert.ok(html.includes(site.token.slice(0, 9)))
})
