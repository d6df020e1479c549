// 54-FZ receipts (production's `_54fz-data_en`): the `cheque` of a bill, a payment (its own, else its bill's) and a
// refund: validated as documented (known codes; the positions' sums, price × quantity rounded to the kopeck, add up to
// the amount exactly), kept and answered; a successful card operation with one tells chequeData, in its answers and
// its notification, whose url is null: the sandbox sends no receipt to any tax service. A hold's comes with its capture
// (in full only), never with a hold that captured nothing.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  assertErrorShape,
  assertValidation,
  billRequest,
  cardPayment,
  client,
  newSite,
  rub,
  twoStepPayment,
  uid,
} from '../support/api.ts'
import { sql } from '../support/db.ts'

/** production's example position (7.82 RUB); `over` replaces fields */
const position = (over: Record<string, unknown> = {}) => ({
  quantity: 1,
  price: { value: 7.82, currency: 'RUB' },
  tax: 'NDS_0',
  paymentSubject: 'PAYMENT',
  paymentMethod: 'FULL_PAYMENT',
  description: 'Test description',
  ...over,
})

/** production's example cheque; `over` replaces fields */
const cheque = (over: Record<string, unknown> = {}) => ({
  sellerId: 3123011520,
  customerContact: 'Test customer contact',
  chequeType: 'COLLECT',
  taxSystem: 'OSN',
  positions: [position()],
  ...over,
})

/** the example cheque as answered: prices as amounts with string values */
const answered = (over: Record<string, unknown> = {}) => ({
  ...cheque(over),
  positions: [{ ...position(), price: rub('7.82') }],
})

const CHEQUE_DATA = /^sandbox-[A-Za-z0-9_-]{22}$/

describe('54-FZ receipts', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    const site = await newSite('cheques')
    api = client(site)
    // a URL for the outbox to name (this suite's server posts nothing)
    await sql(`UPDATE "Site" SET "notifyUrl" = 'https://shop.example/hook' WHERE id = $1`, [site.siteId])
  })

  /** the notification object the outbox holds for a resource */
  const notified = async (resourceId: string) => {
    const list = (await api.get('/notifications')).body as any[]
    const n = list.find((x) => x.resourceId === resourceId)
    assert.ok(n, `a notification of ${resourceId}`)
    return Object.values(n.body)[0] as any
  }

  test("a payment's cheque: kept and answered, its chequeData answered and notified (url null)", async () => {
    const id = uid('pay')
    const paid = await api.put(`/payments/${id}`, cardPayment({ amount: rub('7.82'), cheque: cheque() }))
    assert.equal(paid.status, 200, paid.text)
    assert.equal(paid.body.status.value, 'COMPLETED')
    assert.deepEqual(paid.body.cheque, answered())
    assert.match(paid.body.chequeData.id, CHEQUE_DATA)
    assert.equal(paid.body.chequeData.url, null)
    const read = await api.paymentNow(id)
    assert.deepEqual(read.chequeData, paid.body.chequeData, 'the same receipt on every read')
    assert.deepEqual(read.cheque, paid.body.cheque)
    const n = await notified(id)
    assert.deepEqual(n.chequeData, paid.body.chequeData)
    assert.equal(n.cheque, undefined, 'notifications tell chequeData alone, as production')
    // none without a cheque
    const plain = uid('pay')
    const alone = await api.put(`/payments/${plain}`, cardPayment())
    assert.equal(alone.body.chequeData, undefined)
    assert.equal((await notified(plain)).chequeData, undefined)
  })

  test('a declined payment keeps its cheque and tells no chequeData', async () => {
    const id = uid('pay')
    const declined = await api.put(
      `/payments/${id}`,
      cardPayment({ amount: rub('7.82'), cheque: cheque() }, { pan: '4000000000000002' }),
    )
    assert.equal(declined.body.status.value, 'DECLINED', declined.text)
    assert.deepEqual(declined.body.cheque, answered())
    assert.equal(declined.body.chequeData, undefined)
    assert.equal((await notified(id)).chequeData, undefined)
  })

  test('a hold with a cheque: its receipt comes with its capture (in full only), never for a released hold', async () => {
    const held = await api.newPayment(twoStepPayment({ amount: rub('7.82'), cheque: cheque() }))
    assert.equal((await api.paymentNow(held)).chequeData, undefined, 'an authorisation sold nothing yet')
    assert.equal((await notified(held)).chequeData, undefined)
    // the cheque adds up to all the hold: a capture of less is declined as one above it
    const part = await api.put(`/payments/${held}/captures/${uid('cap')}`, { amount: rub('7.00') })
    assert.deepEqual([part.body.status.value, part.body.status.reason], ['DECLINED', 'INVALID_AMOUNT'], part.text)
    assert.equal((await api.paymentNow(held)).chequeData, undefined)
    const captureId = uid('cap')
    const all = await api.put(`/payments/${held}/captures/${captureId}`, {})
    assert.equal(all.body.status.value, 'COMPLETED', all.text)
    const receipt = (await api.paymentNow(held)).chequeData
    assert.match(receipt?.id ?? '', CHEQUE_DATA)
    assert.deepEqual((await notified(captureId)).chequeData, receipt, "the capture's notification tells the receipt")

    const released = await api.newPayment(twoStepPayment({ amount: rub('7.82'), cheque: cheque() }))
    const refundId = uid('ref')
    const reversal = await api.put(`/payments/${released}/refunds/${refundId}`, { amount: rub('7.82') })
    assert.deepEqual(reversal.body.flags, ['REVERSAL'], reversal.text)
    assert.equal((await api.paymentNow(released)).chequeData, undefined)
    assert.equal((await notified(refundId)).chequeData, undefined)
  })

  test("a bill's cheque: answered, replayed, and taken by its payments that give none", async () => {
    const billId = uid('bill')
    const request = billRequest({ amount: rub('7.82'), cheque: cheque({ sellerId: '0123456789' }) })
    const bill = await api.put(`/bills/${billId}`, request)
    assert.equal(bill.status, 200, bill.text)
    assert.deepEqual(bill.body.cheque, answered({ sellerId: '0123456789' }), 'a TIN as a string keeps its zero')
    assert.equal((await api.put(`/bills/${billId}`, request)).status, 200)
    assertErrorShape(
      await api.put(`/bills/${billId}`, { ...request, cheque: cheque({ taxSystem: 'USN' }) }),
      409,
      'payin.request.conflict',
    )
    const id = uid('pay')
    const paid = await api.put(`/payments/${id}`, cardPayment({ billId, amount: rub('7.82') }))
    assert.equal(paid.status, 200, paid.text)
    assert.deepEqual(paid.body.cheque, answered({ sellerId: '0123456789' }))
    assert.match(paid.body.chequeData.id, CHEQUE_DATA)
    assert.deepEqual((await api.get(`/bills/${billId}/details`)).body.payments[0].chequeData, paid.body.chequeData)
  })

  test("the positions' sums add up to the amount exactly: price × quantity rounded to the kopeck", async () => {
    // 10.00 × 0.333 = 3.33; 0.01 × 1.5 = 0.015, rounded half up to 0.02 (three of them: 0.06); 3.39 in all
    const positions = [
      position({ quantity: '0.333', price: { value: '10.00', currency: 'RUB' } }),
      ...Array.from({ length: 3 }, () => position({ quantity: 1.5, price: 0.01 })),
    ]
    const exact = await api.put(
      `/payments/${uid('pay')}`,
      cardPayment({ amount: rub('3.39'), cheque: cheque({ positions }) }),
    )
    assert.equal(exact.status, 200, exact.text)
    assert.deepEqual(
      exact.body.cheque.positions.map((p: any) => [p.quantity, p.price.value]),
      [
        [0.333, '10.00'],
        [1.5, '0.01'],
        [1.5, '0.01'],
        [1.5, '0.01'],
      ],
    )
    const id = uid('pay')
    const off = await api.put(`/payments/${id}`, cardPayment({ amount: rub('3.40'), cheque: cheque({ positions }) }))
    assertValidation(off, 'cheque.positions')
    assert.equal((await api.get(`/payments/${id}`)).status, 404, 'no payment written')
  })

  test('every field is checked as documented: a 400 naming it, nothing written', async () => {
    const pay = (c: unknown, over: Record<string, unknown> = {}) =>
      api.put(`/payments/${uid('pay')}`, cardPayment({ amount: rub('7.82'), cheque: c, ...over }))
    assertValidation(await pay(cheque({ sellerId: 12345 })), 'cheque.sellerId')
    assertValidation(await pay(cheque({ sellerId: undefined })), 'cheque.sellerId')
    assertValidation(await pay(cheque({ customerContact: 'x'.repeat(65) })), 'cheque.customerContact')
    assertValidation(await pay(cheque({ chequeType: 'INCOME' })), 'cheque.chequeType')
    assertValidation(await pay(cheque({ taxSystem: 'NONE' })), 'cheque.taxSystem')
    assertValidation(await pay(cheque({ positions: [] })), 'cheque.positions')
    assertValidation(await pay(cheque({ positions: [position({ tax: 'NDS_25' })] })), 'cheque.positions[0].tax')
    assertValidation(
      await pay(cheque({ positions: [position({ paymentMethod: 'CASH' })] })),
      'cheque.positions[0].paymentMethod',
    )
    assertValidation(
      await pay(cheque({ positions: [position({ paymentSubject: 'GOODS' })] })),
      'cheque.positions[0].paymentSubject',
    )
    assertValidation(
      await pay(cheque({ positions: [position({ description: 'x'.repeat(129) })] })),
      'cheque.positions[0].description',
    )
    assertValidation(await pay(cheque({ positions: [position({ quantity: 0 })] })), 'cheque.positions[0].quantity')
    assertValidation(
      await pay(cheque({ positions: [position({ price: { value: '7.82', currency: 'USD' } })] })),
      'cheque.positions[0].price.currency',
    )
    assertValidation(await pay('receipt'), 'cheque')
    const billId = uid('bill')
    assertValidation(
      await api.put(`/bills/${billId}`, billRequest({ amount: { currency: 'RUB' }, cheque: cheque() })),
      'amount.value',
    )
    assert.equal((await api.get(`/bills/${billId}`)).status, 404, 'no bill written')
  })

  test("a refund's cheque: answered with its chequeData, notified; checked against the refund's amount", async () => {
    const p = await api.newPayment(cardPayment({ amount: rub('7.82'), cheque: cheque() }))
    const refundId = uid('ref')
    const back = cheque({ chequeType: 'COLLECT_RETURN' })
    const r = await api.put(`/payments/${p}/refunds/${refundId}`, { amount: rub('7.82'), cheque: back })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'COMPLETED')
    assert.deepEqual(r.body.cheque, answered({ chequeType: 'COLLECT_RETURN' }))
    assert.match(r.body.chequeData.id, CHEQUE_DATA)
    assert.equal(r.body.chequeData.url, null)
    assert.deepEqual((await notified(refundId)).chequeData, r.body.chequeData)
    assert.deepEqual(
      (await api.put(`/payments/${p}/refunds/${refundId}`, { amount: rub('7.82'), cheque: back })).body,
      r.body,
    )
    const other = await api.newPayment(cardPayment({ amount: rub('7.82') }))
    assertValidation(
      await api.put(`/payments/${other}/refunds/${uid('ref')}`, { amount: rub('1.00'), cheque: back }),
      'cheque.positions',
    )
    assert.deepEqual((await api.paymentNow(other)).refundedAmount, rub('0.00'))
  })

  test('a phone payment keeps its cheque but gets no receipt, and its refunds take no cheque', async () => {
    const id = uid('pay')
    const mobile = { paymentMethod: { type: 'MOBILE', phone: '79001234567' }, flags: ['SALE'], amount: rub('7.82') }
    const paid = await api.put(`/payments/${id}`, { ...mobile, cheque: cheque() })
    assert.equal(paid.status, 200, paid.text)
    assert.deepEqual(paid.body.cheque, answered())
    assert.equal(paid.body.chequeData, undefined)
    const refundId = uid('ref')
    const refused = await api.put(`/payments/${id}/refunds/${refundId}`, { amount: rub('7.82'), cheque: cheque() })
    assertValidation(refused, 'cheque')
    assert.equal((await api.get(`/payments/${id}/refunds/${refundId}`)).status, 404, 'no refund written')
  })
})
