// Card verification through the API (production's PUT/GET …/validation/card/requests/{requestUid} and its
// /complete): outcomes by the test cards, 3-D Secure at the emulated ACS, the payment token a valid card gets (it
// pays a TOKEN payment on the same site and account), idempotency, and card data kept out of the database.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  assertErrorShape,
  assertValidation,
  BASE_URL,
  client,
  DAY_MS,
  fromNow,
  newSite,
  request,
  uid,
} from '../support/api.ts'
import { writtenForms } from '../support/card-numbers.ts'
import { sql } from '../support/db.ts'
import { notifyTo } from '../support/notify-site.ts'
import { passChallenge } from '../support/three-ds.ts'

const NOTIFICATION_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/
const card = (pan: string, over: Record<string, unknown> = {}) => ({
  cardData: { pan, expiryDate: '12/30', cvv2: '123', ...over },
})
const withToken = (pan: string, account = 'customer-1', over: Record<string, unknown> = {}) => ({
  ...card(pan, over),
  tokenizationData: { account },
})

describe('card verification', () => {
  let api: ReturnType<typeof client>
  let other: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('check'))
    other = client(await newSite('check-other'))
  })

  const check = async (body: Record<string, unknown>, requestUid = uid('check')) => {
    const r = await api.put(`/validation/card/requests/${requestUid}`, body)
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.requestUid, requestUid)
    return r
  }

  test('an approved card: SUCCESS, valid, WITHOUT 3-D Secure, cardInfo by BIN; no payment, no money', async () => {
    const r = await check(card('4111111111111111'))
    assert.equal(r.body.status, 'SUCCESS')
    assert.equal(r.body.isValidCard, true)
    assert.equal(r.body.threeDsStatus, 'WITHOUT')
    assert.match(r.body.checkOperationDate, NOTIFICATION_TIME)
    assert.equal(r.body.cardInfo.paymentSystem, 'VISA')
    assert.equal(r.body.createdToken, undefined, 'no token without tokenizationData')
    const mir = await check(card('2200000000000004'))
    assert.equal(mir.body.cardInfo.paymentSystem, 'MIR')
    const [{ n }] = await sql(`SELECT count(*)::int AS n FROM "Payment" WHERE "siteId" = $1`, [api.site.siteId])
    assert.equal(n, 0, 'a verification writes no payment')
  })

  test('declining and expired cards: SUCCESS, not valid; production test cards by month, decided at once', async () => {
    for (const [pan, expiryDate, valid] of [
      ['4000000000000002', '12/30', false],
      ['4000000000009995', '12/30', false],
      ['4111111111111111', '01/20', false],
      ['4256000000000003', '02/30', false],
      ['4256000000000003', '03/30', true],
      ['4256000000000003', '04/30', false],
      ['4256000000000003', '05/30', true],
      ['4000000000001000', '12/30', true],
    ] as const) {
      const r = await check(withToken(pan, 'customer-1', { expiryDate }))
      assert.equal(r.body.status, 'SUCCESS', `${pan} ${expiryDate}`)
      assert.equal(r.body.isValidCard, valid, `${pan} ${expiryDate}`)
      assert.equal(r.body.createdToken !== undefined, valid, `${pan} ${expiryDate}: a token for a valid card only`)
    }
  })

  test('an invalid card is a 400 naming the field, and writes nothing', async () => {
    const requestUid = uid('check')
    const cases: [Record<string, unknown>, string][] = [
      [card('4111111111111112'), 'cardData.pan'],
      [card('41111111'), 'cardData.pan'],
      [card('4111111111111111', { expiryDate: '13/30' }), 'cardData.expiryDate'],
      [card('4111111111111111', { cvv2: '12' }), 'cardData.cvv2'],
      [{}, 'cardData'],
      [{ ...card('4111111111111111'), tokenizationData: {} }, 'tokenizationData.account'],
    ]
    for (const [body, field] of cases)
      assertValidation(await api.put(`/validation/card/requests/${requestUid}`, body), field)
    assertErrorShape(await api.get(`/validation/card/requests/${requestUid}`), 404, 'payin.resource.not.found')
  })

  test('a valid card with tokenizationData.account gets a token that pays TOKEN payments of that site and account', async () => {
    const requestUid = uid('check')
    const r = await check(withToken('5555555555554444', 'customer-7'), requestUid)
    const token = r.body.createdToken
    assert.match(token.token, /^pt_/)
    assert.equal(token.name, '555555******4444')
    assert.equal(token.account, 'customer-7')
    assert.equal(token.expiredDate, '2030-12-31T00:00:00+00:00')
    assert.deepEqual((await api.get(`/validation/card/requests/${requestUid}`)).body, r.body, 'GET repeats it')
    const pay = (who: ReturnType<typeof client>, account: string) =>
      who.put(`/payments/${uid('tp')}`, {
        paymentMethod: { type: 'TOKEN', paymentToken: token.token },
        amount: { value: '10.00', currency: 'RUB' },
        flags: ['SALE'],
        customer: { account },
      })
    const paid = await pay(api, 'customer-7')
    assert.equal(paid.status, 200, paid.text)
    assert.equal(paid.body.status.value, 'COMPLETED')
    assertValidation(await pay(api, 'customer-8'), 'paymentMethod.paymentToken')
    assertValidation(await pay(other, 'customer-7'), 'paymentMethod.paymentToken')
    // a declined card's token follows its card: none is issued
    const declined = await check(withToken('4000000000000002'))
    assert.equal(declined.body.isValidCard, false)
    assert.equal(declined.body.createdToken, undefined)
  })

  test('the 3-D Secure card waits for complete; passed: valid with a token; complete again answers it unchanged', async () => {
    const requestUid = uid('check')
    const r = await check(withToken('4000000000003220', 'customer-3ds'), requestUid)
    assert.deepEqual(Object.keys(r.body).sort(), ['requestUid', 'requirements', 'status'])
    assert.equal(r.body.status, 'WAITING_3DS')
    assert.equal(r.body.requirements.acsUrl, `${BASE_URL}/acs`)
    assert.equal((await api.get(`/validation/card/requests/${requestUid}`)).body.status, 'WAITING_3DS')
    const { pares } = await passChallenge(r.body.requirements.pareq, r.body.requirements.acsUrl, 'pass')
    const done = await api.post(`/validation/card/requests/${requestUid}/complete`, { pares })
    assert.equal(done.status, 200, done.text)
    assert.equal(done.body.status, 'SUCCESS')
    assert.equal(done.body.isValidCard, true)
    assert.equal(done.body.threeDsStatus, 'PASSED')
    assert.match(done.body.createdToken.token, /^pt_/)
    const again = await api.post(`/validation/card/requests/${requestUid}/complete`, { pares })
    assert.equal(again.status, 200)
    assert.deepEqual(again.body, done.body)
    assert.deepEqual((await api.get(`/validation/card/requests/${requestUid}`)).body, done.body)
    // the token of a 3-D Secure card asks for 3-D Secure again, as a payment's token does
    const paid = await api.put(`/payments/${uid('tp')}`, {
      paymentMethod: { type: 'TOKEN', paymentToken: done.body.createdToken.token },
      amount: { value: '10.00', currency: 'RUB' },
      flags: ['SALE'],
      customer: { account: 'customer-3ds' },
    })
    assert.equal(paid.body.status.value, 'WAITING', paid.text)
  })

  test("production's 3-D Secure rule (CVV 849, a holder name with 3ds); failed: NOT_PASSED, not valid, then 409", async () => {
    const byCvv = await check(card('4256000000000003', { cvv2: '849' }))
    assert.equal(byCvv.body.status, 'WAITING_3DS')
    const requestUid = uid('check')
    const byName = await check(withToken('5236000000000005', 'c', { holderName: 'Test 3DS' }), requestUid)
    assert.equal(byName.body.status, 'WAITING_3DS')
    const { pares } = await passChallenge(byName.body.requirements.pareq, byName.body.requirements.acsUrl, 'fail')
    const done = await api.post(`/validation/card/requests/${requestUid}/complete`, { pares })
    assert.equal(done.status, 200, done.text)
    assert.equal(done.body.status, 'SUCCESS')
    assert.equal(done.body.isValidCard, false)
    assert.equal(done.body.threeDsStatus, 'NOT_PASSED')
    assert.equal(done.body.createdToken, undefined)
    assertErrorShape(
      await api.post(`/validation/card/requests/${requestUid}/complete`, { pares }),
      409,
      'payin.incorrect-method-invocation',
    )
  })

  test('complete: a PaRes of another verification is a 400 and it keeps waiting; never waited: 409; unknown: 404', async () => {
    const a = await check(card('4000000000003220'))
    const b = await check(card('4000000000003220'))
    const { pares } = await passChallenge(b.body.requirements.pareq, b.body.requirements.acsUrl, 'pass')
    assertValidation(await api.post(`/validation/card/requests/${a.body.requestUid}/complete`, { pares }), 'pares')
    assertValidation(await api.post(`/validation/card/requests/${a.body.requestUid}/complete`, {}), 'pares')
    assert.equal((await api.get(`/validation/card/requests/${a.body.requestUid}`)).body.status, 'WAITING_3DS')
    const plain = await check(card('4111111111111111'))
    assertErrorShape(
      await api.post(`/validation/card/requests/${plain.body.requestUid}/complete`, { pares }),
      409,
      'payin.incorrect-method-invocation',
    )
    assertErrorShape(
      await api.post(`/validation/card/requests/${uid('none')}/complete`, { pares }),
      404,
      'payin.resource.not.found',
    )
    // another site's verification is not this site's
    assertErrorShape(
      await other.get(`/validation/card/requests/${plain.body.requestUid}`),
      404,
      'payin.resource.not.found',
    )
  })

  test('idempotent: the same request answers the same verification, another is a 409; concurrent twins write one', async () => {
    const requestUid = uid('check')
    const first = await check(withToken('4111111111111111'), requestUid)
    const again = await check(withToken('4111111111111111'), requestUid)
    assert.deepEqual(again.body, first.body)
    for (const changed of [
      withToken('4111111111111111', 'customer-2'),
      withToken('4111111111111111', 'customer-1', { cvv2: '124' }),
      card('4111111111111111'),
    ])
      assertErrorShape(await api.put(`/validation/card/requests/${requestUid}`, changed), 409, 'payin.request.conflict')
    const twin = uid('check')
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => api.put(`/validation/card/requests/${twin}`, withToken('4111111111111111'))),
    )
    for (const a of answers) assert.equal(a.status, 200, a.text)
    assert.equal(new Set(answers.map((a) => a.body.createdToken.token)).size, 1)
    const [{ n }] = await sql(`SELECT count(*)::int AS n FROM "CardCheck" WHERE "siteId" = $1 AND "requestUid" = $2`, [
      api.site.siteId,
      twin,
    ])
    assert.equal(n, 1)
    const partner = client(api.site, '/partner/payin/v1')
    const aliased = await partner.get(`/validation/card/requests/${requestUid}`)
    assert.equal(aliased.status, 200, aliased.text)
    assert.deepEqual(aliased.body, first.body)
  })

  test('CHECK_CARD notification: production format; the token filled in when shown, never at rest; no card data stored', async () => {
    const site = await newSite('check-notify')
    const mine = client(site)
    await notifyTo(site.siteId, 'https://shop.example/hook')
    const pan = '4111111111111111'
    const requestUid = uid('check')
    const r = await mine.put(`/validation/card/requests/${requestUid}`, {
      cardData: { pan, expiryDate: '11/30', cvv2: '987', holderName: 'Ann Holder' },
      tokenizationData: { account: 'acc-9' },
    })
    assert.equal(r.status, 200, r.text)
    const listed = ((await mine.get('/notifications')).body as any[]).filter((n) => n.resourceId === requestUid)
    assert.equal(listed.length, 1)
    assert.equal(listed[0].type, 'CHECK_CARD')
    assert.equal(listed[0].status, 'COMPLETED')
    const body = listed[0].body
    assert.equal(body.type, 'CHECK_CARD')
    assert.equal(body.version, '1')
    assert.deepEqual(Object.keys(body.checkPaymentMethod), [
      'status',
      'isValidCard',
      'threeDsStatus',
      'cardInfo',
      'createdToken',
      'requestUid',
      'paymentMethod',
      'checkOperationDate',
    ])
    const o = body.checkPaymentMethod
    assert.equal(o.status, 'SUCCESS')
    assert.equal(o.isValidCard, true)
    assert.equal(o.threeDsStatus, 'WITHOUT')
    assert.equal(o.requestUid, requestUid)
    assert.deepEqual(o.createdToken, r.body.createdToken)
    assert.deepEqual(o.paymentMethod, {
      type: 'CARD',
      maskedPan: '411111******1111',
      cardHolder: 'Ann Holder',
      cardExpireDate: '11/2030',
    })
    assert.equal(o.checkOperationDate, r.body.checkOperationDate)
    const rows = await sql(
      `SELECT n.body, c::text AS "check", t::text AS token FROM "Notification" n
         JOIN "CardCheck" c ON c.id = n."resourceRef" JOIN "PaymentToken" t ON t."checkRef" = c.id
        WHERE n."siteId" = $1`,
      [site.siteId],
    )
    assert.equal(rows.length, 1)
    const stored = JSON.stringify(rows[0])
    assert.ok(!stored.includes(r.body.createdToken.token), 'the token is not at rest')
    assert.doesNotMatch(stored, writtenForms(pan), 'the card number is not stored')
    // what the verification keeps besides its ids and keyed hash: nothing of the CVV
    const [kept] = await sql(
      `SELECT status, "maskedPan", "cardHolder", "cardProfile"::text, account, "isValidCard"::text
         FROM "CardCheck" WHERE "siteId" = $1`,
      [site.siteId],
    )
    assert.ok(!JSON.stringify(kept).includes('987'), 'the CVV is not stored')
  })
})

describe('CHECK_CARD bills: the payment page verifies a card', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('check-bill'))
  })

  const checkBill = async (flags = ['CHECK_CARD', 'BIND_PAYMENT_TOKEN'], over: Record<string, unknown> = {}) => {
    const billId = uid('cb')
    const r = await api.put(`/bills/${billId}`, {
      expirationDateTime: fromNow(DAY_MS),
      customer: { account: 'payer-1' },
      flags,
      ...over,
    })
    return { billId, r }
  }
  const attempt = (invoiceUid: string, pan: string) =>
    request('POST', `/pay/${invoiceUid}/attempts`, {
      body: { method: 'card', pan, expiry: '12/30', cvv: '123' },
    })

  test('a bill with CHECK_CARD has no amount (0.00 RUB); an amount with it, or none without it, is a 400', async () => {
    const { r } = await checkBill()
    assert.equal(r.status, 200, r.text)
    assert.deepEqual(r.body.amount, { value: '0.00', currency: 'RUB' })
    assert.deepEqual(r.body.flags, ['BIND_PAYMENT_TOKEN', 'CHECK_CARD'])
    assertValidation((await checkBill(['CHECK_CARD'], { amount: { value: '1.00', currency: 'RUB' } })).r, 'amount')
    assertValidation((await checkBill(['SALE'])).r, 'amount')
    assertValidation((await checkBill(['CHECK_CARD', 'BIND_PAYMENT_TOKEN'], { customer: {} })).r, 'customer.account')
    assertValidation((await checkBill(['CHECK_CARD', 'NOPE'])).r, 'flags[1]')
    // a verification charges nothing: no merchants' shares
    const share = { type: 'MERCHANT_DETAILS', siteUid: 'shop-a', splitAmount: { value: '1.00', currency: 'RUB' } }
    assertValidation((await checkBill(['CHECK_CARD'], { splits: [share] })).r, 'splits')
  })

  test("the page's attempt verifies under the billId: no payment; a valid card's bill is PAID, one verification per bill", async () => {
    const { billId, r } = await checkBill()
    const a = await attempt(r.body.invoiceUid, '5555555555554444')
    assert.equal(a.status, 200, a.text)
    assert.deepEqual(a.body, { kind: 'redirect', url: `/pay/${r.body.invoiceUid}`, outcome: 'PAID' })
    const check = await api.get(`/validation/card/requests/${billId}`)
    assert.equal(check.body.status, 'SUCCESS')
    assert.equal(check.body.isValidCard, true)
    assert.equal(check.body.createdToken.account, 'payer-1')
    const details = await api.get(`/bills/${billId}/details`)
    assert.equal(details.body.status.value, 'PAID')
    assert.deepEqual(details.body.payments ?? [], [])
    // the bill is closed: another attempt changes nothing
    const again = await attempt(r.body.invoiceUid, '4000000000000002')
    assert.deepEqual(again.body, { kind: 'redirect', url: `/pay/${r.body.invoiceUid}` })
    assert.deepEqual((await api.get(`/validation/card/requests/${billId}`)).body, check.body)
    const page = await request('GET', `/pay/${r.body.invoiceUid}`, { headers: { 'Accept-Language': 'en' } })
    assert.match(page.text, /Your card is verified/)
  })

  test('a billId the API already verified under: the page says it cannot verify, and an attempt comes back to it', async () => {
    const { billId, r } = await checkBill(['CHECK_CARD'])
    const made = await api.put(`/validation/card/requests/${billId}`, card('4111111111111111'))
    assert.equal(made.status, 200, made.text)
    const page = await request('GET', `/pay/${r.body.invoiceUid}`, { headers: { 'Accept-Language': 'en' } })
    assert.match(page.text, /The card cannot be verified here/)
    assert.doesNotMatch(page.text, /Verify card/)
    const a = await attempt(r.body.invoiceUid, '5555555555554444')
    assert.deepEqual(a.body, { kind: 'redirect', url: `/pay/${r.body.invoiceUid}` })
    // the API's verification is left as it was, the bill open
    assert.deepEqual((await api.get(`/validation/card/requests/${billId}`)).body, made.body)
    assert.equal((await api.get(`/bills/${billId}/details`)).body.status.value, 'CREATED')
  })

  test('a declining card leaves the bill CREATED, its page says so; the 3-D Secure card goes to the ACS', async () => {
    const declined = await checkBill(['CHECK_CARD'], { failedUrl: 'https://shop.example/failed' })
    const a = await attempt(declined.r.body.invoiceUid, '4000000000000002')
    assert.equal(a.body.kind, 'redirect', a.text)
    assert.match(a.body.url, /^https:\/\/shop\.example\/failed\?billId=/)
    assert.equal((await api.get(`/bills/${declined.billId}/details`)).body.status.value, 'CREATED')
    assert.equal((await api.get(`/validation/card/requests/${declined.billId}`)).body.isValidCard, false)
    const page = await request('GET', `/pay/${declined.r.body.invoiceUid}`, { headers: { 'Accept-Language': 'ru' } })
    assert.match(page.text, /Карту не удалось проверить/)

    const challenged = await checkBill(['CHECK_CARD'])
    const c = await attempt(challenged.r.body.invoiceUid, '4000000000003220')
    assert.equal(c.body.kind, 'threeDS', c.text)
    assert.equal(c.body.md, 'card-check')
    assert.equal((await api.get(`/validation/card/requests/${challenged.billId}`)).body.status, 'WAITING_3DS')
    // production's payUrl shape goes to the page
    const alias = await fetch(`${BASE_URL}/validation/card?invoiceUid=${challenged.r.body.invoiceUid}`, {
      redirect: 'manual',
    })
    assert.equal(alias.status, 303)
    assert.match(alias.headers.get('location') ?? '', new RegExp(`/pay/${challenged.r.body.invoiceUid}$`))
  })
})
