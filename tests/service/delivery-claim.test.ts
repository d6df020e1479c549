// How the delivery worker's claim reads (lib/notifications/notification-store.ts claimStatement): with few
// notifications due it reads them all and ranks them per site; with a backlog it reads site by site, a descent per
// site with any notification pending. Thousands of sites whose receivers are down keep one pending each, their
// retries backed off: with a few due beside them, the claim must read the few, not every site (found in review: a
// claim that always went site by site took 40-90 ms there, under the lock every claim takes). The claim counts the due
// rows first, in the same statement, and runs only the way the count chooses. Counted in the buffers PostgreSQL touches
// (EXPLAIN ANALYZE BUFFERS of each statement, rolled back), on a database of the file's own.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import type { Prisma } from '../../lib/generated/prisma/client.ts'
import { dropDatabase, freshDatabase } from '../support/db.ts'

const DATABASE = 'payin_delivery_claim'
const SITES = 3000
const SETTINGS = { perSite: 4, leaseMs: 60_000 }

describe("the delivery worker's claim", () => {
  let suiteUrl: string | undefined
  let client: pg.Client
  before(async () => {
    suiteUrl = process.env.DATABASE_URL
    process.env.DATABASE_URL = await freshDatabase(DATABASE)
    client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
  })
  after(async () => {
    await client?.end()
    const { closeDb } = await import('../../lib/db/client.ts')
    await closeDb()
    process.env.DATABASE_URL = suiteUrl
    await dropDatabase(DATABASE)
  })

  /** what `run` answers, its writes rolled back */
  async function rolledBack<T>(run: () => Promise<T>): Promise<T> {
    await client.query('BEGIN')
    try {
      return await run()
    } finally {
      await client.query('ROLLBACK')
    }
  }
  /** the buffers a statement touches, the rows it answers, and the claim's ways it ran (the CTEs it read from) */
  const measured = (q: Prisma.Sql) =>
    rolledBack(async () => {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${q.text}`, q.values)
      const plan = rows[0]['QUERY PLAN'][0].Plan
      const ran = new Set<string>()
      const walk = (node: Record<string, unknown>) => {
        if (node['Actual Loops'] === 0) return
        if (node['CTE Name'] === 'pending') ran.add('site by site')
        if (node['Group Key'] && String(node['Group Key']).includes('siteId')) ran.add('ranked')
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child)
      }
      walk(plan)
      return {
        buffers: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'],
        rows: plan['Actual Rows'],
        ran: [...ran],
      }
    })
  /** the ids a claim statement leases */
  const leased = (q: Prisma.Sql) =>
    rolledBack(async () => (await client.query(q.text, q.values)).rows.map((r) => r.id).sort())
  const pending = (sites: string, due: string) =>
    client.query(
      `INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt")
       SELECT gen_random_uuid(), s, 'PAYMENT', gen_random_uuid(), s || '-' || g, 'COMPLETED', 'https://merchant.example/' || g,
              '{}', 'PENDING', ${due}
       FROM ${sites}`,
    )

  test('a few due beside thousands of sites with retries backed off: read alone; a backlog: site by site, the same picks', async () => {
    const { claimDue, claimStatement, BACKLOG_FROM } = await import('../../lib/notifications/notification-store.ts')
    await client.query(`INSERT INTO "Site" (id) SELECT 'claim-' || g FROM generate_series(1, ${SITES}) g`)
    // each site: one pending, its next attempt in 5 minutes (its receiver is down); and 3 due now on the first
    await pending(
      `generate_series(1, ${SITES}) g, LATERAL (SELECT 'claim-' || g AS s) x`,
      `now() + interval '5 minutes'`,
    )
    await pending(`generate_series(1, 3) g, LATERAL (SELECT 'claim-1' AS s) x`, `now() - interval '1 second'`)
    await client.query('VACUUM ANALYZE "Notification"')

    const few = await measured(claimStatement(SETTINGS, 32, false))
    const bySite = await measured(claimStatement(SETTINGS, 32, true))
    assert.deepEqual([few.rows, bySite.rows], [3, 3])
    assert.deepEqual([few.ran, bySite.ran], [['ranked'], ['site by site']])
    assert.ok(few.buffers < 200, `the claim of 3 due touched ${few.buffers} buffers`)
    // what reading site by site costs here: why the count of due rows chooses
    assert.ok(bySite.buffers > SITES, `site by site: ${bySite.buffers} buffers`)
    // as the worker claims: the count chooses the ranked way, and the other is never run (the count reads the due
    // rows once more, as it did as a statement of its own before the claim)
    const chosen = await measured(claimStatement(SETTINGS, 32))
    assert.deepEqual([chosen.rows, chosen.ran], [3, ['ranked']])
    assert.ok(chosen.buffers < 400, `the claim as made, of 3 due, touched ${chosen.buffers} buffers`)
    const claimed = await claimDue(SETTINGS, 32)
    assert.deepEqual(claimed.map((c) => c.resourceId).sort(), ['claim-1-1', 'claim-1-2', 'claim-1-3'])

    // a backlog on another site (the first's 3 under way now): both ways pick the same, 4 of it
    await pending(
      `generate_series(1, ${BACKLOG_FROM * 3}) g, LATERAL (SELECT 'claim-2' AS s) x`,
      `now() - interval '2 seconds'`,
    )
    const ranked = await leased(claimStatement(SETTINGS, 32, false))
    assert.equal(ranked.length, 4)
    assert.deepEqual(await leased(claimStatement(SETTINGS, 32, true)), ranked)
    // as the worker claims: the count chooses site by site, and the ranked way is never run
    assert.deepEqual(await leased(claimStatement(SETTINGS, 32)), ranked)
    assert.deepEqual((await measured(claimStatement(SETTINGS, 32))).ran, ['site by site'])
  })
})
