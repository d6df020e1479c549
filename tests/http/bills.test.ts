// Bills (endpoints 7, 8, 9): create, validation, idempotency, the two reads, tenancy and path aliases.
// What a bill's payments do to it (PAID, EXPIRED, concurrent payers) is in bill-payments.test.ts.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  BASE_URL,
  BILL_TIME,
  DAY_MS,
  assertErrorShape,
  assertValidation,
  billRequest,
  cardPayment,
  client,
  fromNow,
  newSite,
  request,
  rub,
  uid,
  type Answer,
} from '../support/api.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** the instant of an ISO 8601 date-time as a bill answers it: UTC, +00:00, whole seconds (dropped, not rounded) */
const asBillTime = (iso: string) =>
  new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString().slice(0, 19) + '+00:00'

/** `ms` from now written in the offset `+hh:mm` / `-hh:mm` (minutes east of UTC), with milliseconds */
function fromNowIn(ms: number, offsetMinutes: number): string {
  const local = new Date(Date.now() + ms + offsetMinutes * 60_000).toISOString().slice(0, 23)
  const abs = Math.abs(offsetMinutes)
  const sign = offsetMinutes < 0 ? '-' : '+'
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

describe('bill create (PUT /bills/{billId})', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('bills'))
  })

  async function create(body: unknown, billId = uid('bill')) {
    const r = await api.put(`/bills/${billId}`, body)
    assert.equal(r.status, 200, r.text)
    return r.body
  }

  test('answers the bill: ids, amount, CREATED, dates without milliseconds, payUrl, echoes', async () => {
    const billId = uid('bill')
    const expirationDateTime = fromNow(DAY_MS)
    const customer = {
      account: 'acc-1',
      email: 'payer@example.com',
      name: 'Ivan Petrov',
      phone: '79001234567',
      ip: '192.168.0.1',
    }
    const before = Date.now()
    const b = await create(
      billRequest({
        expirationDateTime,
        customer,
        successUrl: 'https://shop.example.com/ok?order=1',
        failedUrl: 'http://shop.example.com/fail',
      }),
      billId,
    )
    assert.equal(b.siteId, api.site.siteId)
    assert.equal(b.billId, billId)
    assert.match(b.invoiceUid, UUID)
    assert.deepEqual(b.amount, rub('3.00'))
    assert.deepEqual(b.flags, ['SALE'])
    assert.equal(b.status.value, 'CREATED')
    assert.match(b.status.changedDateTime, BILL_TIME)
    assert.equal(b.comment, 'Text comment')
    assert.match(b.creationDateTime, BILL_TIME)
    const created = Date.parse(b.creationDateTime)
    assert.ok(
      created >= Math.floor(before / 1000) * 1000 && created <= Date.now(),
      `creationDateTime ${b.creationDateTime}`,
    )
    assert.equal(b.status.changedDateTime, b.creationDateTime, 'a new bill changed status when it was created')
    assert.equal(b.expirationDateTime, asBillTime(expirationDateTime))
    assert.equal(b.payUrl, `${BASE_URL}/pay/${b.invoiceUid}`)
    assert.deepEqual(b.customer, customer)
    assert.equal(b.successUrl, 'https://shop.example.com/ok?order=1')
    assert.equal(b.failedUrl, 'http://shop.example.com/fail')
  })

  test('every bill gets its own invoiceUid', async () => {
    const a = await create(billRequest())
    const b = await create(billRequest())
    assert.notEqual(a.invoiceUid, b.invoiceUid)
    assert.notEqual(a.payUrl, b.payUrl)
  })

  test('expirationDateTime is the requested instant re-expressed in +00:00, milliseconds dropped', async () => {
    for (const offset of [180, -330, 0]) {
      const requested = fromNowIn(3 * DAY_MS, offset)
      const b = await create(billRequest({ expirationDateTime: requested }))
      assert.equal(b.expirationDateTime, asBillTime(requested), `requested ${requested}`)
    }
    // the observed sample: 14:12:45+03:00 is 11:12:45+00:00
    const day = new Date(Date.now() + 2 * DAY_MS).toISOString().slice(0, 10)
    const b = await create(billRequest({ expirationDateTime: `${day}T14:12:45.999+03:00` }))
    assert.equal(b.expirationDateTime, `${day}T11:12:45+00:00`)
  })

  test('amount.value is answered with two decimals, rounded down; string and number accepted', async () => {
    assert.deepEqual((await create(billRequest({ amount: { value: '3', currency: 'RUB' } }))).amount, rub('3.00'))
    assert.deepEqual((await create(billRequest({ amount: { value: 3, currency: 'RUB' } }))).amount, rub('3.00'))
    assert.deepEqual((await create(billRequest({ amount: { value: '3.999', currency: 'RUB' } }))).amount, rub('3.99'))
    assert.deepEqual((await create(billRequest({ amount: { value: 12.5, currency: 'USD' } }))).amount, {
      value: '12.50',
      currency: 'USD',
    })
  })

  test('a bill without amount.value is open: the amount answers the currency only, on create and details', async () => {
    const billId = uid('bill')
    const b = await create(billRequest({ amount: { currency: 'EUR' } }), billId)
    assert.deepEqual(b.amount, { currency: 'EUR' })
    assert.equal(b.status.value, 'CREATED')
    const d = await api.get(`/bills/${billId}/details`)
    assert.equal(d.status, 200, d.text)
    assert.deepEqual(d.body.amount, { currency: 'EUR' })
  })

  test('flags are optional and echoed; token and recurrent variants', async () => {
    const none = await create({ amount: rub('10.00'), expirationDateTime: fromNow(DAY_MS) })
    assert.deepEqual(none.flags, [])
    assert.equal(none.status.value, 'CREATED')
    assert.equal(none.comment, undefined)
    const token = await create(billRequest({ flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customer: { account: 'acc-7' } }))
    assert.deepEqual([...token.flags].sort(), ['BIND_PAYMENT_TOKEN', 'SALE'])
    assert.deepEqual(token.customer, { account: 'acc-7' })
    const expiryDate = new Date(Date.now() + 400 * DAY_MS).toISOString().slice(0, 10)
    const recurrent = await create(
      billRequest({ flags: ['SALE', 'RECURRENT_FIRST'], recurrent: { minAuthDay: 30, expiryDate } }),
    )
    assert.deepEqual([...recurrent.flags].sort(), ['RECURRENT_FIRST', 'SALE'])
    assert.deepEqual(recurrent.recurrent, { minAuthDay: 30, expiryDate })
  })

  test('a receipt whose totals add up to amount.value is accepted', async () => {
    const b = await create(
      billRequest({
        amount: rub('250.00'),
        receipt: {
          items: [
            { name: 'Tea', price: 100, quantity: 2, total: 200 },
            { name: 'Cup', price: '50.00', quantity: 1, total: '50.00' },
          ],
        },
      }),
    )
    assert.deepEqual(b.amount, rub('250.00'))
  })

  test('expirationDateTime up to 45 days ahead is accepted; in the past, now or beyond 45 days is 400', async () => {
    assert.equal((await create(billRequest({ expirationDateTime: fromNow(44 * DAY_MS) }))).status.value, 'CREATED')
    assert.equal(
      (await create(billRequest({ expirationDateTime: fromNow(45 * DAY_MS - 60_000) }))).status.value,
      'CREATED',
    )
    for (const expirationDateTime of [
      fromNow(-60_000),
      fromNow(-400 * DAY_MS),
      fromNow(45 * DAY_MS + 60_000),
      fromNow(90 * DAY_MS),
    ]) {
      const billId = uid('bill')
      assertValidation(await api.put(`/bills/${billId}`, billRequest({ expirationDateTime })), 'expirationDateTime')
      assertErrorShape(await api.get(`/bills/${billId}/details`), 404, 'payin.resource.not.found')
    }
  })

  test('expirationDateTime missing, without an offset or malformed is 400 expirationDateTime', async () => {
    const local = new Date(Date.now() + DAY_MS).toISOString().slice(0, 19) // no offset
    const { expirationDateTime: _, ...without } = billRequest()
    for (const body of [
      without,
      billRequest({ expirationDateTime: local }),
      billRequest({ expirationDateTime: local.slice(0, 10) }),
      billRequest({ expirationDateTime: 'tomorrow' }),
      billRequest({ expirationDateTime: Date.now() + DAY_MS }),
    ]) {
      const billId = uid('bill')
      assertValidation(await api.put(`/bills/${billId}`, body), 'expirationDateTime')
      assertErrorShape(await api.get(`/bills/${billId}/details`), 404, 'payin.resource.not.found')
    }
  })

  test('amount: missing, zero, negative, too large, malformed or bad currency is 400', async () => {
    const { amount: _, ...without } = billRequest()
    assertValidation(await api.put(`/bills/${uid('bill')}`, without), 'amount')
    for (const value of ['0', '0.001', '-1.00', '1000000000.01', '1e3', 'abc']) {
      assertValidation(
        await api.put(`/bills/${uid('bill')}`, billRequest({ amount: { value, currency: 'RUB' } })),
        'amount.value',
      )
    }
    for (const currency of ['rub', 'XYZ', 'RUBL']) {
      assertValidation(
        await api.put(`/bills/${uid('bill')}`, billRequest({ amount: { value: '3.00', currency } })),
        'amount.currency',
      )
    }
    assertValidation(
      await api.put(`/bills/${uid('bill')}`, billRequest({ amount: { value: '3.00' } })),
      'amount.currency',
    )
  })

  test('an unknown flag is 400 flags[0]', async () => {
    const billId = uid('bill')
    assertValidation(await api.put(`/bills/${billId}`, billRequest({ flags: ['REFUND'] })), 'flags[0]')
    assertErrorShape(await api.get(`/bills/${billId}/details`), 404, 'payin.resource.not.found')
  })

  test('successUrl and failedUrl must be absolute http(s) URLs', async () => {
    for (const url of ['not a url', '/relative/path', 'ftp://shop.example.com/ok', 'javascript:alert(1)']) {
      assertValidation(await api.put(`/bills/${uid('bill')}`, billRequest({ successUrl: url })), 'successUrl')
      assertValidation(await api.put(`/bills/${uid('bill')}`, billRequest({ failedUrl: url })), 'failedUrl')
    }
  })

  test('customer.ip must be an IPv4 address', async () => {
    for (const ip of ['256.1.1.1', '::1', '10.0.0', 'localhost']) {
      assertValidation(
        await api.put(`/bills/${uid('bill')}`, billRequest({ customer: { account: 'a', ip } })),
        'customer.ip',
      )
    }
  })

  test('BIND_PAYMENT_TOKEN needs customer.account; RECURRENT_FIRST needs recurrent', async () => {
    assertValidation(
      await api.put(`/bills/${uid('bill')}`, billRequest({ flags: ['SALE', 'BIND_PAYMENT_TOKEN'] })),
      'customer.account',
    )
    assertValidation(
      await api.put(
        `/bills/${uid('bill')}`,
        billRequest({ flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customer: { email: 'a@example.com' } }),
      ),
      'customer.account',
    )
    assertValidation(
      await api.put(`/bills/${uid('bill')}`, billRequest({ flags: ['SALE', 'RECURRENT_FIRST'] })),
      'recurrent',
    )
  })

  test('a receipt needs amount.value and totals adding up to it', async () => {
    const items = [{ name: 'Tea', price: '3.00', quantity: 1, total: '3.00' }]
    const open = await api.put(
      `/bills/${uid('bill')}`,
      billRequest({ amount: { currency: 'RUB' }, receipt: { items } }),
    )
    assertValidation(open, 'amount.value')
    const off = await api.put(`/bills/${uid('bill')}`, billRequest({ amount: rub('4.00'), receipt: { items } }))
    assertErrorShape(off, 400, 'validation.error')
    assert.ok(
      Object.keys(off.body.cause).some((k) => k.startsWith('receipt')),
      off.text,
    )
  })

  test('a body that is not JSON is 400 http.message.conversion.failed; a malformed billId is 400', async () => {
    assertErrorShape(
      await api.send('PUT', `/bills/${uid('bill')}`, { rawBody: '{"amount": ' }),
      400,
      'http.message.conversion.failed',
    )
    const bad = await api.put(`/bills/${'b'.repeat(201)}`, billRequest())
    assertErrorShape(bad, 400, 'validation.error')
    assertErrorShape(await api.put('/bills/bill%20with%20space', billRequest()), 400, 'validation.error')
  })

  test('the validation error lists every bad field at once', async () => {
    const r = await api.put(`/bills/${uid('bill')}`, {
      amount: { value: '0', currency: 'rub' },
      expirationDateTime: 'x',
      flags: ['NOPE'],
    })
    assertValidation(r, 'amount.value')
    for (const f of ['amount.currency', 'expirationDateTime', 'flags[0]'])
      assert.ok(r.body.cause[f], `${f} missing: ${r.text}`)
  })
})

describe('bill create is idempotent', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('bills-idem'))
  })

  test('the same PUT again answers 200 with the identical bill', async () => {
    const billId = uid('bill')
    const body = billRequest({
      customer: { account: 'acc', ip: '10.0.0.1' },
      successUrl: 'https://shop.example.com/ok',
    })
    const first = await api.put(`/bills/${billId}`, body)
    assert.equal(first.status, 200, first.text)
    await new Promise((r) => setTimeout(r, 1100)) // a second creation would carry a later creationDateTime
    const again = await api.put(`/bills/${billId}`, body)
    assert.equal(again.status, 200, again.text)
    assert.deepEqual(again.body, first.body)
  })

  test('an identical replay after the deadline answers the bill, EXPIRED; a new bill, or another request, with that deadline is 400', async () => {
    const billId = uid('bill')
    const deadline = Date.now() + 3000
    const body = billRequest({ expirationDateTime: new Date(deadline).toISOString() })
    const first = await api.put(`/bills/${billId}`, body)
    assert.equal(first.status, 200, first.text)
    // until the deadline has passed
    await new Promise((r) => setTimeout(r, deadline - Date.now() + 100))
    const again = await api.put(`/bills/${billId}`, body)
    assert.equal(again.status, 200, again.text)
    assert.equal(again.body.status.value, 'EXPIRED')
    assert.equal(again.body.invoiceUid, first.body.invoiceUid)
    assertValidation(await api.put(`/bills/${uid('bill')}`, body), 'expirationDateTime')
    assertValidation(await api.put(`/bills/${billId}`, { ...body, comment: 'another request' }), 'expirationDateTime')
  })

  test('the same request written differently (amount 3 / "3.00", flags order, offset) is the same bill', async () => {
    const billId = uid('bill')
    const at = new Date(Math.floor((Date.now() + DAY_MS) / 1000) * 1000)
    const utc = at.toISOString()
    const plus3 = new Date(at.getTime() + 3 * 3600_000).toISOString().slice(0, 19) + '+03:00'
    const first = await api.put(
      `/bills/${billId}`,
      billRequest({
        amount: rub('3.00'),
        expirationDateTime: utc,
        flags: ['SALE', 'BIND_PAYMENT_TOKEN'],
        customer: { account: 'a' },
      }),
    )
    assert.equal(first.status, 200, first.text)
    const again = await api.put(
      `/bills/${billId}`,
      billRequest({
        amount: { value: 3, currency: 'RUB' },
        expirationDateTime: plus3,
        flags: ['BIND_PAYMENT_TOKEN', 'SALE'],
        customer: { account: 'a' },
      }),
    )
    assert.equal(again.status, 200, again.text)
    assert.deepEqual(again.body, first.body)
  })

  test('the same billId with a different request is 409 payin.request.conflict and the bill is unchanged', async () => {
    const billId = uid('bill')
    const body = billRequest({ customer: { account: 'acc' } })
    const first = await api.put(`/bills/${billId}`, body)
    assert.equal(first.status, 200, first.text)
    const variants: Record<string, unknown>[] = [
      { amount: rub('4.00') },
      { amount: { value: '3.00', currency: 'USD' } },
      { amount: { currency: 'RUB' } },
      { comment: 'Another comment' },
      { expirationDateTime: fromNow(2 * DAY_MS) },
      { flags: [] },
      { flags: ['SALE', 'BIND_PAYMENT_TOKEN'] },
      { customer: { account: 'other' } },
      { successUrl: 'https://shop.example.com/ok' },
    ]
    for (const over of variants) {
      const r = await api.put(`/bills/${billId}`, { ...body, ...over })
      assert.equal(r.status, 409, `${JSON.stringify(over)}: ${r.text}`)
      assertErrorShape(r, 409, 'payin.request.conflict')
    }
    const d = await api.get(`/bills/${billId}/details`)
    assert.equal(d.status, 200, d.text)
    const { payments, ...bill } = d.body
    assert.deepEqual(payments, [])
    assert.deepEqual(bill, first.body, 'nothing of the bill changed')
  })

  test("a billId already used by a payment's bill is 409 on bill create", async () => {
    const billId = uid('bill')
    const p = await api.put(`/payments/${uid('pay')}`, cardPayment({ billId, amount: rub('3.00') }))
    assert.equal(p.status, 200, p.text)
    assert.equal(p.body.billId, billId)
    assertErrorShape(await api.put(`/bills/${billId}`, billRequest()), 409, 'payin.request.conflict')
    const d = await api.get(`/bills/${billId}/details`)
    assert.equal(d.body.status.value, 'PAID', 'the implicit bill is unchanged')
  })

  test('10 concurrent identical PUTs create one bill: every answer is the same bill', async () => {
    const billId = uid('bill')
    const body = billRequest()
    const answers = await Promise.all(Array.from({ length: 10 }, () => api.put(`/bills/${billId}`, body)))
    for (const a of answers) assert.equal(a.status, 200, a.text)
    const uids = new Set(answers.map((a) => a.body.invoiceUid))
    assert.equal(uids.size, 1, `invoiceUids: ${[...uids].join(', ')}`)
    for (const a of answers) assert.deepEqual(a.body, answers[0].body)
    const d = await api.get(`/bills/${billId}/details`)
    assert.equal(d.body.invoiceUid, answers[0].body.invoiceUid)
  })

  test('the same billId in two sites is two bills', async () => {
    const other = client(await newSite('bills-other'))
    const billId = uid('bill')
    const a = await api.put(`/bills/${billId}`, billRequest())
    const b = await other.put(`/bills/${billId}`, billRequest({ amount: { value: '7.00', currency: 'EUR' } }))
    assert.equal(a.status, 200, a.text)
    assert.equal(b.status, 200, b.text)
    assert.notEqual(a.body.invoiceUid, b.body.invoiceUid)
    assert.equal(b.body.siteId, other.site.siteId)
    assert.deepEqual((await api.get(`/bills/${billId}/details`)).body.amount, rub('3.00'))
    assert.deepEqual((await other.get(`/bills/${billId}/details`)).body.amount, { value: '7.00', currency: 'EUR' })
  })
})

describe('bill reads (details and payments)', () => {
  let site: { siteId: string; token: string }
  let api: ReturnType<typeof client>
  before(async () => {
    site = await newSite('bills-read')
    api = client(site)
  })

  test('details of a new bill: the bill as created plus an empty payments array', async () => {
    const billId = uid('bill')
    const made = await api.put(
      `/bills/${billId}`,
      billRequest({ customer: { account: 'acc', email: 'e@example.com' }, failedUrl: 'https://shop.example.com/f' }),
    )
    assert.equal(made.status, 200, made.text)
    const d = await api.get(`/bills/${billId}/details`)
    assert.equal(d.status, 200, d.text)
    const { payments, ...bill } = d.body
    assert.deepEqual(payments, [])
    assert.deepEqual(bill, made.body)
  })

  test('the payments of a new bill are an empty JSON array', async () => {
    const billId = uid('bill')
    assert.equal((await api.put(`/bills/${billId}`, billRequest())).status, 200)
    const r = await api.get(`/bills/${billId}`)
    assert.equal(r.status, 200, r.text)
    assert.deepEqual(r.body, [])
  })

  test('an unknown bill is 404 payin.resource.not.found on both reads', async () => {
    const billId = uid('nobill')
    assertErrorShape(await api.get(`/bills/${billId}/details`), 404, 'payin.resource.not.found')
    assertErrorShape(await api.get(`/bills/${billId}`), 404, 'payin.resource.not.found')
  })

  test('a payment id is not a bill id', async () => {
    const paymentId = uid('pay')
    assert.equal((await api.put(`/payments/${paymentId}`, cardPayment())).status, 200)
    assertErrorShape(await api.get(`/bills/${paymentId}/details`), 404, 'payin.resource.not.found')
  })

  test('no token is 401; another site token is 403 whether or not the bill exists', async () => {
    const billId = uid('bill')
    assert.equal((await api.put(`/bills/${billId}`, billRequest())).status, 200)
    const path = `/api/sites/${site.siteId}/bills/${billId}`
    assertErrorShape(await request('GET', `${path}/details`), 401, 'auth.unauthorized')
    assertErrorShape(await request('PUT', path, { body: billRequest() }), 401, 'auth.unauthorized')
    const intruder = await newSite('intruder')
    const asIntruder = (method: string, p: string, body?: unknown) =>
      request(method, p, { token: intruder.token, body })
    for (const p of [path, `/api/sites/${site.siteId}/bills/${uid('nobill')}`]) {
      const details = await asIntruder('GET', `${p}/details`)
      assertErrorShape(details, 403, 'auth.forbidden')
      assert.doesNotMatch(details.text, new RegExp(billId))
      assertErrorShape(await asIntruder('GET', p), 403, 'auth.forbidden')
      assertErrorShape(await asIntruder('PUT', p, billRequest()), 403, 'auth.forbidden')
    }
    const d = await api.get(`/bills/${billId}/details`)
    assert.equal(d.status, 200, 'the bill is still there, unchanged by the intruder')
  })

  test("a bill of site A is invisible to site B on B's own path", async () => {
    const billId = uid('bill')
    assert.equal((await api.put(`/bills/${billId}`, billRequest())).status, 200)
    const b = client(await newSite('site-b'))
    assertErrorShape(await b.get(`/bills/${billId}/details`), 404, 'payin.resource.not.found')
    assertErrorShape(await b.get(`/bills/${billId}`), 404, 'payin.resource.not.found')
  })

  test('methods other than PUT and GET are 405', async () => {
    const billId = uid('bill')
    assert.equal((await api.put(`/bills/${billId}`, billRequest())).status, 200)
    assertErrorShape(await api.send('DELETE', `/bills/${billId}`), 405, 'http.method.not.allowed')
    assertErrorShape(
      await api.send('PUT', `/bills/${billId}/details`, { body: billRequest() }),
      405,
      'http.method.not.allowed',
    )
  })
})

describe('bill endpoints under the path aliases', () => {
  const PREFIXES = ['/api', '/partner/payin/v1', '/partner/v1']
  let site: { siteId: string; token: string }
  before(async () => {
    site = await newSite('bills-alias')
  })

  for (const create of PREFIXES) {
    test(`a bill created under ${create} is the same bill under every prefix`, async () => {
      const billId = uid('bill')
      const body = billRequest()
      const made: Answer = await client(site, create).put(`/bills/${billId}`, body)
      assert.equal(made.status, 200, made.text)
      assert.equal(made.body.payUrl, `${BASE_URL}/pay/${made.body.invoiceUid}`, 'payUrl does not depend on the prefix')
      for (const read of PREFIXES) {
        const api = client(site, read)
        const d = await api.get(`/bills/${billId}/details`)
        assert.equal(d.status, 200, `${read}: ${d.text}`)
        const { payments, ...bill } = d.body
        assert.deepEqual(bill, made.body, read)
        assert.deepEqual(payments, [])
        const list = await api.get(`/bills/${billId}`)
        assert.equal(list.status, 200, `${read}: ${list.text}`)
        assert.deepEqual(list.body, [])
        const replay = await api.put(`/bills/${billId}`, body)
        assert.deepEqual(replay.body, made.body, `replay under ${read}`)
      }
    })
  }
})
