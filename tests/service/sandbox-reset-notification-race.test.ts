// A reset's (or a retention sweep's) batch deletes its notifications by their places in the table: a notification
// that a write outside the site's gate (the delivery worker's claim) updated while the batch waited for it must go
// too, with its payment, and be counted (lib/sandbox/reset-store.ts deleteBillsWhole).
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { closeDb } from '../../lib/db/client.ts'
import { paymentRequestSchema } from '../../lib/payments/payment-request.ts'
import { createPayment } from '../../lib/payments/payment-service.ts'
import { deleteBatch } from '../../lib/sandbox/sandbox-reset.ts'
import { siteWrite } from '../../lib/sandbox/site-write.ts'
import { issueToken } from '../../lib/sites/site-tokens.ts'
import { cardPayment, uid } from '../support/api.ts'
import { lockSessions, sql, untilWaiting } from '../support/db.ts'

const sessions = lockSessions()

describe('a sandbox reset batch beside the delivery worker', () => {
  after(() => closeDb())
  test('a notification the claim updated while the batch runs is deleted with its payment', async () => {
    const siteId = uid('resetrace')
    await issueToken(siteId)
    const request = paymentRequestSchema.parse(cardPayment({ amount: { value: '10.00', currency: 'RUB' } }))
    await createPayment(siteId, uid('p'), request)
    const [p] = await sql(`SELECT id::text, "billRef"::text AS bill FROM "Payment" WHERE "siteId" = $1`, [siteId])
    const [n] = await sql(
      `INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt")
       VALUES (gen_random_uuid(), $1, 'PAYMENT', $2::uuid, $3, 'COMPLETED', 'http://127.0.0.1:9/none', '{}', 'PENDING',
               now() + interval '1 year') RETURNING id::text`,
      [siteId, p.id, uid('n')],
    )
    // the claim's UPDATE, under way when the batch statement starts
    await sessions.holder.query('BEGIN')
    await sessions.holder.query(`UPDATE "Notification" SET "leaseUntil" = now() + interval '1 minute' WHERE id = $1`, [
      n.id,
    ])
    const batch = siteWrite(siteId, async (tx) => {
      const bills = await tx.$queryRaw<{ id: string; at: string }[]>`
        SELECT id::text AS id, ctid::text AS at FROM "Bill" WHERE "siteId" = ${siteId} AND id = ${p.bill}::uuid FOR UPDATE`
      return deleteBatch(tx, siteId, bills)
    })
    // the batch waits for the claim
    await untilWaiting(sessions.watcher, sessions.holder, 1)
    await sessions.holder.query('COMMIT')
    const counts = await batch
    const left = await sql(`SELECT id FROM "Notification" WHERE id = $1`, [n.id])
    const payments = await sql(`SELECT id FROM "Payment" WHERE id = $1`, [p.id])
    assert.equal(payments.length, 0, 'the payment is deleted')
    assert.deepEqual({ counted: counts.notifications, left: left.length }, { counted: 1, left: 0 })
  })
})
