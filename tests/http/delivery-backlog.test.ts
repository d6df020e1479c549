// The delivery worker against a backlog (issue 32): one site's many notifications due at once — a receiver that was
// down, a flood of due changes — are each delivered by a claim whose work does not grow with the backlog. A claim
// that read every due row to rank them per site cost the backlog's size at each claim, a site's drain its square.
// The work is counted in the rows of "Notification" that PostgreSQL reads (its statistics: deterministic, unlike a
// timing), on a database of the test's own, where only this test's instance runs.
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { BASE_URL, newSite } from '../support/api.ts'
import { freshDatabase, sql, tableStats, until } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { WORKER_ENV } from '../support/notify-site.ts'

const port = Number(new URL(BASE_URL).port)
const DATABASE = 'payin_delivery_backlog'
const BACKLOG = 1000
/** the other site's: due at the same instant, behind none of the big one's */
const FEW = 5
/** the big site's notifications delivered before */
const HISTORY = 20_000

describe('the delivery worker and a backlog of due notifications', () => {
  let instance: Instance
  let suiteUrl: string | undefined
  // a merchant's endpoint on loopback: each post answered 200, in the order they came
  const posts: string[] = []
  const receiver = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      posts.push(req.url!)
      res.writeHead(200).end('OK')
    })
  })
  before(async () => {
    suiteUrl = process.env.DATABASE_URL
    process.env.DATABASE_URL = await freshDatabase(DATABASE)
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    instance = await startInstance(port + 270, {
      ...WORKER_ENV,
      DATABASE_URL: process.env.DATABASE_URL,
      NOTIFY_SITE_CONCURRENCY: '4',
      SCHEDULER: 'off',
    })
  })
  after(async () => {
    instance?.kill()
    await instance?.exited
    receiver.close()
    process.env.DATABASE_URL = suiteUrl
  })

  test(`${BACKLOG} notifications of one site due at once: each delivered reading a bounded number of rows, not the whole backlog`, async () => {
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
    const big = await newSite('backlog-big')
    const small = await newSite('backlog-small')
    // pending, due in a year until the count has started; then all made due in one statement (each body as a
    // payment's, which the worker signs)
    const dueAt = new Date(Date.now() + 365 * 24 * 3600_000)
    const pending = (siteId: string, n: number) =>
      sql(
        `INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt")
         SELECT gen_random_uuid(), $1, 'PAYMENT', gen_random_uuid(), $1 || '-' || g, 'COMPLETED', $2 || '/' || $1 || '/' || g,
                json_build_object('type', 'PAYMENT', 'version', '1', 'payment', json_build_object('paymentId', $1 || '-' || g,
                  'createdDateTime', '2026-01-01T00:00:00+03:00', 'amount', json_build_object('value', 1.00, 'currency', 'RUB')))::text,
                'PENDING', $3 FROM generate_series(1, $4::int) g`,
        [siteId, hook, dueAt, n],
      )
    // the big site's history first, delivered long ago: a table too large to read whole for a claim, as a site's
    // with a backlog is (on a table of a few hundred rows PostgreSQL reads it whole, whatever the claim)
    await sql(
      `INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt", "createdAt")
       SELECT gen_random_uuid(), $1, 'PAYMENT', gen_random_uuid(), 'old-' || g, 'COMPLETED', $2, '{}', 'DELIVERED',
              now() - interval '30 days', now() - interval '30 days' FROM generate_series(1, $3::int) g`,
      [big.siteId, hook, HISTORY],
    )
    await pending(big.siteId, BACKLOG)
    await pending(small.siteId, FEW)
    await sql('ANALYZE "Notification"')
    // every insert reported before the count starts (the reads of the inserts' own checks are not the claims')
    await until(
      'the inserts to be counted',
      () => tableStats('Notification'),
      (t) => t.inserts >= HISTORY + BACKLOG + FEW,
    )
    const start = await tableStats('Notification')
    const due = await sql(
      `UPDATE "Notification" SET "nextAttemptAt" = now() WHERE "siteId" = ANY($1::text[]) AND state = 'PENDING' RETURNING id`,
      [[big.siteId, small.siteId]],
    )
    assert.equal(due.length, BACKLOG + FEW)
    await until(
      'every notification posted',
      () => posts.length,
      (n) => n >= BACKLOG + FEW,
    )
    // all reported
    const end = await until(
      'every delivery to be recorded and reported',
      () => tableStats('Notification'),
      // the test's update, then a lease and an outcome per delivery
      (s) => s.updates - start.updates >= 3 * (BACKLOG + FEW),
    )
    assert.equal(posts.length, BACKLOG + FEW, 'each posted once')
    const [left] = await sql(`SELECT count(*)::int AS n FROM "Notification" WHERE state <> 'DELIVERED'`)
    assert.equal(left.n, 0)
    // the small site's were not kept behind the big one's backlog (4 of each site under way at a time)
    const smallAt = posts.flatMap((p, i) => (p.startsWith(`/${small.siteId}/`) ? [i] : []))
    assert.equal(smallAt.length, FEW)
    assert.ok(Math.max(...smallAt) < 100, `the small site's posts came ${smallAt.join(', ')}`)
    const perDelivery = (end.reads - start.reads) / (BACKLOG + FEW)
    // a delivery's own reads are a handful (its lease, its outcome), a claim's a few dozen whatever the backlog (the
    // count of due rows that chooses how it reads, up to 64, and a few rows of each site); the test's update read
    // each row once. A claim that ranked every due row read 138 per delivery at 600 due, and more with more.
    assert.ok(
      perDelivery < 60,
      `${perDelivery.toFixed(0)} notification rows read per delivery, with ${BACKLOG} due at once`,
    )
  })
})
