// Production's test cards (its test-mode docs' "Test card numbers"): their outcome follows production's rules by
// the expiry month (02 declines; 03 and 04 wait and are approved or declined 3 s later, on the site's clock), and
// a CVV of 849 or a holder name containing "3ds" asks for 3-D Secure. The 3 s pass by advancing the site's sandbox
// clock, whose advance applies what fell due (seen in the database before anyone reads). A token or a recurrent
// series of such a card follows the month's rule; the page's card tab pays with them too.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { assertErrorShape, billRequest, cardPayment, client, newSite, request, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'

type Api = ReturnType<typeof client>

const VISA = '4256000000000011'
const MASTERCARD = '5236000000000013'
const MIR = '2200000000000012'
const UNIONPAY = '6056000000000018'
const DELAY_S = 3

const advance = async (api: Api, seconds: number) => {
  const r = await api.post('/sandbox/clock/advance', { seconds })
  assert.equal(r.status, 200, r.text)
}

/** the payment's status as stored: what the advance (or the scheduler) wrote, whether or not anyone read it */
const stored = async (siteId: string, paymentId: string) =>
  (
    await sql<{ status: string; reason: string | null }>(
      `SELECT status, "statusReason" AS reason FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2`,
      [siteId, paymentId],
    )
  )[0]

/** a WAITING payment of the issuer's delayed answer: nothing asked of the payer, and nobody completes it */
async function assertDelayed(api: Api, paymentId: string, answer: { body: any; text: string }) {
  assert.equal(answer.body.status.value, 'WAITING', answer.text)
  assert.equal(answer.body.requirements, undefined, 'nothing is asked of the payer')
  assertErrorShape(
    await api.post(`/payments/${paymentId}/complete`, { threeDS: { pares: 'x' } }),
    409,
    'payin.incorrect-method-invocation',
  )
}

/** the payer passing the emulated access-control page's challenge: the PaRes it posts back */
async function passedPares(pareq: string, acsUrl: string): Promise<string> {
  const form = { PaReq: pareq, MD: 'md', TermUrl: 'https://merchant.example/3ds-return' }
  const challenge = await (await fetch(acsUrl, { method: 'POST', body: new URLSearchParams(form) })).text()
  const action = new URL(/action="([^"]+)"/.exec(challenge)![1], acsUrl).href
  const back = await fetch(action, { method: 'POST', body: new URLSearchParams({ ...form, result: 'pass' }) })
  const pares = /name="PaRes" value="([^"]*)"/.exec(await back.text())![1]
  return pares.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)))
}

describe("production's test cards", () => {
  let api: Api
  before(async () => {
    api = client(await newSite('prod-cards'))
  })

  test('month 02 declines ACQUIRING_DECLINED at once, on every network', async () => {
    for (const pan of [VISA, MASTERCARD, MIR, UNIONPAY]) {
      const r = await api.put(`/payments/${uid('p02')}`, cardPayment({}, { pan, expiryDate: '02/30' }))
      assert.equal(r.status, 200, r.text)
      assert.equal(r.body.status.value, 'DECLINED', pan)
      assert.equal(r.body.status.reason, 'ACQUIRING_DECLINED', pan)
    }
  })

  test('month 03 waits, then is approved 3 s later on the sandbox clock', async () => {
    const id = uid('p03')
    const r = await api.put(`/payments/${id}`, cardPayment({}, { pan: VISA, expiryDate: '03/30' }))
    await assertDelayed(api, id, r)
    assert.deepEqual(r.body.paymentMethod, { type: 'CARD', maskedPan: '425600******0011' })
    await advance(api, DELAY_S)
    assert.deepEqual(await stored(api.site.siteId, id), { status: 'COMPLETED', reason: null })
    const read = await api.get(`/payments/${id}`)
    assert.equal(read.body.status.value, 'COMPLETED')
    assert.equal(read.body.capturedAmount.value, '100.00')
    // dated when the answer fell due, not when the clock was advanced
    const after = Date.parse(read.body.status.changedDateTime) - Date.parse(read.body.createdDateTime)
    assert.equal(after, DELAY_S * 1000)
  })

  test('month 04 waits, then is declined ACQUIRING_DECLINED 3 s later', async () => {
    const id = uid('p04')
    const r = await api.put(`/payments/${id}`, cardPayment({}, { pan: MASTERCARD, expiryDate: '04/30' }))
    await assertDelayed(api, id, r)
    await advance(api, DELAY_S)
    assert.deepEqual(await stored(api.site.siteId, id), { status: 'DECLINED', reason: 'ACQUIRING_DECLINED' })
    const replay = await api.put(`/payments/${id}`, cardPayment({}, { pan: MASTERCARD, expiryDate: '04/30' }))
    assert.equal(replay.body.status.reason, 'ACQUIRING_DECLINED')
  })

  test('CVV 849, or a holder name containing 3ds, asks for 3-D Secure; the CVV is not stored', async () => {
    const holder = 'My 3DS card'
    for (const card of [
      { pan: MIR, cvv2: '849' },
      { pan: UNIONPAY, holderName: holder },
      // the 3-D Secure rule comes before the month's
      { pan: VISA, expiryDate: '03/30', cvv2: '849' },
    ]) {
      const id = uid('p3ds')
      const r = await api.put(`/payments/${id}`, cardPayment({}, card))
      assert.equal(r.status, 200, r.text)
      assert.equal(r.body.status.value, 'WAITING', JSON.stringify(card))
      assert.equal(typeof r.body.requirements.threeDS.pareq, 'string')
      assert.ok(!r.text.includes(holder) && !r.text.includes('"849"'), 'neither the name nor the CVV is answered')
      const [row] = await sql<{ row: string }>(
        `SELECT row_to_json(p)::text AS row FROM "Payment" p WHERE "siteId" = $1 AND "paymentId" = $2`,
        [api.site.siteId, id],
      )
      // the CVV is in no column, nor under any key of a JSON column (a substring test would meet 849 in ids)
      const leaves: [string, unknown][] = []
      const walk = (key: string, v: unknown): void => {
        if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(k, x)
        else leaves.push([key, v])
      }
      walk('', JSON.parse(row.row))
      assert.ok(!leaves.some(([k, v]) => /cvv/i.test(k) || String(v) === '849'), 'the CVV is not stored')
      // the holder's name is kept in its column alone, for the payment's notifications (paymentMethod.cardHolder)
      assert.equal(row.row.split(holder).length - 1, card.holderName ? 1 : 0)
      assert.equal(JSON.parse(row.row).cardHolder, card.holderName ?? null)
    }
  })

  test('another month approves at once; an expired card declines before any rule', async () => {
    for (const pan of [VISA, MASTERCARD, MIR, UNIONPAY]) {
      const r = await api.put(`/payments/${uid('p12')}`, cardPayment({}, { pan, expiryDate: '12/30' }))
      assert.equal(r.body.status.value, 'COMPLETED', pan)
    }
    const expired = await api.put(`/payments/${uid('pexp')}`, cardPayment({}, { pan: VISA, expiryDate: '03/20' }))
    assert.equal(expired.body.status.reason, 'ACQUIRING_EXPIRED_CARD')
  })

  test('2200000000000004, in both tables, keeps the sandbox rule: approved whatever month and CVV', async () => {
    for (const card of [{ expiryDate: '02/30' }, { expiryDate: '04/30', cvv2: '849' }, { holderName: '3ds' }]) {
      const r = await api.put(`/payments/${uid('p4')}`, cardPayment({}, { pan: '2200000000000004', ...card }))
      assert.equal(r.body.status.value, 'COMPLETED', JSON.stringify(card))
    }
  })

  test('holderName must be a string of at most 256 characters', async () => {
    for (const holderName of [42, 'x'.repeat(257)]) {
      const r = await api.put(`/payments/${uid('pname')}`, cardPayment({}, { pan: VISA, holderName }))
      assertErrorShape(r, 400, 'validation.error')
      assert.ok(r.body.cause['paymentMethod.holderName'], String(holderName))
    }
  })
})

describe("a token or a recurrent series of a production test card follows the card's month", () => {
  let api: Api
  before(async () => {
    api = client(await newSite('prod-cards-later'))
  })

  test('a token of an 03 card is issued once its payment is approved; each charge of it waits 3 s too', async () => {
    const bind = uid('bind')
    const body = cardPayment(
      { flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customer: { account: 'acc-03' } },
      { pan: VISA, expiryDate: '03/30' },
    )
    const r = await api.put(`/payments/${bind}`, body)
    await assertDelayed(api, bind, r)
    assert.equal(r.body.createdToken, undefined, 'no token before the approval')
    await advance(api, DELAY_S)
    const bound = await api.get(`/payments/${bind}`)
    assert.equal(bound.body.status.value, 'COMPLETED')
    const token = bound.body.createdToken.token as string
    const charge = uid('tok')
    const byToken = {
      paymentMethod: { type: 'TOKEN', paymentToken: token },
      amount: { value: '10.00', currency: 'RUB' },
      flags: ['SALE'],
      customer: { account: 'acc-03' },
    }
    const c = await api.put(`/payments/${charge}`, byToken)
    await assertDelayed(api, charge, c)
    await advance(api, DELAY_S)
    assert.deepEqual(await stored(api.site.siteId, charge), { status: 'COMPLETED', reason: null })
  })

  test('a card asked for 3-D Secure by its CVV: once passed, its token is charged without it', async () => {
    // the token's charge carries no CVV: the card's profile keeps its month's class (12: approved), not 3-D Secure
    const bind = uid('bind')
    const r = await api.put(
      `/payments/${bind}`,
      cardPayment(
        { flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customer: { account: 'acc-3ds' } },
        { pan: MIR, cvv2: '849' },
      ),
    )
    const { pareq, acsUrl } = r.body.requirements.threeDS
    const done = await api.post(`/payments/${bind}/complete`, { threeDS: { pares: await passedPares(pareq, acsUrl) } })
    assert.equal(done.body.status.value, 'COMPLETED', done.text)
    const [row] = await sql<{ cardProfile: unknown }>(
      `SELECT "cardProfile" FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2`,
      [api.site.siteId, bind],
    )
    assert.deepEqual(row.cardProfile, { outcome: 'approved', month: 12, year: 2030 })
    const c = await api.put(`/payments/${uid('tok')}`, {
      paymentMethod: { type: 'TOKEN', paymentToken: done.body.createdToken.token },
      amount: { value: '10.00', currency: 'RUB' },
      flags: ['SALE'],
      customer: { account: 'acc-3ds' },
    })
    assert.equal(c.body.status.value, 'COMPLETED', c.text)
  })

  test('a recurrent series of an 03 card starts 3 s later; its charges wait 3 s, then are approved', async () => {
    const first = uid('first')
    const expiryDate = new Date(Date.now() + 365 * 86400_000).toISOString().slice(0, 10)
    const r = await api.put(
      `/payments/${first}`,
      cardPayment(
        { flags: ['SALE', 'RECURRENT_FIRST'], recurrent: { minAuthDay: 1, expiryDate } },
        { pan: UNIONPAY, expiryDate: '03/30' },
      ),
    )
    await assertDelayed(api, first, r)
    await advance(api, DELAY_S)
    assert.equal((await api.get(`/payments/${first}`)).body.status.value, 'COMPLETED')
    await advance(api, 86400)
    const charge = uid('rc')
    const c = await api.put(`/payments/${charge}`, {
      paymentMethod: { type: 'RECURRENT', firstPaymentId: first },
      amount: { value: '9.99', currency: 'RUB' },
      flags: ['SALE'],
    })
    await assertDelayed(api, charge, c)
    assert.deepEqual(c.body.paymentMethod, { type: 'CARD', maskedPan: '605600******0018' })
    await advance(api, DELAY_S)
    assert.deepEqual(await stored(api.site.siteId, charge), { status: 'COMPLETED', reason: null })
  })
})

describe("the payment page's card tab pays with production's test cards", () => {
  let api: Api
  before(async () => {
    api = client(await newSite('prod-cards-page'))
  })

  async function newBill() {
    const billId = uid('bill')
    const r = await api.put(`/bills/${billId}`, billRequest())
    assert.equal(r.status, 200, r.text)
    return { billId, invoiceUid: r.body.invoiceUid as string }
  }
  const attempt = (invoiceUid: string, card: Record<string, string>) =>
    request('POST', `/pay/${invoiceUid}/attempts`, {
      body: { method: 'card', pan: VISA, expiry: '12/30', cvv: '123', ...card },
    })

  test('an 03 card: the page waits, and the bill is paid 3 s later', async () => {
    const bill = await newBill()
    const r = await attempt(bill.invoiceUid, { expiry: '03/30' })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.kind, 'wait')
    await advance(api, DELAY_S)
    const now = await request('GET', `/pay/${bill.invoiceUid}/attempts/${encodeURIComponent(r.body.attemptId)}`)
    assert.equal(now.body.kind, 'redirect', now.text)
    assert.equal((await api.get(`/bills/${bill.billId}/details`)).body.status.value, 'PAID')
  })

  test('an 02 card is declined; CVV 849 sends the payer to 3-D Secure', async () => {
    const declined = await attempt((await newBill()).invoiceUid, { expiry: '02/30' })
    assert.deepEqual(declined.body, { kind: 'declined', reason: 'ACQUIRING_DECLINED' })
    const challenged = await attempt((await newBill()).invoiceUid, { cvv: '849' })
    assert.equal(challenged.body.kind, 'threeDS', challenged.text)
  })
})
