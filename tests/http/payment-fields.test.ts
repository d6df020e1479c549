// The fields production answers and notifies beside the contract's first ones: a payment's own customFields (over
// its bill's), its deviceData, a card payment's rrn, authCode and paymentCardInfo in answers and bill details, and in
// notifications the site (merchantSiteUid), the acquirer's authorisation (gatewayData), the card's holder and expiry,
// the token a TOKEN payment charged and an issuer decline's errorCode. Notifications are read from the site's outbox
// list (written with each status change: no delivery needed); their delivery is tests/http/notifications.test.ts.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
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
import { passChallenge } from '../support/three-ds.ts'

describe('payment fields', () => {
  let api: ReturnType<typeof client>
  let siteId: string
  before(async () => {
    const site = await newSite('fields')
    siteId = site.siteId
    api = client(site)
    // a URL for the outbox to name (this suite's server posts nothing)
    await sql(`UPDATE "Site" SET "notifyUrl" = 'https://shop.example/hook' WHERE id = $1`, [siteId])
  })

  /** the notification object the outbox holds for a resource (as the merchant's list shows it) */
  const notified = async (resourceId: string) => {
    const list = (await api.get('/notifications')).body as any[]
    const n = list.find((x) => x.resourceId === resourceId)
    assert.ok(n, `a notification of ${resourceId}`)
    return Object.values(n.body)[0] as any
  }

  test("a payment's customFields: answered, over its bill's (its value wins), and notified", async () => {
    const billId = uid('bill')
    const bill = await api.put(`/bills/${billId}`, billRequest({ customFields: { order: 'A-17', shop: 'north' } }))
    assert.equal(bill.status, 200, bill.text)
    const id = uid('pay')
    const paid = await api.put(
      `/payments/${id}`,
      cardPayment({ billId, amount: rub('3.00'), customFields: { order: 'A-18', cf1: 'gift' } }),
    )
    assert.equal(paid.status, 200, paid.text)
    const merged = { order: 'A-18', shop: 'north', cf1: 'gift' }
    assert.deepEqual(paid.body.customFields, merged)
    assert.deepEqual((await api.paymentNow(id)).customFields, merged)
    const details = await api.get(`/bills/${billId}/details`)
    assert.deepEqual(details.body.payments[0].customFields, merged)
    // the bill keeps its own
    assert.deepEqual(details.body.customFields, { order: 'A-17', shop: 'north' })
    assert.deepEqual((await notified(id)).customFields, merged)
    // a payment on no bill: its own alone
    const own = uid('pay')
    const alone = await api.put(`/payments/${own}`, cardPayment({ customFields: { cf2: 'x' } }))
    assert.deepEqual(alone.body.customFields, { cf2: 'x' })
    assert.deepEqual((await notified(own)).customFields, { cf2: 'x' })
    // none anywhere: not answered, {} in the notification, as before
    const plain = uid('pay')
    const none = await api.put(`/payments/${plain}`, cardPayment())
    assert.equal('customFields' in none.body, false)
    assert.deepEqual((await notified(plain)).customFields, {})
    // another customFields under the same payment id is another request
    assert.equal((await api.put(`/payments/${own}`, cardPayment({ customFields: { cf2: 'y' } }))).status, 409)
    assert.equal((await api.put(`/payments/${own}`, cardPayment({ customFields: { cf2: 'x' } }))).status, 200)
  })

  test("a payment's customFields are checked as a bill's", async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v']))
    const refused: [unknown, string][] = [
      [{ cf1: 1 }, 'customFields.cf1'],
      [{ cf1: 'x'.repeat(2049) }, 'customFields.cf1'],
      [tooMany, 'customFields'],
      [['a'], 'customFields'],
      [{ invoice_callback_url: 'http://127.0.0.1:8080/hook' }, 'customFields.invoice_callback_url'],
      [{ invoice_callback_url: 'not a url' }, 'customFields.invoice_callback_url'],
    ]
    for (const [customFields, field] of refused) {
      const id = uid('bad')
      assertValidation(await api.put(`/payments/${id}`, cardPayment({ customFields })), field)
      assert.equal((await api.get(`/payments/${id}`)).status, 404)
    }
  })

  test("a payment's invoice_callback_url names where its notification goes (its callbackUrl wins)", async () => {
    const billId = uid('bill')
    await api.put(
      `/bills/${billId}`,
      billRequest({ customFields: { invoice_callback_url: 'https://bill.example/hook' } }),
    )
    const id = uid('pay')
    await api.put(
      `/payments/${id}`,
      cardPayment({ billId, amount: rub('3.00'), customFields: { invoice_callback_url: 'https://pay.example/hook' } }),
    )
    const own = uid('pay')
    await api.put(
      `/payments/${own}`,
      cardPayment({
        customFields: { invoice_callback_url: 'https://pay.example/hook' },
        callbackUrl: 'https://own.example/hook',
      }),
    )
    const list = (await api.get('/notifications')).body as any[]
    assert.equal(list.find((n) => n.resourceId === id).url, 'https://pay.example/hook')
    assert.equal(list.find((n) => n.resourceId === own).url, 'https://own.example/hook')
  })

  test('deviceData: checked, kept and answered as given', async () => {
    const deviceData = {
      datetime: '2026-09-03T14:30:00+03:00',
      fingerprint: 'TW96aWxsYS81LjA=',
      ip: '203.0.113.7',
      screenResolution: '1280x1024',
      timeOnPage: 1440,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    }
    const billId = uid('bill')
    await api.put(`/bills/${billId}`, billRequest())
    const id = uid('pay')
    const made = await api.put(`/payments/${id}`, cardPayment({ billId, amount: rub('3.00'), deviceData }))
    assert.equal(made.status, 200, made.text)
    assert.deepEqual(made.body.deviceData, deviceData)
    assert.deepEqual((await api.paymentNow(id)).deviceData, deviceData)
    assert.deepEqual((await api.get(`/bills/${billId}/details`)).body.payments[0].deviceData, deviceData)
    // an IPv6 address, a part of the fields; a field the service does not know is left out
    const v6 = await api.put(`/payments/${uid('pay')}`, cardPayment({ deviceData: { ip: '2001:db8::7', extra: 'x' } }))
    assert.deepEqual(v6.body.deviceData, { ip: '2001:db8::7' })
    // none given: none answered
    assert.equal('deviceData' in (await api.put(`/payments/${uid('pay')}`, cardPayment())).body, false)
    const refused: [unknown, string][] = [
      [{ ip: '999.1.1.1' }, 'deviceData.ip'],
      [{ timeOnPage: -1 }, 'deviceData.timeOnPage'],
      [{ timeOnPage: 1.5 }, 'deviceData.timeOnPage'],
      [{ screenResolution: 'big' }, 'deviceData.screenResolution'],
      [{ datetime: 'yesterday' }, 'deviceData.datetime'],
      [{ userAgent: 'x'.repeat(1025) }, 'deviceData.userAgent'],
      ['phone', 'deviceData'],
    ]
    for (const [bad, field] of refused)
      assertValidation(await api.put(`/payments/${uid('bad')}`, cardPayment({ deviceData: bad })), field)
  })

  test("a card payment's answers carry rrn, authCode and paymentCardInfo, as its notification does", async () => {
    const id = uid('pay')
    const made = await api.put(`/payments/${id}`, twoStepPayment({}, { pan: '5555555555554444' }))
    const n = await notified(id)
    assert.match(made.body.paymentMethod.rrn, /^\d{12}$/)
    assert.match(made.body.paymentMethod.authCode, /^\d{6}$/)
    assert.deepEqual(made.body.paymentMethod, {
      type: 'CARD',
      maskedPan: '555555******4444',
      rrn: n.paymentMethod.rrn,
      authCode: n.paymentMethod.authCode,
    })
    assert.deepEqual(made.body.paymentCardInfo, n.paymentCardInfo)
    assert.equal(made.body.paymentCardInfo.paymentSystem, 'MASTERCARD')
    // the same on every read, and in the bill's details
    const read = await api.paymentNow(id)
    assert.deepEqual(read.paymentMethod, made.body.paymentMethod)
    const details = await api.get(`/bills/${made.body.billId}/details`)
    assert.deepEqual(details.body.payments[0].paymentMethod, made.body.paymentMethod)
    assert.deepEqual(details.body.payments[0].paymentCardInfo, made.body.paymentCardInfo)
    // a decline: its card's information, no authorisation
    const declined = await api.put(`/payments/${uid('dec')}`, cardPayment({}, { pan: '4000000000009995' }))
    assert.deepEqual(declined.body.paymentMethod, { type: 'CARD', maskedPan: '400000******9995' })
    assert.equal(declined.body.paymentCardInfo.paymentSystem, 'VISA')
    // a mobile payment charges no card
    const mobile = await api.put(`/payments/${uid('mob')}`, {
      paymentMethod: { type: 'MOBILE', phone: '79001230000' },
      amount: rub('5.00'),
    })
    assert.deepEqual(mobile.body.paymentMethod, { type: 'MOBILE' })
    assert.equal(mobile.body.paymentCardInfo, undefined)
  })

  test('notifications: the site, the holder and expiry, the authorisation; never the card number or CVV', async () => {
    const id = uid('pay')
    const made = await api.put(
      `/payments/${id}`,
      twoStepPayment(
        { customer: { account: 'acc-9', email: 'payer@example.com' } },
        { pan: '5555555555554444', expiryDate: '03/31', cvv2: '987', holderName: 'ANNA PETROVA' },
      ),
    )
    const p = await notified(id)
    assert.equal(p.merchantSiteUid, siteId)
    assert.deepEqual(p.customer, { account: 'acc-9', email: 'payer@example.com' })
    assert.deepEqual(p.paymentMethod, {
      type: 'CARD',
      maskedPan: '555555******4444',
      rrn: made.body.paymentMethod.rrn,
      authCode: made.body.paymentMethod.authCode,
      cardHolder: 'ANNA PETROVA',
      cardExpireDate: '03/2031',
    })
    // no 3-D Secure: not authenticated (Mastercard writes 0)
    assert.deepEqual(p.gatewayData, {
      type: 'ACQUIRING',
      eci: '0',
      authCode: made.body.paymentMethod.authCode,
      rrn: made.body.paymentMethod.rrn,
    })
    // its capture and refund tell the same of their payment
    const cap = uid('cap')
    await api.put(`/payments/${id}/captures/${cap}`, {})
    const ref = uid('ref')
    await api.put(`/payments/${id}/refunds/${ref}`, { amount: rub('1.00') })
    for (const o of [await notified(cap), await notified(ref)]) {
      assert.equal(o.merchantSiteUid, siteId)
      assert.deepEqual(o.paymentMethod, p.paymentMethod)
      assert.deepEqual(o.gatewayData, p.gatewayData)
    }
    // what is kept: the masked number and the holder's name, never the number or the CVV
    const [row] = await sql(`SELECT row_to_json(p)::text AS j FROM "Payment" p WHERE "paymentId" = $1`, [id])
    assert.match(row.j, /"cardHolder":"ANNA PETROVA"/)
    assert.doesNotMatch(row.j, /5555555555554444|"987"/)
    const bodies = await sql(`SELECT body FROM "Notification" WHERE "resourceId" = ANY($1)`, [[id, cap, ref]])
    assert.equal(bodies.length, 3)
    // the CVV as a value of its own (ids are random hex and may hold its digits)
    for (const { body } of bodies) assert.doesNotMatch(body, /5555555555554444|[":]987\b/)
  })

  test('3-D Secure passed: the authentication in gatewayData.eci', async () => {
    const id = uid('3ds')
    const made = await api.put(`/payments/${id}`, cardPayment({}, { pan: '4000000000003220' }))
    const { pareq, acsUrl } = made.body.requirements.threeDS
    const { pares } = await passChallenge(pareq, acsUrl, 'pass')
    const done = await api.post(`/payments/${id}/complete`, { threeDS: { pares } })
    assert.equal(done.body.status.value, 'COMPLETED')
    const p = await notified(id)
    assert.equal(p.gatewayData.eci, '5')
    assert.equal(p.gatewayData.rrn, done.body.paymentMethod.rrn)
    // a card payment with no challenge, declined: not authenticated, no authorisation
    const declined = uid('dec')
    await api.put(`/payments/${declined}`, cardPayment({}, { pan: '4000000000000002' }))
    assert.deepEqual((await notified(declined)).gatewayData, {
      type: 'ACQUIRING',
      eci: '7',
      authCode: null,
      rrn: null,
    })
  })

  test("status.errorCode: an issuer's decline's response code; none for the service's own declines", async () => {
    const codes: [string, string, number][] = [
      ['4000000000000002', 'ACQUIRING_DECLINED', 5],
      ['4000000000009995', 'ACQUIRING_INSUFFICIENT_FUNDS', 51],
      ['4000000000000069', 'ACQUIRING_EXPIRED_CARD', 54],
      ['4000000000000127', 'ACQUIRING_INCORRECT_CVV', 82],
      ['4000000000000119', 'TRY_AGAIN_LATER', 91],
    ]
    for (const [pan, reason, errorCode] of codes) {
      const id = uid('dec')
      await api.put(`/payments/${id}`, cardPayment({}, { pan }))
      const { status } = await notified(id)
      assert.deepEqual(
        { value: status.value, reasonCode: status.reasonCode, errorCode: status.errorCode },
        { value: 'DECLINED', reasonCode: reason, errorCode },
        pan,
      )
    }
    // a paid bill declines a second payment: the service's decision, no issuer's code
    const billId = uid('bill')
    await api.put(`/bills/${billId}`, billRequest())
    await api.put(`/payments/${uid('pay')}`, cardPayment({ billId, amount: rub('3.00') }))
    const again = uid('pay')
    await api.put(`/payments/${again}`, cardPayment({ billId, amount: rub('3.00') }))
    const { status } = await notified(again)
    assert.equal(status.reasonCode, 'BILL_ALREADY_PAID')
    assert.equal('errorCode' in status, false)
    // an approval has none
    const ok = uid('pay')
    await api.put(`/payments/${ok}`, cardPayment())
    assert.equal('errorCode' in (await notified(ok)).status, false)
  })

  test('a TOKEN payment: the token it charged in paymentMethod.paymentToken, never stored', async () => {
    const binding = uid('bind')
    const bound = await api.put(
      `/payments/${binding}`,
      cardPayment(
        { flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customer: { account: 'acc-t' } },
        { pan: '5555555555554444', expiryDate: '02/31', holderName: 'IVAN IVANOV' },
      ),
    )
    const token = bound.body.createdToken.token
    const id = uid('tok')
    const made = await api.put(`/payments/${id}`, {
      paymentMethod: { type: 'TOKEN', paymentToken: token },
      amount: rub('4.00'),
      flags: ['SALE'],
      customer: { account: 'acc-t' },
    })
    assert.equal(made.body.status.value, 'COMPLETED')
    // the answer: the type and the authorisation (a token payment answers no masked number)
    assert.deepEqual(Object.keys(made.body.paymentMethod), ['type', 'rrn', 'authCode'])
    assert.equal(made.body.paymentCardInfo.paymentSystem, 'MASTERCARD')
    const p = await notified(id)
    assert.deepEqual(p.paymentMethod, {
      type: 'TOKEN',
      paymentToken: token,
      maskedPan: '555555******4444',
      rrn: made.body.paymentMethod.rrn,
      authCode: made.body.paymentMethod.authCode,
      cardHolder: 'IVAN IVANOV',
      cardExpireDate: '02/2031',
    })
    const ref = uid('ref')
    await api.put(`/payments/${id}/refunds/${ref}`, { amount: rub('1.00') })
    assert.equal((await notified(ref)).paymentMethod.paymentToken, token)
    // at rest neither body holds the token
    const rows = await sql(`SELECT body FROM "Notification" WHERE "resourceId" = ANY($1)`, [[id, ref]])
    assert.equal(rows.length, 2)
    for (const { body } of rows) assert.ok(!body.includes(token))
    // the card payment that issued it carries none in paymentMethod
    assert.equal((await notified(binding)).paymentMethod.paymentToken, undefined)
  })
})
