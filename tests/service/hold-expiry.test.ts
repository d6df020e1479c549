// Holds that confirm themselves, at the service level: two scheduler passes at once (as two instances run them, each
// on connections of its own) confirm every due hold exactly once; a hold not yet due is left alone.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { closeDb, db } from '../../lib/db/client.ts'
import { setHoldSetting } from '../../lib/payments/hold-expiry.ts'
import { paymentRequestSchema } from '../../lib/payments/payment-request.ts'
import { createPayment } from '../../lib/payments/payment-service.ts'
import { confirmDueHolds } from '../../lib/scheduler/time-driven-changes.ts'
import { issueToken } from '../../lib/sites/site-tokens.ts'
import { twoStepPayment, uid } from '../support/api.ts'

const HOUR_MS = 3_600_000

describe('holds confirmed by concurrent scheduler passes', () => {
  let siteId: string
  before(async () => {
    siteId = uid('holds-race')
    await issueToken(siteId)
  })
  after(() => closeDb())

  test('each due hold is captured once, whichever pass takes it', async () => {
    assert.deepEqual(await setHoldSetting(siteId, { reversal: false, hours: 1 }), { hours: 1, reversal: false })
    const ids: string[] = []
    for (let i = 0; i < 12; i++) {
      const paymentId = uid('pay')
      const p = await createPayment(siteId, paymentId, paymentRequestSchema.parse(twoStepPayment()))
      assert.equal(p.status.value, 'COMPLETED')
      ids.push(paymentId)
    }
    // not yet due: nothing
    assert.equal(await confirmDueHolds(new Date(Date.now() + HOUR_MS / 2), siteId), 0)
    const later = new Date(Date.now() + 2 * HOUR_MS)
    const [a, b] = await Promise.all([confirmDueHolds(later, siteId), confirmDueHolds(later, siteId)])
    assert.equal(a + b, ids.length, `${a} + ${b}`)
    const rows = await db().payment.findMany({
      where: { siteId, paymentId: { in: ids } },
      select: { capturedMinor: true, holdDueAt: true, captures: { select: { captureId: true, status: true } } },
    })
    for (const r of rows) {
      assert.equal(r.capturedMinor, 10000n)
      assert.equal(r.holdDueAt, null)
      assert.equal(r.captures.length, 1)
      assert.match(r.captures[0].captureId, /^auto-/)
    }
    assert.equal(await confirmDueHolds(later, siteId), 0, 'nothing left')
  })
})
