// The site-write primitive (lib/sandbox/site-write.ts) on the suite's database: a write of a site opened inside
// another is refused at once (it would wait, on another connection, behind a reset asked for meanwhile, a wait
// PostgreSQL cannot break — also for another site whose id hashes alike, so for any site); the scheduler's bill
// expiry, a statement of any site's bills, passes over a site whose gate a reset holds.
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { closeDb, db } from '../../lib/db/client.ts'
import pg from 'pg'
import { createBill } from '../../lib/billing/bill-service.ts'
import { billRequestSchema } from '../../lib/bills/bill-request.ts'
import { SITE_GATE, siteClockMove, siteWrite } from '../../lib/sandbox/site-write.ts'
import { expireDueBills } from '../../lib/scheduler/time-driven-changes.ts'
import { issueToken } from '../../lib/sites/site-tokens.ts'
import { billRequest, uid } from '../support/api.ts'

after(() => closeDb())

test("a site's write opened inside another site write is refused, of the same site or another", async () => {
  const [a, b] = [uid('gate-a'), uid('gate-b')]
  await issueToken(a)
  await issueToken(b)
  await assert.rejects(
    siteWrite(a, () => siteWrite(a, async () => 'inner')),
    /opened inside one of site/,
  )
  await assert.rejects(
    siteWrite(a, () => siteClockMove(a, async () => 'inner', 'busy')),
    /opened inside one of site/,
  )
  await assert.rejects(
    siteWrite(a, () => siteWrite(b, async () => 'inner')),
    /opened inside one of site/,
  )
  // the refusal leaves the gate open: the next write of the site is made
  assert.equal(await siteWrite(a, async (_tx, clock) => clock.offsetMs), 0)
})

test("the scheduler's bill expiry passes over a site whose gate a reset holds, and expires its bills after", async () => {
  const siteId = uid('gate-expiry')
  await issueToken(siteId)
  const billId = uid('bill')
  await createBill(siteId, billId, billRequestSchema.parse(billRequest()))
  // the test's own session holds the site's gate exclusively, as a sandbox reset does, before the bill falls due:
  // the suite's server's scheduler (every second, every site) cannot expire it first
  const holder = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await holder.connect()
  try {
    await holder.query('BEGIN')
    await holder.query('SELECT pg_advisory_xact_lock($1::int4, hashtext($2))::text', [SITE_GATE, siteId])
    await db().bill.updateMany({ where: { siteId, billId }, data: { expiresAt: new Date(Date.now() - 1000) } })
    assert.equal(await expireDueBills(new Date(), siteId), 0, 'passed over while the reset runs')
    const held = await db().bill.findFirstOrThrow({ where: { siteId, billId } })
    assert.equal(held.status, 'CREATED', "nobody's scheduler expired it while the reset ran")
    await holder.query('COMMIT')
  } finally {
    await holder.end()
  }
  // this pass expires it, unless the suite's server's scheduler (every second, every site) got there first
  assert.ok((await expireDueBills(new Date(), siteId)) <= 1)
  const bill = await db().bill.findFirstOrThrow({ where: { siteId, billId } })
  assert.equal(bill.status, 'EXPIRED')
})
