// The overview's figures are kept per UTC hour as payments and notifications are written (migration payment_stats,
// lib/db/hour-stats.ts). Whatever the zone (on the hour, the half hour or the quarter hour), before and after the
// scheduler folds the changes, while writes and two folds run at once, and after a payment changes status or a
// reset deletes everything, they must equal what a count of the rows themselves gives.
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { closeDb } from '../../lib/db/client.ts'
import { localDay, siteOverview, type Overview } from '../../lib/dashboard/dashboard-overview.ts'
import { foldPaymentStats } from '../../lib/payments/payment-stats-store.ts'
import { paymentRequestSchema } from '../../lib/payments/payment-request.ts'
import { createPayment } from '../../lib/payments/payment-service.ts'
import { advanceSiteClock } from '../../lib/sandbox/clock-advance.ts'
import { resetSandbox } from '../../lib/sandbox/sandbox-reset.ts'
import { foldOverviewFigures } from '../../lib/scheduler/time-driven-changes.ts'
import { issueToken } from '../../lib/sites/site-tokens.ts'
import { cardPayment, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'

const ZONES = ['Europe/Moscow', 'Asia/Kolkata', 'Asia/Kathmandu', 'UTC'] // +3, +5:30, +5:45, 0
const HOUR = 3600_000
const DECLINING = '4000000000009995'
const THREE_DS = '4000000000003220'

async function pay(siteId: string, value: string, currency = 'RUB', pan = '4111111111111111') {
  const request = paymentRequestSchema.parse(cardPayment({ amount: { value, currency } }, { pan }))
  return (await createPayment(siteId, uid('of'), request)).status.value
}

/** a notification row of the site in a state, made at `at` (the site has no notification URL: nothing delivers it) */
async function notification(siteId: string, state: string, at: Date): Promise<string> {
  // a pending one is due in a year: no worker of the suite takes it meanwhile
  const due = state === 'PENDING' ? new Date(Date.now() + 365 * 24 * HOUR) : at
  const [row] = await sql<{ id: string }>(
    `INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt", "createdAt")
     VALUES (gen_random_uuid(), $1, 'PAYMENT', gen_random_uuid(), $2, 'COMPLETED', 'http://127.0.0.1:9/none', '{}', $3, $4, $5)
     RETURNING id`,
    [siteId, uid('n'), state, due, at],
  )
  return row.id
}

/** the instant a zone's calendar day (YYYY-MM-DD) begins, as PostgreSQL reckons it */
async function midnight(day: string, timeZone: string): Promise<Date> {
  const [row] = await sql<{ at: Date }>(`SELECT ($1::date::timestamp AT TIME ZONE $2) AS at`, [day, timeZone])
  return row.at
}

/** what the overview must say, counted from the site's payments themselves over the overview's own days */
async function countedFromRows(siteId: string, o: Overview) {
  const rows = await sql<{
    day: string
    currency: string
    status: string
    reason: string | null
    n: number
    sum: string
  }>(
    `SELECT to_char(("createdAt" AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS day, currency, status,
            "statusReason" AS reason, count(*)::int AS n, sum("amountMinor")::text AS sum
     FROM "Payment" WHERE "siteId" = $1 AND ("createdAt" AT TIME ZONE $2)::date BETWEEN $3::date AND $4::date
     GROUP BY 1, 2, 3, 4`,
    [siteId, o.timeZone, o.first, o.last],
  )
  const days = new Map(o.days.map((d) => [d.day, { day: d.day, count: 0, paidMinor: {} as Record<string, bigint> }]))
  const byStatus: Record<string, number> = {}
  const reasons: Record<string, number> = {}
  for (const r of rows) {
    const d = days.get(r.day)!
    d.count += r.n
    byStatus[r.status] = (byStatus[r.status] ?? 0) + r.n
    if (r.status === 'COMPLETED') d.paidMinor[r.currency] = (d.paidMinor[r.currency] ?? 0n) + BigInt(r.sum)
    if (r.status === 'DECLINED' && r.reason) reasons[r.reason] = (reasons[r.reason] ?? 0) + r.n
  }
  return { days: [...days.values()], byStatus, reasons }
}

/** asserts that the overview in every zone says what the rows say */
async function assertFiguresMatchRows(siteId: string, when: string) {
  for (const zone of ZONES) {
    const o = await siteOverview(siteId, zone)
    const expected = await countedFromRows(siteId, o)
    assert.deepEqual(o.days, expected.days, `${when}, ${zone}: the days`)
    assert.deepEqual(o.payments.byStatus, expected.byStatus, `${when}, ${zone}: by status`)
    assert.deepEqual(
      Object.fromEntries(o.reasons.map((r) => [r.reason, r.count])),
      expected.reasons,
      `${when}, ${zone}: the reasons`,
    )
  }
}

/**
 * every change of the site folded: the suite's server folds too (its scheduler), and a fold skips the changes
 * another holds, so fold until none of the site's is left
 */
async function foldAll(siteId: string) {
  for (let i = 0; (await changesOf(siteId)) > 0; i++) {
    assert.ok(i < 1000, 'the changes get folded')
    await foldOverviewFigures()
  }
}

const changesOf = async (siteId: string) =>
  (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "PaymentStatChange" WHERE "siteId" = $1`, [siteId]))[0].n
const statRowsOf = async (siteId: string) =>
  (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "PaymentStat" WHERE "siteId" = $1`, [siteId]))[0].n

describe("the overview's figures", () => {
  after(() => closeDb())

  test('equal the payments themselves around midnights on the hour, the half and the quarter hour', async () => {
    const siteId = uid('figures')
    await issueToken(siteId)
    // the midnight two days on in each zone (Kathmandu's comes first, then Kolkata's, Moscow's, UTC's), a payment just
    // before and just after each, of mixed outcomes and currencies
    const day = localDay(new Date(Date.now() + 48 * HOUR), 'UTC')
    const midnights = (await Promise.all(ZONES.map((z) => midnight(day, z)))).sort((a, b) => +a - +b)
    for (const [i, m] of midnights.entries()) {
      await advanceSiteClock(siteId, { to: new Date(m.getTime() - 10_000) })
      assert.equal(await pay(siteId, `${10 + i}.00`), 'COMPLETED')
      assert.equal(await pay(siteId, '3.00', 'RUB', DECLINING), 'DECLINED')
      await advanceSiteClock(siteId, { to: new Date(m.getTime() + 5_000) })
      assert.equal(await pay(siteId, `${20 + i}.50`, i % 2 ? 'EUR' : 'RUB'), 'COMPLETED')
    }
    // a 3-D Secure payment left to expire: WAITING, then DECLINED by the scheduler (an update moves it between groups)
    assert.equal(await pay(siteId, '7.00', 'RUB', THREE_DS), 'WAITING')
    await assertFiguresMatchRows(siteId, 'unfolded, one waiting')
    await advanceSiteClock(siteId, { seconds: 16 * 60 })
    const [expired] = await sql(`SELECT status FROM "Payment" WHERE "siteId" = $1 AND "amountMinor" = 700`, [siteId])
    assert.equal(expired.status, 'DECLINED')
    await assertFiguresMatchRows(siteId, 'unfolded, expired')

    await foldAll(siteId)
    assert.ok((await statRowsOf(siteId)) > 0)
    await assertFiguresMatchRows(siteId, 'folded')
    const o = await siteOverview(siteId, 'Asia/Kolkata')
    assert.equal(o.payments.total, 13)
    assert.equal(o.payments.byStatus.WAITING, undefined, 'the waiting payment counted once, as declined')

    // a reset deletes every payment: the figures say none, and the fold leaves no row of the site
    await resetSandbox(siteId)
    await assertFiguresMatchRows(siteId, 'reset, unfolded')
    await foldAll(siteId)
    assert.equal(await statRowsOf(siteId), 0, 'the emptied rows are removed')
    assert.equal((await siteOverview(siteId, 'Europe/Moscow')).payments.total, 0)
  })

  test('leave out what was made a moment before the first local midnight of a zone off the hour', async () => {
    const siteId = uid('figures-edge')
    await issueToken(siteId)
    const kolkata = 'Asia/Kolkata'
    const day = localDay(new Date(Date.now() + 48 * HOUR), 'UTC')
    const m = await midnight(day, kolkata)
    const before = new Date(m.getTime() - 5_000)
    const after = new Date(m.getTime() + 5_000)
    await advanceSiteClock(siteId, { to: before })
    assert.equal(await pay(siteId, '3.00', 'RUB', DECLINING), 'DECLINED')
    await notification(siteId, 'FAILED', before)
    await advanceSiteClock(siteId, { to: after })
    assert.equal(await pay(siteId, '4.00', 'RUB', '4000000000000002'), 'DECLINED')
    const late = await notification(siteId, 'PENDING', after)
    // 29 days on, at noon: `day` is the range's first day
    await advanceSiteClock(siteId, { to: new Date(m.getTime() + 29 * 24 * HOUR + 12 * HOUR) })
    const check = async (when: string, notifications: Record<string, number>) => {
      const o = await siteOverview(siteId, kolkata)
      assert.equal(o.first, day, when)
      assert.deepEqual(o.payments, { total: 1, byStatus: { DECLINED: 1 } }, `${when}: the payments`)
      assert.deepEqual(o.reasons, [{ reason: 'ACQUIRING_DECLINED', count: 1 }], `${when}: the reasons`)
      assert.equal(o.otherReasons, 0, when)
      assert.deepEqual(o.notifications, notifications, `${when}: the notifications`)
      await assertFiguresMatchRows(siteId, when)
    }
    await check('unfolded', { DELIVERED: 0, PENDING: 1, FAILED: 0 })
    // delivered: the notification moves from one state's count to the other's
    await sql(`UPDATE "Notification" SET state = 'DELIVERED' WHERE id = $1`, [late])
    await check('delivered, unfolded', { DELIVERED: 1, PENDING: 0, FAILED: 0 })
    await foldAll(siteId)
    await check('folded', { DELIVERED: 1, PENDING: 0, FAILED: 0 })
  })

  test('count each payment once while payments are made and two folds run at once', async () => {
    const siteId = uid('figures-race')
    await issueToken(siteId)
    // the suite's server folds too (its scheduler, about once a second) and may take a round's changes before the
    // test's folds do: a round is repeated until they take some, and the figures must count every round's payments
    const ROUNDS = 5
    let writing = true
    // two folders taking a few changes at a time, as two instances' schedulers would, until the writes are done
    const folder = async () => {
      let folded = 0
      while (writing) folded += await foldPaymentStats(3)
      return folded
    }
    let rounds = 0
    for (let folded = 0; folded === 0;) {
      assert.ok(rounds++ < ROUNDS, `the folds took changes while the payments were made, in one of ${ROUNDS} rounds`)
      writing = true
      const folds = [folder(), folder()]
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => pay(siteId, `${i + 1}.00`, 'RUB', i % 4 ? '4111111111111111' : DECLINING)),
      )
      writing = false
      folded = (await Promise.all(folds)).reduce((a, b) => a + b, 0)
      assert.equal(outcomes.filter((s) => s === 'COMPLETED').length, 30)
    }
    await foldAll(siteId)
    const o = await siteOverview(siteId, 'Europe/Moscow')
    assert.deepEqual(o.payments, { total: 40 * rounds, byStatus: { COMPLETED: 30 * rounds, DECLINED: 10 * rounds } })
    // 1 + 2 + ... + 40 roubles, less the declined 1, 5, 9, ..., 37, per round
    const paid = 820 - Array.from({ length: 10 }, (_, i) => 4 * i + 1).reduce((a, b) => a + b, 0)
    assert.deepEqual(o.paidMinor, { RUB: BigInt(paid * 100 * rounds) })
    await assertFiguresMatchRows(siteId, 'after the race')

    // 20 more, not folded; then a reader sees the same figures at every moment while two folds take them one by one
    // (again a round is repeated while the server's scheduler takes them all first)
    const want = { total: 40 * rounds, byStatus: { COMPLETED: 30 * rounds, DECLINED: 10 * rounds } }
    let folding = true
    const oneByOne = async () => {
      let taken = 0
      while ((await foldPaymentStats(1)) > 0) taken++
      return taken
    }
    const reader = async () => {
      let reads = 0
      while (folding) {
        assert.deepEqual((await siteOverview(siteId, 'Europe/Moscow')).payments, want, `read ${++reads}`)
      }
      return reads
    }
    for (let round = 1, taken = 0; taken === 0; round++) {
      assert.ok(round <= ROUNDS, `the folds took changes while a reader read, in one of ${ROUNDS} rounds`)
      for (let i = 0; i < 20; i++) assert.equal(await pay(siteId, '1.00'), 'COMPLETED')
      want.total += 20
      want.byStatus.COMPLETED += 20
      const unfolded = await changesOf(siteId)
      folding = true
      const reading = reader()
      const took = (await Promise.all([oneByOne(), oneByOne()])).reduce((a, b) => a + b, 0)
      folding = false
      assert.ok((await reading) > 0)
      if (unfolded > 0) taken = took
    }
    await foldAll(siteId)
    assert.deepEqual((await siteOverview(siteId, 'Europe/Moscow')).payments, want)
  })
})
