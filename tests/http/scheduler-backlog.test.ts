// The scheduler against a backlog (found in review of dueOnSiteClock): many changes falling due at once —
// an instance that was down, a burst of abandoned 3-D Secure challenges 15 minutes after a load test —
// must be applied with work per change that does not grow with the backlog, or the contract's "within
// 5 s of its due time" is lost in proportion to the backlog's square. The work is counted in the rows
// of "Payment" that PostgreSQL reads (its statistics: deterministic, unlike a timing), on a database of
// the test's own, where only this test's instance runs.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { BASE_URL, cardPayment, client, newSite, uid } from '../support/api.ts'
import { freshDatabase, sql, tableStats, until } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'

const port = Number(new URL(BASE_URL).port)
const DATABASE = 'payin_scheduler_backlog'
const BACKLOG = 600

describe('the scheduler and a backlog of due changes', () => {
  let instance: Instance
  let suiteUrl: string | undefined
  before(async () => {
    suiteUrl = process.env.DATABASE_URL
    process.env.DATABASE_URL = await freshDatabase(DATABASE)
    instance = await startInstance(port + 240, {
      DATABASE_URL: process.env.DATABASE_URL,
      SCHEDULER_POLL_MS: '200',
      NOTIFICATIONS_WORKER: 'off',
      RATE_LIMIT_PER_MINUTE: '0',
    })
  })
  after(async () => {
    instance?.kill()
    await instance?.exited
    process.env.DATABASE_URL = suiteUrl
  })

  test(`${BACKLOG} 3-D Secure expiries due at once: each applied reading a bounded number of payments, not the whole backlog`, async () => {
    const site = await newSite('backlog')
    const api = client(site, '/api', instance.base)
    // the challenges nobody answers
    for (let i = 0; i < BACKLOG; i += 20) {
      const made = await Promise.all(
        Array.from({ length: 20 }, () =>
          api.put(`/payments/${uid('p')}`, cardPayment({}, { pan: '4000000000003220' })),
        ),
      )
      for (const r of made) assert.equal(r.body.status?.value, 'WAITING', r.text)
    }
    // every payment's insert reported (with the reads its request made)
    await until(
      'the payments to be counted',
      () => tableStats('Payment'),
      (s) => s.inserts >= BACKLOG,
    )
    const start = await tableStats('Payment')
    // their 15 minutes over at once (the instance down meanwhile, say), and the planner's statistics as
    // autovacuum's analyze keeps them: the backlog in them (committed together, so the scheduler plans
    // with them from its first step)
    const session = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await session.connect()
    let updated: pg.QueryResult
    try {
      await session.query('BEGIN')
      updated = await session.query(
        `UPDATE "Payment" SET "dueAt" = now() - interval '1 minute' WHERE "siteId" = $1 AND status = 'WAITING'`,
        [site.siteId],
      )
      await session.query('ANALYZE "Payment"')
      await session.query('COMMIT')
    } finally {
      await session.end()
    }
    assert.equal(updated.rowCount, BACKLOG)
    // the test's update and one update per change applied, all reported
    const end = await until(
      'every expiry to be applied and reported',
      () => tableStats('Payment'),
      (s) => s.updates - start.updates >= 2 * BACKLOG,
    )
    const [left] = await sql(`SELECT count(*)::int AS n FROM "Payment" WHERE "siteId" = $1 AND status = 'WAITING'`, [
      site.siteId,
    ])
    assert.equal(left.n, 0)
    const perChange = (end.reads - start.reads) / BACKLOG
    // a change's own reads are a handful (its payment, its bill's others); the test's update reads each once
    assert.ok(
      perChange < 50,
      `${perChange.toFixed(0)} payment rows read per change applied, with ${BACKLOG} due at once`,
    )
  })
})
