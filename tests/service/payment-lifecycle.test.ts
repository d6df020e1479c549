// The payment lifecycle at the service level: the payment, completion, capture and refund services and the
// scheduler's due change, called as the route handlers call them, on the suite's real database, with no HTTP
// between. What a merchant would check through the API — statuses, amounts, replays — is checked here on the
// services' answers and on the rows they wrote.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { issuePares } from '../../lib/acquirer/three-ds.ts'
import { closeDb, db } from '../../lib/db/client.ts'
import { ApiError } from '../../lib/http/api-error.ts'
import { capturePayment } from '../../lib/payments/capture-service.ts'
import { completePayment } from '../../lib/payments/complete-service.ts'
import { completeRequestSchema } from '../../lib/payments/flows/index.ts'
import { paymentRequestSchema } from '../../lib/payments/payment-request.ts'
import { createPayment, readPayment } from '../../lib/payments/payment-service.ts'
import { refundPayment } from '../../lib/payments/refund-service.ts'
import { siteClock } from '../../lib/sites/site-store.ts'
import { settleDuePayments } from '../../lib/scheduler/time-driven-changes.ts'
import { issueToken } from '../../lib/sites/site-tokens.ts'
import { amountSchema } from '../../lib/wire/common-schemas.ts'
import { cardPayment, uid } from '../support/api.ts'

const THREE_DS_CARD = '4000000000003220'
const rub = (value: string) => amountSchema.parse({ value, currency: 'RUB' })

/** the API error `run` is refused with (it must be refused) */
async function refusal(run: Promise<unknown>): Promise<ApiError> {
  const e = await run.then(
    () => assert.fail('expected a refusal'),
    (error: unknown) => error,
  )
  assert.ok(e instanceof ApiError, String(e))
  return e
}

describe('the payment lifecycle, service by service', () => {
  let siteId: string
  before(async () => {
    siteId = uid('service')
    await issueToken(siteId)
  })
  after(() => closeDb())

  /** a two-step 3-D Secure card payment, WAITING for its challenge: its id and internal reference */
  async function challenged(amount = '100.00') {
    const paymentId = uid('pay')
    const request = paymentRequestSchema.parse(
      cardPayment({ flags: [], amount: { value: amount, currency: 'RUB' } }, { pan: THREE_DS_CARD }),
    )
    const waiting = await createPayment(siteId, paymentId, request)
    assert.equal(waiting.status.value, 'WAITING')
    assert.ok(waiting.requirements?.threeDS, 'a challenge is required')
    const row = await db().payment.findUniqueOrThrow({ where: { siteId_paymentId: { siteId, paymentId } } })
    return { paymentId, ref: row.id }
  }

  test('authorised after 3-D Secure, captured in part, refunded in part; replays change nothing', async () => {
    const { paymentId, ref } = await challenged()
    const pares = issuePares(ref, true)
    const authorised = await completePayment(siteId, paymentId, completeRequestSchema.parse({ threeDS: { pares } }))
    assert.equal(authorised.status.value, 'COMPLETED')
    assert.deepEqual(authorised.capturedAmount, { value: '0.00', currency: 'RUB' })

    const capture = await capturePayment(siteId, paymentId, 'cap-1', rub('60.00'))
    assert.equal(capture.status.value, 'COMPLETED')
    assert.deepEqual(await capturePayment(siteId, paymentId, 'cap-1', rub('60.00')), capture, 'a replay answers it')
    assert.equal((await refusal(capturePayment(siteId, paymentId, 'cap-1', rub('70.00')))).status, 409)
    assert.equal((await refusal(capturePayment(siteId, paymentId, 'cap-2', rub('10.00')))).status, 409)

    const refund = await refundPayment(siteId, paymentId, 'ref-1', rub('25.00'))
    assert.equal(refund.status.value, 'COMPLETED')
    assert.deepEqual(await refundPayment(siteId, paymentId, 'ref-1', rub('25.00')), refund, 'a replay answers it')
    const beyond = await refundPayment(siteId, paymentId, 'ref-2', rub('40.00'))
    assert.equal(beyond.status.value, 'DECLINED', 'only 35.00 of the captured 60.00 is left')
    assert.equal(beyond.status.reason, 'INVALID_AMOUNT')

    const now = await readPayment(siteId, paymentId, await siteClock(siteId))
    assert.deepEqual(now.capturedAmount, { value: '60.00', currency: 'RUB' })
    assert.deepEqual(now.refundedAmount, { value: '25.00', currency: 'RUB' })
    const row = await db().payment.findUniqueOrThrow({ where: { id: ref } })
    assert.equal(row.capturedMinor, 6000n)
    assert.equal(row.refundedMinor, 2500n)
    assert.equal(await db().capture.count({ where: { paymentRef: ref } }), 1)
    assert.deepEqual(
      (await db().refund.findMany({ where: { paymentRef: ref }, orderBy: { refundId: 'asc' } })).map((r) => r.status),
      ['COMPLETED', 'DECLINED'],
    )
  })

  test('a failed challenge declines the payment DECLINED_BY_MPI; completing it again is a 409', async () => {
    const { paymentId, ref } = await challenged()
    const pares = issuePares(ref, false)
    const declined = await completePayment(siteId, paymentId, completeRequestSchema.parse({ threeDS: { pares } }))
    assert.equal(declined.status.value, 'DECLINED')
    assert.equal(declined.status.reason, 'DECLINED_BY_MPI')
    const again = await refusal(completePayment(siteId, paymentId, completeRequestSchema.parse({ threeDS: { pares } })))
    assert.equal(again.status, 409)
  })

  test("a challenge left unanswered is declined by the scheduler's due change, dated when it fell due", async () => {
    const { paymentId, ref } = await challenged()
    const { dueAt } = await db().payment.findUniqueOrThrow({ where: { id: ref } })
    assert.ok(dueAt, 'a 3-D Secure challenge has a due time')
    assert.equal(await settleDuePayments(new Date(dueAt.getTime() - 1000), siteId), 0, 'not yet due')
    assert.equal(await settleDuePayments(new Date(dueAt.getTime() + 1000), siteId), 1)
    const expired = await readPayment(siteId, paymentId, await siteClock(siteId))
    assert.equal(expired.status.value, 'DECLINED')
    assert.equal(expired.status.reason, 'PAYMENT_EXPIRED_3DS')
    assert.equal(new Date(expired.status.changedDateTime).getTime(), dueAt.getTime())
  })

  test('concurrent captures of one payment under different ids: exactly one takes the money', async () => {
    const { paymentId, ref } = await challenged('50.00')
    await completePayment(siteId, paymentId, completeRequestSchema.parse({ threeDS: { pares: issuePares(ref, true) } }))
    const tries = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => capturePayment(siteId, paymentId, `race-${i}`, rub('50.00'))),
    )
    const taken = tries.filter((t) => t.status === 'fulfilled' && t.value.status.value === 'COMPLETED')
    assert.equal(taken.length, 1, JSON.stringify(tries.map((t) => t.status)))
    for (const t of tries)
      if (t.status === 'rejected') assert.equal((t.reason as ApiError).status, 409, String(t.reason))
    const row = await db().payment.findUniqueOrThrow({ where: { id: ref } })
    assert.equal(row.capturedMinor, 5000n)
    assert.equal(await db().capture.count({ where: { paymentRef: ref, status: 'COMPLETED' } }), 1)
  })
})
