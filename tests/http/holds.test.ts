// Holds that confirm themselves (the contract's "Production features", issue 30): an authorised, uncaptured payment
// is captured in full 72 h after its authorisation, or after the site's period (`npm run site -- holds <siteId>
// capture|reverse [<hours>]`, 1 h to 5 days), or reversed when the site sets auto-reversal; the scheduler applies it
// on the site's clock (here moved by the sandbox clock's advance, which applies what fell due before it answers),
// dated at that time, with its CAPTURE or REFUND (REVERSAL) notification. A partial refund of an uncaptured hold is a
// partial reversal: later captures are limited to what remains.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { client, newSite, rub, twoStepPayment, uid } from '../support/api.ts'
import { siteCommand, siteOk } from '../support/site-command.ts'

const HOUR = 3600

async function heldOn(label: string, setting?: string[]) {
  const site = await newSite(label)
  const api = client(site)
  if (setting) await siteOk(['holds', site.siteId, ...setting])
  const paymentId = await api.newPayment(twoStepPayment({ callbackUrl: 'https://shop.example/cb' }))
  const authorisedAt = Date.parse((await api.paymentNow(paymentId)).status.changedDateTime)
  const advance = async (seconds: number) => {
    const r = await api.post('/sandbox/clock/advance', { seconds })
    assert.equal(r.status, 200, r.text)
  }
  // the site's clock moved to `seconds` after the authorisation (whatever it was advanced by before)
  const advanceTo = async (seconds: number) => {
    const r = await api.post('/sandbox/clock/advance', { to: new Date(authorisedAt + seconds * 1000).toISOString() })
    assert.equal(r.status, 200, r.text)
  }
  const notes = async (type: string) =>
    ((await api.get('/notifications')).body as any[]).filter((n) => n.type === type && n.body)
  return { site, api, paymentId, authorisedAt, advance, advanceTo, notes }
}

describe('holds that confirm themselves', () => {
  test('captured in full 72 h after the authorisation, dated then, with its CAPTURE notification', async () => {
    const { api, paymentId, authorisedAt, advanceTo, notes } = await heldOn('hold-capture')
    await advanceTo(72 * HOUR - 60)
    assert.deepEqual((await api.paymentNow(paymentId)).capturedAmount, rub('0.00'), 'not yet')
    assert.equal((await notes('CAPTURE')).length, 0)
    await advanceTo(72 * HOUR + 60)
    const p = await api.paymentNow(paymentId)
    assert.deepEqual(p.capturedAmount, rub('100.00'))
    const [n, ...more] = await notes('CAPTURE')
    assert.equal(more.length, 0, 'once')
    assert.match(n.resourceId, /^auto-[0-9a-f-]{36}$/)
    assert.equal(n.body.capture.status.value, 'SUCCESS')
    assert.deepEqual(n.body.capture.amount, { value: 100, currency: 'RUB' }, 'a number, as notifications write it')
    const c = await api.get(`/payments/${paymentId}/captures/${n.resourceId}`)
    assert.equal(c.status, 200, c.text)
    assert.equal(c.body.status.value, 'COMPLETED')
    assert.equal(Date.parse(c.body.status.changedDateTime), authorisedAt + 72 * HOUR * 1000, 'dated at its time')
    // the merchant's capture after it: one successful capture per payment
    const late = await api.put(`/payments/${paymentId}/captures/${uid('cap')}`)
    assert.equal(late.status, 409, late.text)
  })

  test('reversed on a site set to auto-reversal with its own period; later captures decline', async () => {
    const { api, paymentId, authorisedAt, advanceTo, notes } = await heldOn('hold-reverse', ['reverse', '2'])
    await advanceTo(2 * HOUR - 60)
    assert.deepEqual((await api.paymentNow(paymentId)).refundedAmount, rub('0.00'), 'not yet')
    await advanceTo(2 * HOUR + 60)
    const p = await api.paymentNow(paymentId)
    assert.deepEqual(p.refundedAmount, rub('100.00'))
    assert.deepEqual(p.capturedAmount, rub('0.00'))
    const [n, ...more] = await notes('REFUND')
    assert.equal(more.length, 0, 'once')
    assert.match(n.resourceId, /^auto-/)
    assert.deepEqual(n.body.refund.flags, ['REVERSAL'])
    assert.equal(n.body.refund.status.value, 'SUCCESS')
    const [r] = (await api.get(`/payments/${paymentId}/refunds`)).body
    assert.equal(r.refundId, n.resourceId)
    assert.equal(Date.parse(r.status.changedDateTime), authorisedAt + 2 * HOUR * 1000, 'dated at its time')
    const cap = await api.put(`/payments/${paymentId}/captures/${uid('cap')}`)
    assert.equal(cap.body.status.value, 'DECLINED')
    assert.equal(cap.body.status.reason, 'INVALID_STATE')
    assert.equal((await notes('CAPTURE')).filter((c) => c.body.capture.status.value === 'SUCCESS').length, 0)
  })

  test("a changed period applies to the site's open holds", async () => {
    const { site, api, paymentId, advanceTo } = await heldOn('hold-changed')
    assert.match(await siteOk(['holds', site.siteId, 'capture', '1']), /captured in full 1 h after/)
    await advanceTo(HOUR + 60)
    assert.deepEqual((await api.paymentNow(paymentId)).capturedAmount, rub('100.00'))
    // the period kept when only the action is given
    assert.match(await siteOk(['holds', site.siteId, 'reverse']), /reversed 1 h after/)
  })

  test('a capture by the merchant before the time wins: nothing happens at the end of the period', async () => {
    const { api, paymentId, advanceTo, notes } = await heldOn('hold-captured')
    const cap = await api.put(`/payments/${paymentId}/captures/${uid('cap')}`, {
      amount: rub('40.00'),
      callbackUrl: 'https://shop.example/cb',
    })
    assert.equal(cap.body.status.value, 'COMPLETED', cap.text)
    await advanceTo(73 * HOUR)
    assert.deepEqual((await api.paymentNow(paymentId)).capturedAmount, rub('40.00'))
    assert.deepEqual(
      (await notes('CAPTURE')).map((n) => n.resourceId),
      [cap.body.captureId],
    )
  })

  test('partial reversals: captures limited to what remains, the rest confirmed at the end of the period', async () => {
    const { api, paymentId, advanceTo, notes } = await heldOn('hold-partial')
    const put = (value: string) => api.put(`/payments/${paymentId}/refunds/${uid('rv')}`, { amount: rub(value) })
    const first = await put('30.00')
    assert.equal(first.body.status.value, 'COMPLETED', first.text)
    assert.deepEqual(first.body.flags, ['REVERSAL'])
    const over = await put('70.01')
    assert.equal(over.body.status.value, 'DECLINED')
    assert.equal(over.body.status.reason, 'INVALID_AMOUNT')
    const tooMuch = await api.put(`/payments/${paymentId}/captures/${uid('cap')}`, { amount: rub('70.01') })
    assert.equal(tooMuch.body.status.value, 'DECLINED')
    assert.equal(tooMuch.body.status.reason, 'INVALID_AMOUNT')
    assert.deepEqual((await api.paymentNow(paymentId)).refundedAmount, rub('30.00'))
    await advanceTo(72 * HOUR + 60)
    const p = await api.paymentNow(paymentId)
    assert.deepEqual(p.capturedAmount, rub('70.00'), 'what remained')
    const auto = (await notes('CAPTURE')).filter((n) => n.body.capture.status.value === 'SUCCESS')
    assert.deepEqual(
      auto.map((n) => n.body.capture.amount.value),
      [70],
    )
    // refunds of the captured part: up to 70.00
    const refund = await api.put(`/payments/${paymentId}/refunds/${uid('rf')}`, { amount: rub('70.00') })
    assert.equal(refund.body.status.value, 'COMPLETED', refund.text)
    assert.deepEqual(refund.body.flags, [])
  })

  test('a reversal of all that remains releases the hold: captures decline, nothing at the end of the period', async () => {
    const { api, paymentId, advanceTo, notes } = await heldOn('hold-released')
    for (const value of ['30.00', '70.00']) {
      const r = await api.put(`/payments/${paymentId}/refunds/${uid('rv')}`, {
        amount: rub(value),
        callbackUrl: 'https://shop.example/cb',
      })
      assert.equal(r.body.status.value, 'COMPLETED', r.text)
      assert.deepEqual(r.body.flags, ['REVERSAL'])
    }
    const cap = await api.put(`/payments/${paymentId}/captures/${uid('cap')}`)
    assert.equal(cap.body.status.value, 'DECLINED')
    assert.equal(cap.body.status.reason, 'INVALID_STATE')
    await advanceTo(72 * HOUR + 60)
    const p = await api.paymentNow(paymentId)
    assert.deepEqual(p.refundedAmount, rub('100.00'))
    assert.deepEqual(p.capturedAmount, rub('0.00'))
    assert.equal((await notes('REFUND')).length, 2, 'the two reversals only')
  })

  test('the command refuses a period outside 1 h – 5 days, an unknown action and an unknown site', async () => {
    const site = await newSite('hold-command')
    for (const hours of ['0', '121', '1.5', 'x']) {
      const run = await siteCommand(['holds', site.siteId, 'capture', hours])
      assert.equal(run.code, 2, `${hours}: ${run.stderr}`)
    }
    assert.notEqual((await siteCommand(['holds', site.siteId, 'keep'])).code, 0)
    const unknown = await siteCommand(['holds', uid('nosite'), 'capture', '24'])
    assert.equal(unknown.code, 1, unknown.stderr)
    assert.match(await siteOk(['holds', site.siteId, 'capture', '120']), /captured in full 120 h after/)
  })
})
