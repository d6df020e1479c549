import assert from 'node:assert/strict'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { assertErrorShape, cardPayment, client, newSite, request, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'

test('a token over its per-minute limit gets 429 with Retry-After; other tokens are not affected', async () => {
  const limited = await newSite('rate')
  const other = await newSite('rate-other')
  await sql(`UPDATE "SiteToken" SET "rateLimitPerMinute" = 5 WHERE "siteId" = $1`, [limited.siteId])
  // keep the burst inside one minute window
  const second = new Date().getUTCSeconds()
  if (second >= 50) await sleep((61 - second) * 1000)
  const path = `/api/sites/${limited.siteId}/payments/none`
  const answers = []
  for (let i = 0; i < 8; i++) answers.push(await request('GET', path, { token: limited.token }))
  assert.deepEqual(
    answers.map((a) => a.status),
    [404, 404, 404, 404, 404, 429, 429, 429],
  )
  const last = answers.at(-1)!
  assertErrorShape(last, 429, 'rate.limit.exceeded')
  const retryAfter = Number(last.headers.get('retry-after'))
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${last.headers.get('retry-after')}`)
  assert.equal((await request('GET', `/api/sites/${other.siteId}/payments/none`, { token: other.token })).status, 404)
})

test('payment creations count against the limit once each, replays and conflicts too; over it: 429 and nothing created', async () => {
  const limited = await newSite('rate-create')
  await sql(`UPDATE "SiteToken" SET "rateLimitPerMinute" = 4 WHERE "siteId" = $1`, [limited.siteId])
  const second = new Date().getUTCSeconds()
  if (second >= 50) await sleep((61 - second) * 1000)
  const api = client(limited)
  const first = uid('pay')
  const statuses = [
    (await api.put(`/payments/${first}`, cardPayment())).status, // created
    (await api.put(`/payments/${first}`, cardPayment())).status, // an identical replay
    (await api.put(`/payments/${first}`, cardPayment({ comment: 'other' }))).status, // another request under the id: 409
    (await api.put(`/payments/${uid('pay')}`, cardPayment({ billId: uid('bill') }))).status, // a payment on a named bill (not a one-statement one): 200
  ]
  assert.deepEqual(statuses, [200, 200, 409, 200])
  const over = uid('pay')
  const r = await api.put(`/payments/${over}`, cardPayment())
  assertErrorShape(r, 429, 'rate.limit.exceeded')
  const [row] = await sql(`SELECT count(*)::int AS n FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2`, [
    limited.siteId,
    over,
  ])
  assert.equal(row.n, 0, 'nothing created over the limit')
  const [w] = await sql(
    `SELECT sum(count)::int AS n FROM "RateWindow" w JOIN "SiteToken" t ON t.id = w."tokenRef" WHERE t."siteId" = $1`,
    [limited.siteId],
  )
  assert.equal(w.n, 5, 'every request counted once')
})
