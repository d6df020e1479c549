// The dashboard's overview on the suite's real database, no HTTP between: its days are the time zone's calendar days
// on the site's sandbox clock. A payment ten seconds before local midnight and one five seconds after land on two
// days in Moscow's time and on one in UTC; a payment made 30 days before the site's today is left out, as is a
// notification made a second before the first day's midnight, while one made a second after counts.
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { closeDb } from '../../lib/db/client.ts'
import { addDays, localDay, OVERVIEW_DAYS, siteOverview } from '../../lib/dashboard/dashboard-overview.ts'
import { paymentRequestSchema } from '../../lib/payments/payment-request.ts'
import { createPayment } from '../../lib/payments/payment-service.ts'
import { advanceSiteClock } from '../../lib/sandbox/clock-advance.ts'
import { issueToken } from '../../lib/sites/site-tokens.ts'
import { cardPayment, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'

const MOSCOW = 'Europe/Moscow' // UTC+3 all year (no daylight saving since 2014)
const HOUR = 3600_000

/** a payment through the payment service, on the site's clock; its status */
async function pay(siteId: string, value: string, currency: string, pan = '4111111111111111') {
  const request = paymentRequestSchema.parse(cardPayment({ amount: { value, currency } }, { pan }))
  return (await createPayment(siteId, uid('ov'), request)).status.value
}

/** the instant a Moscow calendar day (YYYY-MM-DD) begins */
const moscowMidnight = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 3 * HOUR)

/** a notification row of the site in a state, made at `at` (nothing delivers it: the site has no notification URL) */
async function notification(siteId: string, state: string, at: Date) {
  // a pending one is due in a year: no worker of the suite takes it meanwhile
  const due = state === 'PENDING' ? new Date(Date.now() + 365 * 24 * HOUR) : at
  await sql(
    `INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt", "createdAt")
     VALUES (gen_random_uuid(), $1, 'PAYMENT', gen_random_uuid(), $2, 'COMPLETED', 'http://127.0.0.1:9/none', '{}', $3, $4, $5)`,
    [siteId, uid('n'), state, due, at],
  )
}

describe("the overview's days", () => {
  after(() => closeDb())

  test('a payment just before and just after local midnight lands on its own day; the range has 30 days', async () => {
    const siteId = uid('overview')
    await issueToken(siteId)
    // made on the site's day R: 30 days later, the range begins the day after it
    assert.equal(await pay(siteId, '7.00', 'RUB'), 'COMPLETED')
    const dayR = localDay(new Date(), MOSCOW)
    const lastDay = addDays(dayR, OVERVIEW_DAYS)
    const midnight = moscowMidnight(lastDay)
    await advanceSiteClock(siteId, { to: new Date(midnight.getTime() - 10_000) })
    assert.equal(await pay(siteId, '10.00', 'RUB'), 'COMPLETED')
    await advanceSiteClock(siteId, { to: new Date(midnight.getTime() + 5_000) })
    assert.equal(await pay(siteId, '25.50', 'RUB', '4000000000009995'), 'DECLINED')
    assert.equal(await pay(siteId, '5.00', 'EUR'), 'COMPLETED')
    assert.equal(await pay(siteId, '1.00', 'RUB', '4000000000000002'), 'DECLINED')

    // notifications on both sides of the first day's midnight
    const first = moscowMidnight(addDays(lastDay, -(OVERVIEW_DAYS - 1)))
    await notification(siteId, 'DELIVERED', new Date(first.getTime() - 1000))
    await notification(siteId, 'DELIVERED', new Date(first.getTime() + 1000))
    await notification(siteId, 'PENDING', new Date(midnight.getTime() + 1000))
    await notification(siteId, 'FAILED', new Date(midnight.getTime() + 2000))

    const o = await siteOverview(siteId, MOSCOW)
    assert.equal(o.last, lastDay)
    assert.equal(o.first, addDays(lastDay, -29))
    assert.equal(o.days.length, 30)
    assert.deepEqual(
      o.days.map((d) => d.day),
      Array.from({ length: 30 }, (_, i) => addDays(o.first, i)),
    )
    const [beforeMidnight, afterMidnight] = o.days.slice(-2)
    assert.deepEqual(beforeMidnight, { day: addDays(lastDay, -1), count: 1, paidMinor: { RUB: 1000n } })
    assert.deepEqual(afterMidnight, { day: lastDay, count: 3, paidMinor: { EUR: 500n } })
    // the payment of day R is outside the range: no other day has any
    assert.equal(
      o.days.slice(0, -2).reduce((n, d) => n + d.count, 0),
      0,
    )
    assert.deepEqual(o.payments, { total: 4, byStatus: { COMPLETED: 2, DECLINED: 2 } })
    assert.deepEqual(o.currencies, ['RUB', 'EUR'])
    assert.deepEqual(o.paidMinor, { RUB: 1000n, EUR: 500n })
    assert.equal(o.completedShare, 0.5)
    assert.deepEqual(o.reasons, [
      { reason: 'ACQUIRING_DECLINED', count: 1 },
      { reason: 'ACQUIRING_INSUFFICIENT_FUNDS', count: 1 },
    ])
    assert.equal(o.otherReasons, 0)
    assert.deepEqual(o.notifications, { DELIVERED: 1, PENDING: 1, FAILED: 1 })
    assert.equal(localDay(o.now, MOSCOW), lastDay)

    // in UTC the same four payments were made on one day (20:59:50 and 21:00:05 UTC), the range's last
    const utc = await siteOverview(siteId, 'UTC')
    assert.equal(utc.last, addDays(lastDay, -1))
    assert.deepEqual(utc.days.at(-1), { day: utc.last, count: 4, paidMinor: { RUB: 1000n, EUR: 500n } })
  })

  test('a site without payments: 30 empty days, no share, RUB alone', async () => {
    const siteId = uid('overview-empty')
    await issueToken(siteId)
    const o = await siteOverview(siteId, MOSCOW)
    assert.equal(o.days.length, 30)
    assert.ok(o.days.every((d) => d.count === 0 && Object.keys(d.paidMinor).length === 0))
    assert.deepEqual(o.currencies, ['RUB'])
    assert.equal(o.completedShare, null)
    assert.deepEqual(o.reasons, [])
    assert.deepEqual(o.notifications, { DELIVERED: 0, PENDING: 0, FAILED: 0 })
  })
})
