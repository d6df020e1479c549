// The overview's figures in a zone named as PostgreSQL reads it: a name without a slash may be an abbreviation there
// ('NST' is -03:30) and a zone to Intl (Pacific/Auckland), so the figures follow PostgreSQL's reading, as the rows do.
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { closeDb } from '../../lib/db/client.ts'
import { localDay, siteOverview } from '../../lib/dashboard/dashboard-overview.ts'
import { paymentRequestSchema } from '../../lib/payments/payment-request.ts'
import { createPayment } from '../../lib/payments/payment-service.ts'
import { advanceSiteClock } from '../../lib/sandbox/clock-advance.ts'
import { issueToken } from '../../lib/sites/site-tokens.ts'
import { cardPayment, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'

after(() => closeDb())
test('in NST the figures put a payment made 5 minutes after a local midnight on the day the rows give', async () => {
  const siteId = uid('zonename')
  await issueToken(siteId)
  const day = localDay(new Date(Date.now() + 48 * 3600_000), 'UTC')
  const [m] = await sql(`SELECT ($1::date::timestamp AT TIME ZONE 'NST') AS at`, [day])
  await advanceSiteClock(siteId, { to: new Date(m.at.getTime() + 5 * 60_000) })
  await createPayment(
    siteId,
    uid('p'),
    paymentRequestSchema.parse(cardPayment({ amount: { value: '10.00', currency: 'RUB' } })),
  )
  const o = await siteOverview(siteId, 'NST')
  const rows = await sql(
    `SELECT to_char(("createdAt" AT TIME ZONE 'NST')::date, 'YYYY-MM-DD') AS day, count(*)::int AS n FROM "Payment" WHERE "siteId" = $1 GROUP BY 1`,
    [siteId],
  )
  assert.deepEqual(
    o.days.filter((d) => d.count).map((d) => [d.day, d.count]),
    rows.map((r) => [r.day, r.n]),
  )
})
