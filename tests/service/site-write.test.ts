// The site-write primitive (lib/sandbox/site-write.ts) on the suite's database: a write of a site opened inside
// another is refused at once (it would wait, on another connection, behind a reset asked for meanwhile, a wait
// PostgreSQL cannot break — also for another site whose id hashes alike, so for any site).
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { closeDb } from '../../lib/db/client.ts'
import { siteClockMove, siteWrite } from '../../lib/sandbox/site-write.ts'
import { issueToken } from '../../lib/sites/site-tokens.ts'
import { uid } from '../support/api.ts'

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
    siteWrite(a, () => siteClockMove(a, async () => 'inner')),
    /opened inside one of site/,
  )
  await assert.rejects(
    siteWrite(a, () => siteWrite(b, async () => 'inner')),
    /opened inside one of site/,
  )
  // the refusal leaves the gate open: the next write of the site is made
  assert.equal(await siteWrite(a, async (_tx, clock) => clock.offsetMs), 0)
})
