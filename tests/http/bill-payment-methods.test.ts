// A bill's billPaymentMethodsType: taken on create (folded, part of the idempotency fingerprint, not answered back, as
// production's answer leaves it out), refused when malformed; the payment page offers only the listed methods it has
// (with the flags' rule on top), says so when it is left none, and refuses an attempt with a method not offered.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  BASE_URL,
  assertErrorShape,
  assertValidation,
  billRequest,
  client,
  newSite,
  request,
  uid,
} from '../support/api.ts'
import { sql } from '../support/db.ts'

let api: ReturnType<typeof client>
before(async () => {
  api = client(await newSite('bill-methods'))
})

async function newBill(over: Record<string, unknown> = {}, billId = uid('bill')) {
  const r = await api.put(`/bills/${billId}`, billRequest(over))
  assert.equal(r.status, 200, r.text)
  return { billId, invoiceUid: r.body.invoiceUid as string, answer: r.body }
}

const storedMethods = async (billId: string) =>
  (await sql<{ paymentMethods: string[] }>(`SELECT "paymentMethods" FROM "Bill" WHERE "billId" = $1`, [billId]))[0]
    ?.paymentMethods

const paymentsOf = async (billId: string) =>
  sql<{ methodType: string }>(`SELECT "methodType" FROM "Payment" WHERE "billId" = $1`, [billId])

/** the payment page of a bill: its status, its HTML and the data the form is rendered with (null without a form) */
async function page(invoiceUid: string, lang = 'en') {
  const res = await fetch(`${BASE_URL}/pay/${invoiceUid}`, { headers: { 'Accept-Language': lang } })
  const html = await res.text()
  const json = /<script type="application\/json" id="pay-form-data">([^<]*)<\/script>/.exec(html)?.[1]
  return { status: res.status, html, form: json ? (JSON.parse(json) as Record<string, unknown>) : null }
}

const card = { method: 'card', pan: '4111111111111111', expiry: '12/30', cvv: '123' }
const mobile = { method: 'mobile', phone: '79001234567' }
const attempt = (invoiceUid: string, body: unknown) => request('POST', `/pay/${invoiceUid}/attempts`, { body })

describe('billPaymentMethodsType on bill create', () => {
  test('accepted and kept, not answered back on create nor details', async () => {
    const { billId, answer } = await newBill({ billPaymentMethodsType: ['MOBILE', 'CARD'] })
    assert.equal(answer.billPaymentMethodsType, undefined)
    const details = await api.get(`/bills/${billId}/details`)
    assert.equal(details.status, 200, details.text)
    assert.equal(details.body.billPaymentMethodsType, undefined)
    assert.deepEqual(await storedMethods(billId), ['CARD', 'MOBILE'])
    // a bill without it keeps none: every method
    const plain = await newBill()
    assert.deepEqual(await storedMethods(plain.billId), [])
  })

  test('duplicates are folded and the order does not matter: the same list is the same bill; another is 409', async () => {
    const billId = uid('bill')
    const body = billRequest({ billPaymentMethodsType: ['SBP', 'QIWI_WALLET', 'SBP', 'QIWI_WALLET'] })
    const first = await api.put(`/bills/${billId}`, body)
    assert.equal(first.status, 200, first.text)
    assert.deepEqual(await storedMethods(billId), ['SBP', 'QIWI_WALLET'])
    const replay = await api.put(`/bills/${billId}`, { ...body, billPaymentMethodsType: ['QIWI_WALLET', 'SBP'] })
    assert.equal(replay.status, 200, replay.text)
    assert.deepEqual(replay.body, first.body)
    for (const other of [['SBP'], ['SBP', 'QIWI_WALLET', 'CARD'], undefined])
      assertErrorShape(
        await api.put(`/bills/${billId}`, { ...body, billPaymentMethodsType: other }),
        409,
        'payin.request.conflict',
      )
    assert.deepEqual(await storedMethods(billId), ['SBP', 'QIWI_WALLET'])
  })

  test('an unknown value, an empty list or another type is 400 naming the field; nothing is written', async () => {
    const cases: [unknown, string][] = [
      [['WALLET'], 'billPaymentMethodsType[0]'],
      [['CARD', 'card'], 'billPaymentMethodsType[1]'],
      [['CARD', null], 'billPaymentMethodsType[1]'],
      [[], 'billPaymentMethodsType'],
      ['CARD', 'billPaymentMethodsType'],
      [{ CARD: true }, 'billPaymentMethodsType'],
      [null, 'billPaymentMethodsType'],
    ]
    for (const [value, field] of cases) {
      const billId = uid('bill')
      const r = await api.put(`/bills/${billId}`, billRequest({ billPaymentMethodsType: value }))
      assertValidation(r, field)
      assert.equal(await storedMethods(billId), undefined, JSON.stringify(value))
    }
    const r = await api.put(`/bills/${uid('bill')}`, billRequest({ billPaymentMethodsType: ['APPLE_PAY'] }))
    assert.deepEqual(r.body.cause['billPaymentMethodsType[0]'], ['must be one of CARD, SBP, MOBILE, QIWI_WALLET'])
  })
})

describe("the payment page offers the bill's listed methods", () => {
  test('absent: the card and the mobile balance, as before', async () => {
    const { invoiceUid } = await newBill()
    const p = await page(invoiceUid)
    assert.equal(p.status, 200)
    assert.equal(p.form?.cardAllowed, true)
    assert.equal(p.form?.mobileAllowed, true)
    assert.match(p.html, /id="pan"/)
  })

  test('["MOBILE"]: the mobile balance only; a card attempt is refused and writes nothing; a mobile one is taken', async () => {
    const { billId, invoiceUid } = await newBill({ billPaymentMethodsType: ['MOBILE'] })
    const p = await page(invoiceUid)
    assert.equal(p.status, 200)
    assert.equal(p.form?.cardAllowed, false)
    assert.equal(p.form?.mobileAllowed, true)
    assert.match(p.html, /id="phone"/)
    assert.doesNotMatch(p.html, /id="pan"/)
    const refused = await attempt(invoiceUid, card)
    assertValidation(refused, 'method')
    assert.deepEqual(refused.body.cause.method, ['method.unavailable'])
    assert.deepEqual(await paymentsOf(billId), [])
    const taken = await attempt(invoiceUid, mobile)
    assert.equal(taken.status, 200, taken.text)
    assert.equal(taken.body.kind, 'otp')
    assert.deepEqual(await paymentsOf(billId), [{ methodType: 'MOBILE' }])
  })

  test('["CARD", "QIWI_WALLET"]: the card only; a mobile attempt is refused', async () => {
    const { billId, invoiceUid } = await newBill({ billPaymentMethodsType: ['CARD', 'QIWI_WALLET'] })
    const p = await page(invoiceUid)
    assert.equal(p.form?.cardAllowed, true)
    assert.equal(p.form?.mobileAllowed, false)
    assert.doesNotMatch(p.html, /id="phone"/)
    const refused = await attempt(invoiceUid, mobile)
    assert.deepEqual(refused.body.cause?.method, ['method.unavailable'], refused.text)
    assert.deepEqual(await paymentsOf(billId), [])
  })

  test('["QIWI_WALLET"]: no method the page has: the message in the payer\'s language, no form, attempts refused', async () => {
    const { billId, invoiceUid } = await newBill({ billPaymentMethodsType: ['QIWI_WALLET'] })
    const en = await page(invoiceUid, 'en')
    assert.equal(en.status, 200)
    assert.equal(en.form, null)
    assert.match(en.html, /This bill cannot be paid here/)
    assert.doesNotMatch(en.html, /id="pay-form"/)
    const ru = await page(invoiceUid, 'ru')
    assert.match(ru.html, /Этот счёт нельзя оплатить здесь/)
    for (const body of [card, mobile]) {
      const refused = await attempt(invoiceUid, body)
      assertValidation(refused, 'method')
      assert.deepEqual(refused.body.cause.method, ['method.unavailable'])
    }
    assert.deepEqual(await paymentsOf(billId), [])
  })

  test("the flags' rule on top: a token-binding bill listing MOBILE only offers nothing; mobile is refused by flag", async () => {
    const { billId, invoiceUid } = await newBill({
      billPaymentMethodsType: ['MOBILE'],
      flags: ['SALE', 'BIND_PAYMENT_TOKEN'],
      customer: { account: 'acc-1' },
    })
    const p = await page(invoiceUid)
    assert.equal(p.form, null)
    assert.match(p.html, /This bill cannot be paid here/)
    assert.deepEqual((await attempt(invoiceUid, mobile)).body.cause?.method, ['mobile.unavailable'])
    assert.deepEqual((await attempt(invoiceUid, card)).body.cause?.method, ['method.unavailable'])
    assert.deepEqual(await paymentsOf(billId), [])
    // listing the card too: the card alone
    const both = await newBill({
      billPaymentMethodsType: ['MOBILE', 'CARD'],
      flags: ['SALE', 'BIND_PAYMENT_TOKEN'],
      customer: { account: 'acc-1' },
    })
    const q = await page(both.invoiceUid)
    assert.equal(q.form?.cardAllowed, true)
    assert.equal(q.form?.mobileAllowed, false)
  })
})
