// A bill's life through its payments: CREATED → PAID (once, even under concurrent payers),
// CREATED → EXPIRED when the deadline passes; both final. The reads list the bill's payments.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  assertErrorShape,
  assertValidation,
  besidesAuthorisation,
  BILL_TIME,
  billRequest,
  cardPayment,
  client,
  newSite,
  rub,
  twoStepPayment,
  uid,
  WIRE_TIME,
} from '../support/api.ts'
import { sql } from '../support/db.ts'

const DELAY = Number(process.env.MOBILE_OPERATOR_DELAY_MS ?? 3000)

/** moves the bill's deadline one second into the past */
const expire = (billId: string) =>
  sql(`UPDATE "Bill" SET "expiresAt" = now() - interval '1 second' WHERE "billId" = $1`, [billId])

describe('paying a bill', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('bill-pay'))
  })

  async function newBill(over: Record<string, unknown> = {}, billId = uid('bill')) {
    const r = await api.put(`/bills/${billId}`, billRequest(over))
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'CREATED')
    return r.body
  }

  async function pay(body: unknown, id = uid('pay')) {
    const r = await api.put(`/payments/${id}`, body)
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.paymentId, id)
    return r.body
  }

  async function details(billId: string) {
    const r = await api.get(`/bills/${billId}/details`)
    assert.equal(r.status, 200, r.text)
    return r.body
  }

  async function list(billId: string) {
    const r = await api.get(`/bills/${billId}`)
    assert.equal(r.status, 200, r.text)
    assert.ok(Array.isArray(r.body), r.text)
    return r.body as any[]
  }

  test('a COMPLETED payment naming the bill makes it PAID; both reads list the payment', async () => {
    const bill = await newBill()
    const before = Date.now()
    const p = await pay(
      cardPayment({
        billId: bill.billId,
        amount: rub('3.00'),
        comment: 'order 1',
        customer: { account: 'acc-1', email: 'a@example.com' },
      }),
    )
    assert.equal(p.status.value, 'COMPLETED')
    assert.equal(p.billId, bill.billId)

    const d = await details(bill.billId)
    assert.equal(d.status.value, 'PAID')
    assert.match(d.status.changedDateTime, BILL_TIME)
    const changed = Date.parse(d.status.changedDateTime)
    assert.ok(
      changed >= Math.floor(before / 1000) * 1000 && changed <= Date.now(),
      `PAID at ${d.status.changedDateTime}`,
    )
    assert.equal(d.invoiceUid, bill.invoiceUid)
    assert.equal(d.expirationDateTime, bill.expirationDateTime)
    assert.equal(d.creationDateTime, bill.creationDateTime)
    assert.deepEqual(d.amount, rub('3.00'))
    assert.equal(d.payments.length, 1)
    const bp = d.payments[0]
    assert.equal(bp.siteId, api.site.siteId)
    assert.equal(bp.paymentId, p.paymentId)
    assert.equal(bp.billId, bill.billId)
    assert.match(bp.createdDateTime, WIRE_TIME)
    assert.equal(bp.createdDateTime, p.createdDateTime)
    assert.deepEqual(bp.amount, rub('3.00'))
    assert.deepEqual(bp.capturedAmount, rub('3.00'), 'SALE: captured at once')
    assert.deepEqual(bp.refundedAmount, rub('0.00'))
    assert.deepEqual(besidesAuthorisation(bp.paymentMethod), { type: 'CARD', maskedPan: '411111******1111' })
    assert.equal(bp.status.value, 'COMPLETED')
    assert.match(bp.status.changedDateTime, WIRE_TIME)
    assert.equal(bp.status.reason, undefined)
    assert.deepEqual(bp.customer, { account: 'acc-1', email: 'a@example.com' })
    assert.equal(bp.comment, 'order 1')
    assert.deepEqual(bp.flags, ['SALE'])
    assert.doesNotMatch(JSON.stringify(d), /4111111111111111/)

    const l = await list(bill.billId)
    assert.equal(l.length, 1)
    assert.equal('siteId' in l[0], false, 'the list variant has no siteId')
    const { siteId: _, ...withoutSite } = bp
    assert.deepEqual(l[0], withoutSite)
  })

  test('a paid bill declines later payments with BILL_ALREADY_PAID and stays PAID', async () => {
    const bill = await newBill()
    const first = await pay(cardPayment({ billId: bill.billId, amount: rub('3.00') }))
    assert.equal(first.status.value, 'COMPLETED')
    const paidAt = (await details(bill.billId)).status.changedDateTime
    await sleep(1100)
    const second = await pay(cardPayment({ billId: bill.billId, amount: rub('3.00') }, { pan: '5555555555554444' }))
    assert.equal(second.status.value, 'DECLINED')
    assert.equal(second.status.reason, 'BILL_ALREADY_PAID')
    assert.deepEqual(second.capturedAmount, rub('0.00'))
    const d = await details(bill.billId)
    assert.equal(d.status.value, 'PAID')
    assert.equal(d.status.changedDateTime, paidAt, 'the bill was paid once, by the first payment')
    assert.deepEqual(
      d.payments.map((p: any) => [p.paymentId, p.status.value, p.status.reason]),
      [
        [first.paymentId, 'COMPLETED', undefined],
        [second.paymentId, 'DECLINED', 'BILL_ALREADY_PAID'],
      ],
    )
    assert.deepEqual(d.payments[1].paymentMethod, { type: 'CARD', maskedPan: '555555******4444' })
  })

  test('a DECLINED payment leaves the bill CREATED; a later approved one pays it; payments oldest first', async () => {
    const bill = await newBill()
    const declined = await pay(cardPayment({ billId: bill.billId, amount: rub('3.00') }, { pan: '4000000000000002' }))
    assert.equal(declined.status.reason, 'ACQUIRING_DECLINED')
    let d = await details(bill.billId)
    assert.equal(d.status.value, 'CREATED')
    assert.equal(d.status.changedDateTime, bill.status.changedDateTime)
    assert.equal(d.payments.length, 1)
    assert.equal(d.payments[0].status.value, 'DECLINED')
    assert.equal(d.payments[0].status.reason, 'ACQUIRING_DECLINED')
    assert.deepEqual(d.payments[0].capturedAmount, rub('0.00'))

    const poor = await pay(cardPayment({ billId: bill.billId, amount: rub('3.00') }, { pan: '4000000000009995' }))
    assert.equal(poor.status.reason, 'ACQUIRING_INSUFFICIENT_FUNDS')
    assert.equal((await details(bill.billId)).status.value, 'CREATED')

    const ok = await pay(cardPayment({ billId: bill.billId, amount: rub('3.00') }))
    assert.equal(ok.status.value, 'COMPLETED')
    d = await details(bill.billId)
    assert.equal(d.status.value, 'PAID')
    assert.deepEqual(
      d.payments.map((p: any) => p.paymentId),
      [declined.paymentId, poor.paymentId, ok.paymentId],
    )
    assert.deepEqual(
      (await list(bill.billId)).map((p) => p.paymentId),
      [declined.paymentId, poor.paymentId, ok.paymentId],
    )
  })

  test("a payment in another currency or amount than the bill's is 400 and the bill stays unpaid with no payment", async () => {
    const bill = await newBill()
    const a = uid('pay')
    assertValidation(
      await api.put(`/payments/${a}`, cardPayment({ billId: bill.billId, amount: { value: '3.00', currency: 'USD' } })),
      'amount.currency',
    )
    assertErrorShape(await api.get(`/payments/${a}`), 404, 'payin.resource.not.found')
    const b = uid('pay')
    assertValidation(
      await api.put(`/payments/${b}`, cardPayment({ billId: bill.billId, amount: rub('3.01') })),
      'amount.value',
    )
    assertValidation(
      await api.put(`/payments/${b}`, cardPayment({ billId: bill.billId, amount: rub('100.00') })),
      'amount.value',
    )
    assertErrorShape(await api.get(`/payments/${b}`), 404, 'payin.resource.not.found')
    const d = await details(bill.billId)
    assert.equal(d.status.value, 'CREATED')
    assert.deepEqual(d.payments, [])
    assert.equal(
      (await pay(cardPayment({ billId: bill.billId, amount: { value: 3, currency: 'RUB' } }))).status.value,
      'COMPLETED',
    )
    assert.equal((await details(bill.billId)).status.value, 'PAID')
  })

  test('an open bill (no amount.value) accepts any amount in its currency', async () => {
    const bill = await newBill({ amount: { currency: 'RUB' } })
    const c = uid('pay')
    assertValidation(
      await api.put(`/payments/${c}`, cardPayment({ billId: bill.billId, amount: { value: '5.00', currency: 'EUR' } })),
      'amount.currency',
    )
    const p = await pay(cardPayment({ billId: bill.billId, amount: rub('1234.56') }))
    assert.equal(p.status.value, 'COMPLETED')
    const d = await details(bill.billId)
    assert.equal(d.status.value, 'PAID')
    assert.deepEqual(d.amount, { currency: 'RUB' }, 'the bill stays open-amount')
    assert.deepEqual(d.payments[0].amount, rub('1234.56'))
  })

  test('a two-step authorised payment pays the bill; captured 0.00 until captured', async () => {
    const bill = await newBill({ flags: [] })
    const p = await pay(twoStepPayment({ billId: bill.billId, amount: rub('3.00') }))
    assert.equal(p.status.value, 'COMPLETED')
    let d = await details(bill.billId)
    assert.equal(d.status.value, 'PAID')
    assert.deepEqual(d.payments[0].capturedAmount, rub('0.00'))
    assert.deepEqual(d.payments[0].flags, [])
    const cap = await api.put(`/payments/${p.paymentId}/captures/${uid('cap')}`)
    assert.equal(cap.body.status.value, 'COMPLETED', cap.text)
    d = await details(bill.billId)
    assert.deepEqual(d.payments[0].capturedAmount, rub('3.00'))
    assert.equal(d.status.value, 'PAID')
  })

  test("refunds show in the bill's payments; the bill stays PAID", async () => {
    const bill = await newBill({ amount: rub('10.00') })
    const p = await pay(cardPayment({ billId: bill.billId, amount: rub('10.00') }))
    const r = await api.put(`/payments/${p.paymentId}/refunds/${uid('ref')}`, { amount: rub('4.00') })
    assert.equal(r.body.status.value, 'COMPLETED', r.text)
    const d = await details(bill.billId)
    assert.equal(d.status.value, 'PAID')
    assert.deepEqual(d.payments[0].refundedAmount, rub('4.00'))
    assert.deepEqual((await list(bill.billId))[0].refundedAmount, rub('4.00'))
  })

  test("a payment's implicit bill is readable: its amount, PAID, and the payment", async () => {
    const billId = uid('bill')
    const p = await pay(cardPayment({ billId, amount: rub('42.00') }))
    const d = await details(billId)
    assert.equal(d.billId, billId)
    assert.deepEqual(d.amount, rub('42.00'))
    assert.equal(d.status.value, 'PAID')
    assert.deepEqual(
      d.payments.map((x: any) => x.paymentId),
      [p.paymentId],
    )
    // and a generated billId too
    const g = await pay(cardPayment())
    const gd = await details(g.billId)
    assert.equal(gd.status.value, 'PAID')
    assert.equal(gd.payments[0].paymentId, g.paymentId)
  })

  test('a bill is never paid twice: 10 concurrent approved payments → one COMPLETED, nine BILL_ALREADY_PAID', async () => {
    const bill = await newBill()
    const ids = Array.from({ length: 10 }, () => uid('pay'))
    const answers = await Promise.all(
      ids.map((id) => api.put(`/payments/${id}`, cardPayment({ billId: bill.billId, amount: rub('3.00') }))),
    )
    for (const a of answers) assert.equal(a.status, 200, a.text)
    const completed = answers.filter((a) => a.body.status.value === 'COMPLETED')
    const declined = answers.filter((a) => a.body.status.value === 'DECLINED')
    assert.equal(
      completed.length,
      1,
      answers.map((a) => `${a.body.status.value} ${a.body.status.reason ?? ''}`).join(', '),
    )
    assert.equal(declined.length, 9)
    for (const a of declined) {
      assert.equal(a.body.status.reason, 'BILL_ALREADY_PAID')
      assert.deepEqual(a.body.capturedAmount, rub('0.00'))
    }
    const d = await details(bill.billId)
    assert.equal(d.status.value, 'PAID')
    assert.equal(d.payments.length, 10)
    const done = d.payments.filter((p: any) => p.status.value === 'COMPLETED')
    assert.equal(done.length, 1)
    assert.equal(done[0].paymentId, completed[0].body.paymentId)
    assert.equal(d.payments.filter((p: any) => p.status.reason === 'BILL_ALREADY_PAID').length, 9)
  })

  test('mobile payment (operator confirms): the bill is CREATED until then, then PAID on the next read alone', async () => {
    const bill = await newBill()
    const p = await pay({
      paymentMethod: { type: 'MOBILE', phone: '79001230000' },
      amount: rub('3.00'),
      flags: ['SALE'],
      billId: bill.billId,
    })
    assert.equal(p.status.value, 'WAITING')
    let d = await details(bill.billId)
    assert.equal(d.status.value, 'CREATED')
    assert.equal(d.payments[0].status.value, 'WAITING')
    assert.deepEqual(d.payments[0].paymentMethod, { type: 'MOBILE' })
    await sleep(DELAY + 400)
    d = await details(bill.billId) // no other call in between
    assert.equal(d.status.value, 'PAID')
    assert.equal(d.payments[0].status.value, 'COMPLETED')
    assert.deepEqual(d.payments[0].capturedAmount, rub('3.00'))
    // paid when the operator answered, not when read
    const confirmed = Date.parse(d.payments[0].status.changedDateTime) - Date.parse(d.payments[0].createdDateTime)
    assert.ok(Math.abs(confirmed - DELAY) < 1000, `confirmed ${confirmed} ms after creation`)
    assert.ok(
      Date.parse(d.status.changedDateTime) <= Date.parse(d.payments[0].status.changedDateTime),
      `bill PAID at ${d.status.changedDateTime}`,
    )
  })

  test('mobile payment confirmed: the bill payment list alone also brings the bill up to date', async () => {
    const bill = await newBill()
    const p = await pay({
      paymentMethod: { type: 'MOBILE', phone: '79001230000' },
      amount: rub('3.00'),
      flags: ['SALE'],
      billId: bill.billId,
    })
    assert.equal(p.status.value, 'WAITING')
    await sleep(DELAY + 400)
    const l = await list(bill.billId)
    assert.equal(l[0].status.value, 'COMPLETED')
    assert.equal((await details(bill.billId)).status.value, 'PAID')
    const late = await pay(cardPayment({ billId: bill.billId, amount: rub('3.00') }))
    assert.equal(late.status.reason, 'BILL_ALREADY_PAID')
  })
})

describe('bill expiry', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('bill-expiry'))
  })

  async function newBill(over: Record<string, unknown> = {}) {
    const billId = uid('bill')
    const r = await api.put(`/bills/${billId}`, billRequest(over))
    assert.equal(r.status, 200, r.text)
    return r.body
  }

  test('an unpaid bill past its deadline reads EXPIRED, changed at its expirationDateTime', async () => {
    const bill = await newBill()
    await expire(bill.billId)
    const r = await api.get(`/bills/${bill.billId}/details`)
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'EXPIRED')
    assert.match(r.body.expirationDateTime, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/)
    assert.ok(Date.parse(r.body.expirationDateTime) <= Date.now(), 'the deadline read back is the moved one')
    assert.equal(r.body.status.changedDateTime, r.body.expirationDateTime)
    assert.equal(r.body.invoiceUid, bill.invoiceUid)
    assert.deepEqual(r.body.payments, [])
    const l = await api.get(`/bills/${bill.billId}`)
    assert.equal(l.status, 200, l.text)
    assert.deepEqual(l.body, [])
  })

  test('a payment on an expired bill is DECLINED BILL_EXPIRED; the bill stays EXPIRED', async () => {
    const bill = await newBill()
    await expire(bill.billId)
    const id = uid('pay')
    const r = await api.put(`/payments/${id}`, cardPayment({ billId: bill.billId, amount: rub('3.00') }))
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'DECLINED')
    assert.equal(r.body.status.reason, 'BILL_EXPIRED')
    assert.equal(r.body.billId, bill.billId)
    assert.deepEqual(r.body.capturedAmount, rub('0.00'))
    const d = (await api.get(`/bills/${bill.billId}/details`)).body
    assert.equal(d.status.value, 'EXPIRED')
    assert.equal(d.payments.length, 1)
    assert.equal(d.payments[0].paymentId, id)
    assert.equal(d.payments[0].status.reason, 'BILL_EXPIRED')
  })

  test('a bill that expired after a declined payment is EXPIRED and declines the next payer', async () => {
    const bill = await newBill()
    const first = await api.put(
      `/payments/${uid('pay')}`,
      cardPayment({ billId: bill.billId, amount: rub('3.00') }, { pan: '4000000000000002' }),
    )
    assert.equal(first.body.status.reason, 'ACQUIRING_DECLINED')
    await expire(bill.billId)
    assert.equal((await api.get(`/bills/${bill.billId}/details`)).body.status.value, 'EXPIRED')
    const late = await api.put(`/payments/${uid('pay')}`, cardPayment({ billId: bill.billId, amount: rub('3.00') }))
    assert.equal(late.body.status.reason, 'BILL_EXPIRED')
  })

  test('an expired bill still checks currency and amount of a payment (400, nothing created)', async () => {
    const bill = await newBill()
    await expire(bill.billId)
    const id = uid('pay')
    assertValidation(
      await api.put(`/payments/${id}`, cardPayment({ billId: bill.billId, amount: rub('9.00') })),
      'amount.value',
    )
    assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
  })

  test('a paid bill whose deadline passes stays PAID', async () => {
    const bill = await newBill()
    const p = await api.put(`/payments/${uid('pay')}`, cardPayment({ billId: bill.billId, amount: rub('3.00') }))
    assert.equal(p.body.status.value, 'COMPLETED', p.text)
    const paid = (await api.get(`/bills/${bill.billId}/details`)).body
    assert.equal(paid.status.value, 'PAID')
    await expire(bill.billId)
    const d = (await api.get(`/bills/${bill.billId}/details`)).body
    assert.equal(d.status.value, 'PAID')
    assert.equal(d.status.changedDateTime, paid.status.changedDateTime)
    const late = await api.put(`/payments/${uid('pay')}`, cardPayment({ billId: bill.billId, amount: rub('3.00') }))
    assert.equal(late.body.status.reason, 'BILL_ALREADY_PAID')
  })

  test('a bill paid by a confirmed mobile payment stays PAID after its deadline', async () => {
    const bill = await newBill()
    const p = await api.put(`/payments/${uid('pay')}`, {
      paymentMethod: { type: 'MOBILE', phone: '79001230000' },
      amount: rub('3.00'),
      flags: ['SALE'],
      billId: bill.billId,
    })
    assert.equal(p.body.status.value, 'WAITING', p.text)
    await sleep(DELAY + 400)
    const d = (await api.get(`/bills/${bill.billId}/details`)).body
    assert.equal(d.status.value, 'PAID')
    await expire(bill.billId)
    assert.equal((await api.get(`/bills/${bill.billId}/details`)).body.status.value, 'PAID', 'PAID is final')
  })
})
