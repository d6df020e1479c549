// Postponed refunds (the contract's "Production features"): on a site set to the postponed scheme (`npm run site --
// refunds <siteId> postponed`), a refund answers WAITING, counts against what can be refunded, and completes at the
// next processing time, 21:00 Moscow time on the site's clock (the scheduler), with its REFUND notification then;
// until then POST …/decline makes it DECLINED REFUND_DECLINED_BY_MERCHANT and gives its amount back. Reversals of
// uncaptured holds stay immediate; a site on the immediate scheme refunds at once, as ever.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { nextRefundProcessing } from '../../lib/payments/refund-schedule.ts'
import { assertErrorShape, cardPayment, client, newSite, rub, twoStepPayment, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'
import { siteOk } from '../support/site-command.ts'

describe('postponed refunds', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    const site = await newSite('refund-later')
    api = client(site)
    assert.match(await siteOk(['refunds', site.siteId, 'postponed']), /refunds of .* are postponed/)
  })

  const outboxOf = async (resourceId: string) =>
    ((await api.get('/notifications')).body as any[]).filter((n) => n.resourceId === resourceId)

  test('a refund waits, counts against the refundable amount, and can be declined before it is processed', async () => {
    const paymentId = await api.newPayment(cardPayment({ callbackUrl: 'https://shop.example/cb' }))
    const first = uid('rf')
    const waiting = await api.put(`/payments/${paymentId}/refunds/${first}`, {
      amount: rub('60.00'),
      callbackUrl: 'https://shop.example/cb',
    })
    assert.equal(waiting.status, 200, waiting.text)
    assert.equal(waiting.body.status.value, 'WAITING')
    // refundedAmount is the COMPLETED refunds' total; a waiting one is counted only against what can be refunded
    assert.deepEqual((await api.paymentNow(paymentId)).refundedAmount, rub('0.00'))
    assert.equal((await outboxOf(first)).length, 0, 'no notification before it is final')
    // what is left: 40.00, so 50.00 is declined at once
    const over = await api.put(`/payments/${paymentId}/refunds/${uid('rf')}`, { amount: rub('50.00') })
    assert.equal(over.body.status.value, 'DECLINED')
    assert.equal(over.body.status.reason, 'INVALID_AMOUNT')
    const declined = await api.post(`/payments/${paymentId}/refunds/${first}/decline`)
    assert.equal(declined.status, 200, declined.text)
    assert.equal(declined.body.status.value, 'DECLINED')
    assert.equal(declined.body.status.reason, 'REFUND_DECLINED_BY_MERCHANT')
    assert.deepEqual((await api.paymentNow(paymentId)).refundedAmount, rub('0.00'))
    const [n] = await outboxOf(first)
    assert.equal(n.body.refund.status.value, 'DECLINE')
    assert.equal(n.body.refund.status.reasonCode, 'REFUND_DECLINED_BY_MERCHANT')
    assertErrorShape(
      await api.post(`/payments/${paymentId}/refunds/${first}/decline`),
      409,
      'payin.incorrect-method-invocation',
    )
    assertErrorShape(
      await api.post(`/payments/${paymentId}/refunds/${uid('none')}/decline`),
      404,
      'payin.resource.not.found',
    )
    // the whole amount is refundable again
    const whole = await api.put(`/payments/${paymentId}/refunds/${uid('rf')}`, { amount: rub('100.00') })
    assert.equal(whole.body.status.value, 'WAITING')
  })

  test('processed at 21:00 Moscow time on the site clock: COMPLETED then, notified; a completed one cannot be declined', async () => {
    const site = await newSite('refund-later-clock')
    const own = client(site)
    await siteOk(['refunds', site.siteId, 'postponed'])
    const paymentId = await own.newPayment(cardPayment({ callbackUrl: 'https://shop.example/cb' }))
    const refundId = uid('rf')
    const r = await own.put(`/payments/${paymentId}/refunds/${refundId}`, {
      amount: rub('25.00'),
      callbackUrl: 'https://shop.example/cb',
    })
    assert.equal(r.body.status.value, 'WAITING')
    const due = nextRefundProcessing(new Date(Date.parse(r.body.createdDateTime)))
    assert.equal(due.getUTCHours(), 18, '21:00 in Moscow')
    // just before its time nothing changes; the advance applies what fell due before it answers
    const before = Math.floor((due.getTime() - Date.now()) / 1000) - 5
    if (before > 0) await own.post('/sandbox/clock/advance', { seconds: before })
    assert.equal((await own.get(`/payments/${paymentId}/refunds/${refundId}`)).body.status.value, 'WAITING')
    await own.post('/sandbox/clock/advance', { seconds: 10 })
    const done = await own.get(`/payments/${paymentId}/refunds/${refundId}`)
    assert.equal(done.body.status.value, 'COMPLETED')
    assert.equal(Date.parse(done.body.status.changedDateTime), due.getTime(), 'dated at the processing time')
    const notes = ((await own.get('/notifications')).body as any[]).filter((n) => n.resourceId === refundId)
    assert.equal(notes.length, 1)
    assert.equal(notes[0].body.refund.status.value, 'SUCCESS')
    assertErrorShape(
      await own.post(`/payments/${paymentId}/refunds/${refundId}/decline`),
      409,
      'payin.incorrect-method-invocation',
    )
    assert.deepEqual((await own.paymentNow(paymentId)).refundedAmount, rub('25.00'))
  })

  test('a reversal of an uncaptured hold is immediate; the immediate scheme refunds at once', async () => {
    const held = await api.newPayment(twoStepPayment())
    const reversal = await api.put(`/payments/${held}/refunds/${uid('rv')}`, { amount: rub('100.00') })
    assert.equal(reversal.body.status.value, 'COMPLETED')
    assert.deepEqual(reversal.body.flags, ['REVERSAL'])
    const site = await newSite('refund-now')
    const now = client(site)
    await siteOk(['refunds', site.siteId, 'postponed'])
    await siteOk(['refunds', site.siteId, 'immediate'])
    const paymentId = await now.newPayment(cardPayment())
    const r = await now.put(`/payments/${paymentId}/refunds/${uid('rf')}`, { amount: rub('10.00') })
    assert.equal(r.body.status.value, 'COMPLETED')
  })

  test('the processing time is the next 21:00 in Moscow, strictly after the refund', () => {
    assert.equal(nextRefundProcessing(new Date('2026-11-27T10:00:00Z')).toISOString(), '2026-11-27T18:00:00.000Z')
    assert.equal(nextRefundProcessing(new Date('2026-11-27T18:00:00Z')).toISOString(), '2026-11-28T18:00:00.000Z')
    assert.equal(nextRefundProcessing(new Date('2026-11-27T21:30:00Z')).toISOString(), '2026-11-28T18:00:00.000Z')
    assert.equal(nextRefundProcessing(new Date('2026-12-31T20:59:00Z')).toISOString(), '2027-01-01T18:00:00.000Z')
  })

  test('a refund past its processing time is processed by any read, replay or decline, not declined', async () => {
    const site = await newSite('refund-due')
    const own = client(site)
    await siteOk(['refunds', site.siteId, 'postponed'])
    const paymentId = await own.newPayment(cardPayment())
    const ids = [uid('rf'), uid('rf'), uid('rf')]
    for (const id of ids) {
      const r = await own.put(`/payments/${paymentId}/refunds/${id}`, { amount: rub('10.00') })
      assert.equal(r.body.status.value, 'WAITING')
    }
    // their time moved into the past, as if the scheduler had not come by yet (it runs every second: whichever
    // comes first, the answers are the same)
    await sql(`UPDATE "Refund" SET "dueAt" = now() - interval '1 second' WHERE "siteId" = $1`, [site.siteId])
    const read = await own.get(`/payments/${paymentId}/refunds/${ids[0]}`)
    assert.equal(read.body.status.value, 'COMPLETED')
    const replay = await own.put(`/payments/${paymentId}/refunds/${ids[1]}`, { amount: rub('10.00') })
    assert.equal(replay.body.status.value, 'COMPLETED')
    assertErrorShape(
      await own.post(`/payments/${paymentId}/refunds/${ids[2]}/decline`),
      409,
      'payin.incorrect-method-invocation',
    )
    const all = (await own.get(`/payments/${paymentId}/refunds`)).body as any[]
    assert.deepEqual(
      all.map((r) => r.status.value),
      ['COMPLETED', 'COMPLETED', 'COMPLETED'],
    )
    assert.deepEqual((await own.paymentNow(paymentId)).refundedAmount, rub('30.00'))
  })

  test('declines racing the processing: each refund ends once, totals add up', async () => {
    const site = await newSite('refund-race')
    const own = client(site)
    await siteOk(['refunds', site.siteId, 'postponed'])
    const paymentId = await own.newPayment(cardPayment())
    const ids = Array.from({ length: 6 }, () => uid('rf'))
    for (const id of ids) await own.put(`/payments/${paymentId}/refunds/${id}`, { amount: rub('10.00') })
    await sql(`UPDATE "Refund" SET "dueAt" = now() + interval '50 milliseconds' WHERE "siteId" = $1`, [site.siteId])
    const answers = await Promise.all(ids.map((id) => own.post(`/payments/${paymentId}/refunds/${id}/decline`)))
    for (const a of answers) assert.ok(a.status === 200 || a.status === 409, a.text)
    const all = (await own.get(`/payments/${paymentId}/refunds`)).body as any[]
    const completed = all.filter((r) => r.status.value === 'COMPLETED').length
    const declined = all.filter((r) => r.status.value === 'DECLINED').length
    assert.equal(completed + declined, 6)
    assert.equal(declined, answers.filter((a) => a.status === 200).length)
    assert.deepEqual((await own.paymentNow(paymentId)).refundedAmount, rub(`${completed * 10}.00`))
  })
})
