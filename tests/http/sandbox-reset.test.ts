// The sandbox reset (issue 16): one site's payments, bills, captures, refunds, payment tokens and
// notifications go, with its clock offset, in one transaction; its tokens and settings stay; another
// site's data is untouched. And SANDBOX_CLOCK=off: the clock and reset endpoints are absent (404 for every
// method) and every site runs on real time, whatever offset it had.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  assertErrorShape,
  BASE_URL,
  billRequest,
  cardPayment,
  client,
  newSite,
  rub,
  twoStepPayment,
  uid,
} from '../support/api.ts'
import { sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'

type Api = ReturnType<typeof client>
const port = Number(new URL(BASE_URL).port)

/** how many rows of the site each table holds */
async function countsOf(siteId: string) {
  const [row] = await sql(
    `SELECT (SELECT count(*) FROM "Payment" WHERE "siteId" = $1)::int AS payments,
            (SELECT count(*) FROM "Bill" WHERE "siteId" = $1)::int AS bills,
            (SELECT count(*) FROM "Capture" WHERE "siteId" = $1)::int AS captures,
            (SELECT count(*) FROM "Refund" WHERE "siteId" = $1)::int AS refunds,
            (SELECT count(*) FROM "PaymentToken" WHERE "siteId" = $1)::int AS tokens,
            (SELECT count(*) FROM "Notification" WHERE "siteId" = $1)::int AS notifications,
            (SELECT count(*) FROM "NotificationAttempt" a JOIN "Notification" n ON n.id = a."notificationRef" WHERE n."siteId" = $1)::int AS attempts`,
    [siteId],
  )
  return row as Record<string, number>
}

/**
 * a site with one of everything: a captured two-step payment, a refunded one, a bound token, a bill, notifications, an
 * advanced clock
 */
async function siteWithData(
  prefix: string,
): Promise<{ site: { siteId: string; token: string }; api: Api; ids: Record<string, string> }> {
  const site = await newSite(prefix)
  const api = client(site)
  // notifications need a URL: the site's, where nothing listens (on loopback: another test's worker may try it)
  await sql(`UPDATE "Site" SET "notifyUrl" = 'http://127.0.0.1:9/hook' WHERE id = $1`, [site.siteId])
  const ids: Record<string, string> = {
    held: uid('held'),
    sale: uid('sale'),
    bound: uid('bound'),
    bill: uid('bill'),
    capture: uid('cap'),
    refund: uid('ref'),
  }
  assert.equal((await api.put(`/payments/${ids.held}`, twoStepPayment())).body.status.value, 'COMPLETED')
  assert.equal((await api.put(`/payments/${ids.held}/captures/${ids.capture}`, {})).status, 200)
  assert.equal((await api.put(`/payments/${ids.sale}`, cardPayment())).body.status.value, 'COMPLETED')
  assert.equal((await api.put(`/payments/${ids.sale}/refunds/${ids.refund}`, { amount: rub('10.00') })).status, 200)
  const bound = await api.put(
    `/payments/${ids.bound}`,
    cardPayment({ flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customer: { account: 'acc-1' } }),
  )
  assert.ok(bound.body.createdToken?.token, bound.text)
  ids.token = bound.body.createdToken.token
  assert.equal((await api.put(`/bills/${ids.bill}`, billRequest())).status, 200)
  assert.equal((await api.post('/sandbox/clock/advance', { seconds: 86400 })).status, 200)
  return { site, api, ids }
}

describe('the sandbox reset', () => {
  let a: Awaited<ReturnType<typeof siteWithData>>
  let b: Awaited<ReturnType<typeof siteWithData>>
  before(async () => {
    // one after the other: newSite opens and closes its own database client
    a = await siteWithData('reset-a')
    b = await siteWithData('reset-b')
  })

  test('without the site id as confirmation nothing is deleted', async () => {
    const counts = await countsOf(a.site.siteId)
    for (const body of [
      {},
      { confirm: b.site.siteId },
      { confirm: a.site.siteId.toUpperCase() },
      { confirm: `${a.site.siteId} ` },
      { confirm: [a.site.siteId] },
      { confirm: null, siteId: a.site.siteId },
    ]) {
      const r = await a.api.post('/sandbox/reset', body)
      assertErrorShape(r, 400, 'validation.error')
    }
    // all there (delivery attempts aside: another test's worker may make more, never fewer)
    const { attempts, ...kept } = counts
    const { attempts: attemptsNow, ...now } = await countsOf(a.site.siteId)
    assert.deepEqual(now, kept)
    assert.ok(attemptsNow >= attempts, `${attemptsNow} attempts, ${attempts} before`)
    assert.equal((await a.api.get('/sandbox/clock')).body.offsetSeconds, 86400)
  })

  test("another site's token cannot reset it", async () => {
    const r = await fetch(`${BASE_URL}/api/sites/${a.site.siteId}/sandbox/reset`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${b.site.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ confirm: a.site.siteId }),
    })
    assert.equal(r.status, 403)
    assert.ok((await countsOf(a.site.siteId)).payments >= 3)
  })

  test("a reset deletes the site's data and clock offset, keeps its tokens and settings, and nothing of another site", async () => {
    const bBefore = await countsOf(b.site.siteId)
    const before = await countsOf(a.site.siteId)
    assert.ok(before.notifications >= 3, JSON.stringify(before))
    // an unknown field beside the confirmation is ignored, as in every request of the contract
    const r = await a.api.post('/sandbox/reset', { confirm: a.site.siteId, reason: 'next test run' })
    assert.equal(r.status, 200, r.text)
    assert.deepEqual(r.body.deleted, {
      payments: before.payments,
      bills: before.bills,
      captures: before.captures,
      refunds: before.refunds,
      notifications: before.notifications,
    })
    assert.equal(r.body.clock.offsetSeconds, 0)
    assert.deepEqual(await countsOf(a.site.siteId), {
      payments: 0,
      bills: 0,
      captures: 0,
      refunds: 0,
      tokens: 0,
      notifications: 0,
      attempts: 0,
    })

    // as the API sees it: gone, and the clock on real time; the same token still works (it is what asked)
    assertErrorShape(await a.api.get(`/payments/${a.ids.held}`), 404, 'payin.resource.not.found')
    assertErrorShape(await a.api.get(`/bills/${a.ids.bill}`), 404, 'payin.resource.not.found')
    assert.deepEqual((await a.api.get('/notifications')).body, [])
    assert.equal((await a.api.get('/sandbox/clock')).body.offsetSeconds, 0)
    // the settings stay
    const [settings] = await sql(`SELECT "notifyUrl" FROM "Site" WHERE id = $1`, [a.site.siteId])
    assert.equal(settings.notifyUrl, 'http://127.0.0.1:9/hook')
    // the deleted token charges nothing; the ids can be used again, afresh
    const byToken = await a.api.put(`/payments/${uid('tok')}`, {
      paymentMethod: { type: 'TOKEN', paymentToken: a.ids.token },
      amount: rub('5.00'),
      customer: { account: 'acc-1' },
      flags: ['SALE'],
    })
    assert.notEqual(byToken.body?.status?.value, 'COMPLETED', byToken.text)
    const again = await a.api.put(`/payments/${a.ids.held}`, cardPayment({ amount: rub('1.00') }))
    assert.equal(again.status, 200, again.text)
    assert.equal(again.body.amount.value, '1.00')

    // the other site: all there, its clock still a day ahead (delivery attempts aside: another test's worker may make
    // them)
    const { attempts: _before, ...bKept } = bBefore
    const { attempts: _after, ...bNow } = await countsOf(b.site.siteId)
    assert.deepEqual(bNow, bKept)
    assert.equal((await b.api.get(`/payments/${b.ids.held}`)).body.capturedAmount.value, '100.00')
    assert.equal((await b.api.get('/sandbox/clock')).body.offsetSeconds, 86400)
  })
})

describe('SANDBOX_CLOCK=off', () => {
  let off: Instance
  before(async () => {
    // no scheduler either: on the suite's database it would apply other sites' changes on real time, not on their
    // clocks
    off = await startInstance(port + 220, { SANDBOX_CLOCK: 'off', SCHEDULER: 'off' })
  })
  after(() => off?.kill())

  test('the clock and reset endpoints are absent, for every method, as an unknown path is', async () => {
    const site = await newSite('clock-off')
    const api = client(site, '/api', off.base)
    // the sandbox bank app's endpoints too, for a code that exists
    await client(site).put('/sbp/qrCodes/qr-off', {
      amount: { value: '1.00', currency: 'RUB' },
      qrCode: { type: 'DYNAMIC' },
    })
    const paths = [
      '/sandbox/clock',
      '/sandbox/clock/advance',
      '/sandbox/reset',
      '/sandbox/sbp/qr-off/pay',
      '/sandbox/sbp/qr-off/decline',
    ]
    for (const path of paths)
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']) {
        const r = await api.send(
          method,
          path,
          method === 'GET' || method === 'OPTIONS' ? {} : { body: { seconds: 60, confirm: site.siteId } },
        )
        assertErrorShape(r, 404, 'payin.resource.not.found')
      }
    // on the suite's server (on) they are there; the code was left unpaid
    assert.equal((await client(site).get('/sandbox/clock')).status, 200)
    assert.equal((await client(site).get('/sbp/qrCodes/qr-off')).body.qrCode.status, 'CREATED')
  })

  test('every site runs on real time, whatever offset it was given while on', async () => {
    const site = await newSite('clock-off-rt')
    const on = client(site)
    assert.equal((await on.post('/sandbox/clock/advance', { seconds: 30 * 86400 })).status, 200)
    const api = client(site, '/api', off.base)
    const r = await api.put(`/payments/${uid('p')}`, cardPayment())
    assert.ok(Math.abs(Date.parse(r.body.createdDateTime) - Date.now()) < 60_000, r.body.createdDateTime)
    // 50 real days ahead: past the window of real time (on the site's clock, 30 days on, it would be within it)
    const far = await api.put(
      `/bills/${uid('bill')}`,
      billRequest({ expirationDateTime: new Date(Date.now() + 50 * 86400_000).toISOString() }),
    )
    assert.deepEqual(far.body.cause?.expirationDateTime, ['must be at most 45 days ahead'], far.text)
  })
})
