import assert from 'node:assert/strict'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { assertErrorShape, newSite, request } from '../support/api.ts'
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
  assert.deepEqual(answers.map((a) => a.status), [404, 404, 404, 404, 404, 429, 429, 429])
  const last = answers.at(-1)!
  assertErrorShape(last, 429, 'rate.limit.exceeded')
  const retryAfter = Number(last.headers.get('retry-after'))
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${last.headers.get('retry-after')}`)
  assert.equal((await request('GET', `/api/sites/${other.siteId}/payments/none`, { token: other.token })).status, 404)
})
