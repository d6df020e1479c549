import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { assertErrorShape, besidesAuthorisation, cardPayment, client, newSite, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'

const future = (days: number) => new Date(Date.now() + days * 86400_000).toISOString().slice(0, 10)
const first = (pan = '4111111111111111', recurrent: unknown = { minAuthDay: 30, expiryDate: future(365) }) =>
  cardPayment({ flags: ['SALE', 'RECURRENT_FIRST'], recurrent }, { pan })
const charge = (firstPaymentId: string, value = '100.00') => ({
  paymentMethod: { type: 'RECURRENT', firstPaymentId },
  amount: { value, currency: 'RUB' },
  flags: ['SALE'],
})

async function ageSeries(firstPaymentId: string, days: number) {
  await sql(
    `UPDATE "Payment" SET "statusChangedAt" = "statusChangedAt" - make_interval(days => $2)
     WHERE "paymentId" = $1 OR "seriesRef" = (SELECT id FROM "Payment" WHERE "paymentId" = $1)`,
    [firstPaymentId, days],
  )
}

describe('recurrent series', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('rec'))
  })

  test('a charge sooner than minAuthDay is REATTEMPT_NOT_PERMITTED; later it is charged on the series card', async () => {
    const firstId = uid('first')
    const r = await api.put(`/payments/${firstId}`, first('5555555555554444'))
    assert.equal(r.body.status.value, 'COMPLETED', r.text)
    const early = await api.put(`/payments/${uid('rc')}`, charge(firstId))
    assert.equal(early.status, 200, early.text)
    assert.equal(early.body.status.value, 'DECLINED')
    assert.equal(early.body.status.reason, 'REATTEMPT_NOT_PERMITTED')
    await ageSeries(firstId, 30)
    const due = await api.put(`/payments/${uid('rc')}`, charge(firstId, '7.50'))
    assert.equal(due.body.status.value, 'COMPLETED')
    assert.deepEqual(besidesAuthorisation(due.body.paymentMethod), { type: 'CARD', maskedPan: '555555******4444' })
    assert.equal(due.body.amount.value, '7.50')
    // the period counts from the last COMPLETED charge
    const again = await api.put(`/payments/${uid('rc')}`, charge(firstId))
    assert.equal(again.body.status.reason, 'REATTEMPT_NOT_PERMITTED')
  })

  test('after the expiry date: RECURRENT_EXPIRED', async () => {
    const firstId = uid('first')
    await api.put(`/payments/${firstId}`, first('4111111111111111', { minAuthDay: 1, expiryDate: future(2) }))
    await sql(`UPDATE "Payment" SET "recurrentExpiry" = $2 WHERE "paymentId" = $1`, [firstId, future(-1)])
    const r = await api.put(`/payments/${uid('rc')}`, charge(firstId))
    assert.equal(r.body.status.value, 'DECLINED')
    assert.equal(r.body.status.reason, 'RECURRENT_EXPIRED')
  })

  test('the series card keeps its outcome', async () => {
    const firstId = uid('first')
    await api.put(`/payments/${firstId}`, first('4000000000001000'))
    const done = await api.post(`/payments/${firstId}/complete`, { otp: { code: '1234' } })
    assert.equal(done.body.status.value, 'COMPLETED')
    await ageSeries(firstId, 31)
    const r = await api.put(`/payments/${uid('rc')}`, charge(firstId))
    assert.equal(r.body.status.value, 'WAITING')
    assert.equal(typeof r.body.requirements.otp, 'string')
  })

  test('firstPaymentId must be a COMPLETED RECURRENT_FIRST payment of the site', async () => {
    const plain = uid('plain')
    await api.put(`/payments/${plain}`, cardPayment())
    const declinedFirst = uid('first')
    await api.put(`/payments/${declinedFirst}`, first('4000000000000002'))
    for (const id of [plain, declinedFirst, uid('missing')]) {
      const r = await api.put(`/payments/${uid('rc')}`, charge(id))
      assertErrorShape(r, 400, 'validation.error')
      assert.ok(r.body.cause['paymentMethod.firstPaymentId'], id)
    }
  })

  test('RECURRENT_FIRST needs recurrent {minAuthDay ≥ 1, expiryDate in the future}', async () => {
    for (const [recurrent, field] of [
      [undefined, 'recurrent'],
      [{ minAuthDay: 0, expiryDate: future(30) }, 'recurrent.minAuthDay'],
      [{ minAuthDay: 1.5, expiryDate: future(30) }, 'recurrent.minAuthDay'],
      [{ minAuthDay: 1, expiryDate: future(-1) }, 'recurrent.expiryDate'],
      [{ minAuthDay: 1, expiryDate: '2030-02-30' }, 'recurrent.expiryDate'],
    ] as const) {
      const body = { ...first(), recurrent }
      const r = await api.put(`/payments/${uid('first')}`, body)
      assertErrorShape(r, 400, 'validation.error')
      assert.ok(r.body.cause[field], `${JSON.stringify(recurrent)} → ${JSON.stringify(r.body.cause)}`)
    }
  })
})

test("an identical replay of a RECURRENT_FIRST payment after its series' end answers the payment; a new one is 400", async (t) => {
  // in this process, against the suite's database, with the clock moved on two days (Date only)
  const { createPayment } = await import('../../lib/payments/payment-service.ts')
  const { paymentRequestSchema } = await import('../../lib/payments/payment-request.ts')
  const { closeDb } = await import('../../lib/db/client.ts')
  const { ApiError } = await import('../../lib/http/api-error.ts')
  const siteId = uid('series-end')
  const body = first('4111111111111111', { minAuthDay: 1, expiryDate: future(1) })
  const id = uid('first')
  try {
    const created = await createPayment(siteId, id, paymentRequestSchema.parse(body))
    assert.equal(created.status.value, 'COMPLETED')
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() + 2 * 86400_000 })
    // the request is read as the endpoint reads it, under the moved clock
    const replay = await createPayment(siteId, id, paymentRequestSchema.parse(body))
    assert.deepEqual(replay, created)
    await assert.rejects(
      createPayment(siteId, uid('first'), paymentRequestSchema.parse(body)),
      (e: unknown) => e instanceof ApiError && e.status === 400 && !!e.cause?.['recurrent.expiryDate'],
    )
  } finally {
    t.mock.timers.reset()
    await closeDb()
  }
})
