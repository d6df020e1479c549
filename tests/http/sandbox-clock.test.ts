// The per-site sandbox clock and the sandbox reset (issue 16): every time rule of a site follows its own
// clock once advanced — recurrent minAuthDay and expiryDate, bill deadlines and the 45-day window, the
// 3-D Secure timeout, the mobile operator, card expiry, notification retries — and the changes that fell
// due are applied by the advance itself (seen in the database, before anyone reads the resource). Other
// sites keep real time. A reset deletes one site's data and nothing else. SANDBOX_CLOCK=off removes both.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  assertErrorShape,
  BASE_URL,
  billRequest,
  cardPayment,
  client,
  DAY_MS,
  fromNow,
  newSite,
  rub,
  uid,
} from '../support/api.ts'
import { freshDatabase, sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { objectOf, receiver } from '../support/notification-receiver.ts'
import { notifyTo, WORKER_ENV } from '../support/notify-site.ts'

type Api = ReturnType<typeof client>
const HOUR_MS = 3600_000
const port = Number(new URL(BASE_URL).port)

const clockOf = async (api: Api) => {
  const r = await api.get('/sandbox/clock')
  assert.equal(r.status, 200, r.text)
  return r.body as { now: string; offsetSeconds: number }
}
const advance = async (api: Api, body: unknown) => {
  const r = await api.post('/sandbox/clock/advance', body)
  assert.equal(r.status, 200, r.text)
  return r.body as { now: string; offsetSeconds: number }
}
/** the site's time is real time plus `offsetMs`, give or take the test's own pace */
function assertAhead(text: string, offsetMs: number) {
  const ahead = Date.parse(text) - Date.now()
  assert.ok(Math.abs(ahead - offsetMs) < 60_000, `${text} is ${ahead} ms ahead of real time, not ${offsetMs}`)
}
/** a payment's status as stored (what the scheduler wrote, whether or not anyone read it) */
const storedPayment = async (siteId: string, paymentId: string) =>
  (
    await sql(`SELECT status, "statusReason" AS reason FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2`, [
      siteId,
      paymentId,
    ])
  )[0]
const storedBillStatus = async (siteId: string, billId: string) =>
  (await sql(`SELECT status FROM "Bill" WHERE "siteId" = $1 AND "billId" = $2`, [siteId, billId]))[0]?.status

/** `read` again until `done` holds for its value (a deadline, not a sleep, decides) */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await read()
    if (done(v) || Date.now() > deadline) return v
    await new Promise((r) => setTimeout(r, 50))
  }
}

const THREE_DS_CARD = '4000000000003220'

describe('the sandbox clock', () => {
  let site: { siteId: string; token: string }
  let api: Api
  let other: Api
  let otherSite: { siteId: string; token: string }
  before(async () => {
    site = await newSite('clock')
    api = client(site)
    otherSite = await newSite('clock-other')
    other = client(otherSite)
  })

  test('a new site runs on real time; an advance moves its clock and the next read shows it', async () => {
    const start = await clockOf(api)
    assert.equal(start.offsetSeconds, 0)
    assertAhead(start.now, 0)
    const moved = await advance(api, { seconds: 3600 })
    assert.equal(moved.offsetSeconds, 3600)
    assertAhead(moved.now, HOUR_MS)
    const read = await clockOf(api)
    assert.equal(read.offsetSeconds, 3600)
    assert.ok(Date.parse(read.now) >= Date.parse(moved.now))
    // to a date-time: the clock shows it
    const target = new Date(Date.now() + 2 * HOUR_MS)
    const to = await advance(api, { to: target.toISOString() })
    assert.ok(Math.abs(Date.parse(to.now) - target.getTime()) < 1000, `${to.now} is not ${target.toISOString()}`)
    assert.ok(Math.abs(to.offsetSeconds - 7200) < 60)
    // two advances at once add up
    const before = (await clockOf(api)).offsetSeconds
    await Promise.all([advance(api, { seconds: 60 }), advance(api, { seconds: 60 })])
    assert.equal((await clockOf(api)).offsetSeconds, before + 120)
    // another site's clock has not moved
    assert.equal((await clockOf(other)).offsetSeconds, 0)
  })

  test('the clock never goes back: backwards, zero, malformed and too far are 400, and nothing moves', async () => {
    const { offsetSeconds } = await clockOf(api)
    const refusals: [unknown, string][] = [
      [{ to: new Date(Date.now() + 10 * 60_000).toISOString() }, 'to'], // before the site's clock (2 h ahead)
      [{ to: new Date(Date.now() - DAY_MS).toISOString() }, 'to'],
      [{ to: '2026-13-01T00:00:00Z' }, 'to'],
      [{ to: '2030-01-01T00:00:00' }, 'to'], // no offset
      [{ seconds: 0 }, 'seconds'],
      [{ seconds: -60 }, 'seconds'],
      [{ seconds: 1.5 }, 'seconds'],
      [{ seconds: '60' }, 'seconds'],
      [{}, 'seconds'],
      [{ seconds: 60, to: new Date(Date.now() + 3 * DAY_MS).toISOString() }, 'seconds'],
      [{ seconds: 3650 * 86400 }, 'seconds'], // more than ten years ahead with the offset it has
      [{ to: new Date(Date.now() + 3651 * DAY_MS).toISOString() }, 'to'],
      [{ days: 1 }, 'seconds'], // an unknown field is ignored (the contract): neither seconds nor to
    ]
    for (const [body, field] of refusals) {
      const r = await api.post('/sandbox/clock/advance', body)
      assertErrorShape(r, 400, 'validation.error')
      assert.ok(r.body.cause?.[field], `${JSON.stringify(body)}: ${r.text}`)
    }
    assert.equal((await clockOf(api)).offsetSeconds, offsetSeconds)
    // unknown fields are ignored, as in every request of the contract
    const extra = await api.post('/sandbox/clock/advance', { seconds: 60, unit: 'days', note: 'ignored' })
    assert.equal(extra.status, 200, extra.text)
    assert.equal(extra.body.offsetSeconds, offsetSeconds + 60)
    // a time before the clock: the refusal tells the site's time, written as the API writes times
    const back = await api.post('/sandbox/clock/advance', { to: new Date(Date.now() + 10 * 60_000).toISOString() })
    const siteNow = (await clockOf(api)).now
    const told = /^must be later than the site's clock, now (\S+): the clock only moves forward$/.exec(
      back.body.cause.to[0],
    )
    assert.ok(told, back.text)
    assert.equal(told[1].length, siteNow.length, `${told[1]} is written as ${siteNow} is`)
    assert.equal(told[1].slice(-6), siteNow.slice(-6))
    assert.ok(
      Math.abs(Date.parse(told[1]) - Date.parse(siteNow)) < 60_000,
      `${told[1]} is the site's time (${siteNow})`,
    )
  })

  test("only the site's own token moves or reads its clock", async () => {
    const r = await request401()
    assert.equal(r.status, 401)
    const cross = await fetch(`${BASE_URL}/api/sites/${site.siteId}/sandbox/clock/advance`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${otherSite.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ seconds: 60 }),
    })
    assert.equal(cross.status, 403)
    const read = await fetch(`${BASE_URL}/api/sites/${site.siteId}/sandbox/clock`, {
      headers: { Authorization: `Bearer ${otherSite.token}` },
    })
    assert.equal(read.status, 403)
    assert.equal((await clockOf(client(otherSite))).offsetSeconds, 0)
    async function request401() {
      return fetch(`${BASE_URL}/api/sites/${site.siteId}/sandbox/clock/advance`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"seconds":60}',
      })
    }
  })
})

describe('time rules on an advanced clock', () => {
  test('a recurrent series: charged again after advancing minAuthDay days, RECURRENT_EXPIRED past its expiryDate', async () => {
    const api = client(await newSite('clock-rec'))
    const firstId = uid('first')
    const expiryDate = new Date(Date.now() + 10 * DAY_MS).toISOString().slice(0, 10)
    const first = await api.put(
      `/payments/${firstId}`,
      cardPayment({ flags: ['SALE', 'RECURRENT_FIRST'], recurrent: { minAuthDay: 3, expiryDate } }),
    )
    assert.equal(first.body.status.value, 'COMPLETED', first.text)
    const charge = {
      paymentMethod: { type: 'RECURRENT', firstPaymentId: firstId },
      amount: rub('10.00'),
      flags: ['SALE'],
    }
    const early = await api.put(`/payments/${uid('rc')}`, charge)
    assert.equal(early.body.status.reason, 'REATTEMPT_NOT_PERMITTED', early.text)

    await advance(api, { seconds: 3 * 86400 })
    const due = await api.put(`/payments/${uid('rc')}`, charge)
    assert.equal(due.body.status.value, 'COMPLETED', due.text)
    // dated on the site's clock
    assertAhead(due.body.createdDateTime, 3 * DAY_MS)
    assertAhead(due.body.status.changedDateTime, 3 * DAY_MS)
    // the period counts again from that charge
    assert.equal((await api.put(`/payments/${uid('rc')}`, charge)).body.status.reason, 'REATTEMPT_NOT_PERMITTED')

    await advance(api, { seconds: 8 * 86400 })
    const late = await api.put(`/payments/${uid('rc')}`, charge)
    assert.equal(late.body.status.value, 'DECLINED')
    assert.equal(late.body.status.reason, 'RECURRENT_EXPIRED')
    // a new series must end after the site's date too
    const stale = await api.put(
      `/payments/${uid('first')}`,
      cardPayment({ flags: ['SALE', 'RECURRENT_FIRST'], recurrent: { minAuthDay: 1, expiryDate } }),
    )
    assertErrorShape(stale, 400, 'validation.error')
    assert.ok(stale.body.cause['recurrent.expiryDate'])
  })

  test('a 3-D Secure payment left waiting is declined PAYMENT_EXPIRED_3DS after advancing 16 minutes, by the advance itself', async () => {
    const s = await newSite('clock-3ds')
    const api = client(s)
    const paymentId = uid('p3ds')
    const r = await api.put(`/payments/${paymentId}`, cardPayment({}, { pan: THREE_DS_CARD }))
    assert.equal(r.body.status.value, 'WAITING', r.text)
    await advance(api, { seconds: 16 * 60 })
    // applied before anyone read the payment
    assert.deepEqual(await storedPayment(s.siteId, paymentId), { status: 'DECLINED', reason: 'PAYMENT_EXPIRED_3DS' })
    const read = await api.get(`/payments/${paymentId}`)
    assert.equal(read.body.status.reason, 'PAYMENT_EXPIRED_3DS')
    // dated when it fell due: 15 minutes after it was created
    assert.equal(Date.parse(read.body.status.changedDateTime) - Date.parse(read.body.createdDateTime), 15 * 60_000)
  })

  test("the mobile operator answers on the site's clock", async () => {
    const s = await newSite('clock-mob')
    const api = client(s)
    const paymentId = uid('mob')
    const r = await api.put(`/payments/${paymentId}`, {
      paymentMethod: { type: 'MOBILE', phone: '79001230000' },
      amount: rub('5.00'),
      flags: ['SALE'],
    })
    assert.equal(r.body.status.value, 'WAITING', r.text)
    // the suite's server answers after 1.5 s: an advance of 2 s applies it at once
    await advance(api, { seconds: 2 })
    assert.deepEqual(await storedPayment(s.siteId, paymentId), { status: 'COMPLETED', reason: null })
  })

  test("a bill expires by the advance, its waiting payment declined first; the 45-day window and card expiry follow the site's date", async () => {
    const s = await newSite('clock-bill')
    const api = client(s)
    const billId = uid('bill')
    const bill = await api.put(`/bills/${billId}`, billRequest({ expirationDateTime: fromNow(2 * HOUR_MS) }))
    assert.equal(bill.body.status.value, 'CREATED', bill.text)
    const paymentId = uid('p3ds')
    const waiting = await api.put(
      `/payments/${paymentId}`,
      cardPayment({ billId, amount: rub('3.00') }, { pan: THREE_DS_CARD }),
    )
    assert.equal(waiting.body.status.value, 'WAITING', waiting.text)

    await advance(api, { seconds: 3 * 3600 })
    assert.equal(await storedBillStatus(s.siteId, billId), 'EXPIRED')
    assert.deepEqual(await storedPayment(s.siteId, paymentId), { status: 'DECLINED', reason: 'PAYMENT_EXPIRED_3DS' })
    const read = await api.get(`/bills/${billId}/details`)
    assert.equal(read.body.status.value, 'EXPIRED')
    assert.equal(read.body.status.changedDateTime, read.body.expirationDateTime)

    // 30 days on: a deadline 10 real days ahead is in the site's past; 50 real days ahead is within its 45 days
    await advance(api, { seconds: 30 * 86400 })
    const past = await api.put(`/bills/${uid('bill')}`, billRequest({ expirationDateTime: fromNow(10 * DAY_MS) }))
    assertErrorShape(past, 400, 'validation.error')
    // the refusal names the site's time, which the client's own clock does not show
    const [refusal] = past.body.cause.expirationDateTime
    const reading = /^must be in the future: the site's sandbox clock, advanced ahead of real time, reads (\S+)$/.exec(
      refusal,
    )
    assert.ok(reading, refusal)
    assertAhead(reading[1], 30 * DAY_MS + 3 * HOUR_MS)
    const far = await api.put(`/bills/${uid('bill')}`, billRequest({ expirationDateTime: fromNow(50 * DAY_MS) }))
    assert.equal(far.status, 200, far.text)
    assertAhead(far.body.creationDateTime, 30 * DAY_MS + 3 * HOUR_MS)
    // another site keeps real time: 50 days is past its window
    const real = await client(await newSite('clock-real')).put(
      `/bills/${uid('bill')}`,
      billRequest({ expirationDateTime: fromNow(50 * DAY_MS) }),
    )
    assert.deepEqual(real.body.cause?.expirationDateTime, ['must be at most 45 days ahead'], real.text)

    // a card valid this real month is expired on a clock years ahead (a token or a series of it alike)
    const expiry = new Date(Date.now() + 60 * DAY_MS)
    const mmYY = `${String(expiry.getUTCMonth() + 1).padStart(2, '0')}/${String(expiry.getUTCFullYear() % 100).padStart(2, '0')}`
    const onReal = await client(await newSite('clock-card')).put(
      `/payments/${uid('card')}`,
      cardPayment({}, { expiryDate: mmYY }),
    )
    assert.equal(onReal.body.status.value, 'COMPLETED', onReal.text)
    await advance(api, { seconds: 60 * 86400 })
    const expired = await api.put(`/payments/${uid('card')}`, cardPayment({}, { expiryDate: mmYY }))
    assert.equal(expired.body.status.value, 'DECLINED', expired.text)
    assert.equal(expired.body.status.reason, 'ACQUIRING_EXPIRED_CARD')
  })

  test("advancing one site's clock changes nothing of another site", async () => {
    const a = client(await newSite('clock-a'))
    const bSite = await newSite('clock-b')
    const b = client(bSite)
    const paymentId = uid('p3ds')
    assert.equal(
      (await b.put(`/payments/${paymentId}`, cardPayment({}, { pan: THREE_DS_CARD }))).body.status.value,
      'WAITING',
    )
    const billId = uid('bill')
    assert.equal((await b.put(`/bills/${billId}`, billRequest({ expirationDateTime: fromNow(HOUR_MS) }))).status, 200)
    await advance(a, { seconds: 10 * 86400 })
    assert.deepEqual(await storedPayment(bSite.siteId, paymentId), { status: 'WAITING', reason: null })
    assert.equal((await b.get(`/payments/${paymentId}`)).body.status.value, 'WAITING')
    assert.equal((await b.get(`/bills/${billId}/details`)).body.status.value, 'CREATED')
    assert.equal((await clockOf(b)).offsetSeconds, 0)
    const fresh = await b.put(`/payments/${uid('p')}`, cardPayment())
    assertAhead(fresh.body.createdDateTime, 0)
  })
})

describe('notification retries on the site clock', () => {
  const rx = receiver()
  let worker: Instance
  let hook: string
  let suiteUrl: string | undefined
  before(async () => {
    hook = await rx.start()
    // a database of its own: another test file's delivery worker (retrying after 300 ms) must not take
    // this site's notifications
    suiteUrl = process.env.DATABASE_URL
    process.env.DATABASE_URL = await freshDatabase('payin_clock_notify')
    // retries an hour apart: in real time the test would wait hours
    worker = await startInstance(port + 210, {
      ...WORKER_ENV,
      DATABASE_URL: process.env.DATABASE_URL,
      NOTIFY_RETRY_DELAYS_MS: '3600000,3600000,3600000',
    })
  })
  after(async () => {
    worker?.kill()
    await worker?.exited
    process.env.DATABASE_URL = suiteUrl
    rx.close()
  })

  test('a failed notification is posted again when the clock reaches its next attempt, and its times are the site’s', async () => {
    const site = await newSite('clock-notify')
    const path = `/fail-twice-${site.siteId}`
    await notifyTo(site.siteId, `${hook}${path}`)
    const api = client(site, '/api', worker.base)
    const paymentId = uid('p')
    assert.equal((await api.put(`/payments/${paymentId}`, cardPayment())).body.status.value, 'COMPLETED')
    await rx.waitFor(() => rx.forPath(path).length === 1)
    const listed = async () => {
      const r = await api.get('/notifications')
      assert.equal(r.status, 200, r.text)
      return r.body[0]
    }
    // the first attempt is recorded once the receiver's 500 is in
    let n = await until(listed, (x) => x.attempts >= 1)
    assert.equal(n.attempts, 1)
    assert.equal(n.state, 'PENDING')
    assert.ok(
      Date.parse(n.nextAttemptDateTime) - Date.now() > 50 * 60_000,
      `next attempt ${n.nextAttemptDateTime} is an hour away`,
    )

    await advance(api, { seconds: 3600 })
    await rx.waitFor(() => rx.forPath(path).length === 2)
    await advance(api, { seconds: 3600 })
    await rx.waitFor(() => rx.forPath(path).length === 3)
    // the third attempt got its 200
    n = await until(listed, (x) => x.state === 'DELIVERED')
    assert.equal(n.state, 'DELIVERED')
    assert.equal(n.attempts, 3)
    assertAhead(n.deliveredDateTime, 2 * HOUR_MS)
    assert.equal(objectOf(rx.forPath(path)[2].body).paymentId, paymentId)
  })
})
