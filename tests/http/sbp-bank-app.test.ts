// The sandbox bank app over HTTP: the page an SBP QR code's payload opens (GET /sbp/{publicId}) and its form post
// (POST /sbp/{publicId}/act): what it shows in each language and state, paying, linking and declining, the redirect
// to the code's redirectUrl, cross-site posts refused, unknown codes 404, a code acted on twice never a 5xx.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { BASE_URL, client, newSite, rub, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'

const SECOND_BANK = '100000000902'

/** the bank app's path of a code's payload */
const pathOf = (payload: string) => new URL(payload).pathname

async function page(path: string, lang = 'en') {
  const res = await fetch(`${BASE_URL}${path}`, { headers: { 'Accept-Language': lang } })
  return { status: res.status, headers: res.headers, html: await res.text() }
}

/** the bank app's form as a browser posts it: same-origin unless `headers` say otherwise; redirects not followed */
async function act(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${BASE_URL}${path}/act`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })
  return { status: res.status, location: res.headers.get('location'), text: await res.text() }
}

describe('the sandbox bank app', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('sbp-app'))
  })

  /** a DYNAMIC code of the QR API; its uid and the bank app's path */
  async function dynamicCode(over: Record<string, unknown> = {}) {
    const qrCodeUid = uid('qr')
    const r = await api.put(`/sbp/qrCodes/${qrCodeUid}`, {
      amount: rub('1490.00'),
      qrCode: { type: 'DYNAMIC', ttl: 60 },
      paymentPurpose: 'Order 1001',
      ...over,
    })
    assert.equal(r.status, 200, r.text)
    return { qrCodeUid, path: pathOf(r.body.qrCode.payload) }
  }

  const statusOf = async (qrCodeUid: string) => (await api.get(`/sbp/qrCodes/${qrCodeUid}`)).body

  test('a payable code: the sandbox banner, merchant, amount, purpose, the test banks, Pay and Decline; in Russian too', async () => {
    const { path } = await dynamicCode()
    const en = await page(path)
    assert.equal(en.status, 200)
    assert.match(en.html, /Sandbox bank app: a test bank/)
    assert.ok(en.html.includes(api.site.siteId))
    assert.match(en.html, /RUB[\s\u00a0]1,490\.00/)
    assert.match(en.html, /Order 1001/)
    for (const bank of ['Sandbox Bank', 'Test Savings Bank', 'Demo Digital Bank']) assert.ok(en.html.includes(bank))
    assert.match(en.html, /<input type="radio" name="bank" checked="" value="100000000901"/)
    assert.ok(en.html.includes(`action="${path}/act"`))
    assert.match(en.html, /value="pay" name="action">Pay</)
    assert.match(en.html, /value="decline" name="action">Decline</)
    // the pages' security headers; no form-action, so that its post may go on to the merchant's redirectUrl
    const csp = en.headers.get('content-security-policy') ?? ''
    assert.match(csp, /frame-ancestors 'none'/)
    assert.doesNotMatch(csp, /form-action/)
    assert.equal(en.headers.get('x-frame-options'), 'DENY')
    // same-origin: its form's post carries the page's Origin (no-referrer would send `Origin: null`)
    assert.equal(en.headers.get('referrer-policy'), 'same-origin')
    const ru = await page(path, 'ru-RU,ru;q=0.9')
    assert.match(ru.html, /Тестовое приложение банка/)
    assert.match(ru.html, /1[\s\u00a0]490,00[\s\u00a0]₽/)
    assert.match(ru.html, /value="pay" name="action">Оплатить</)
  })

  test('Pay: the code PAYED from the chosen bank, the payer sent to redirectUrl; the page then says paid', async () => {
    const { qrCodeUid, path } = await dynamicCode({ redirectUrl: `${BASE_URL}/api/health?order=1001` })
    const r = await act(path, { bank: SECOND_BANK, action: 'pay' })
    assert.equal(r.status, 303, r.text)
    assert.equal(r.location, `${BASE_URL}/api/health?order=1001`)
    const code = await statusOf(qrCodeUid)
    assert.equal(code.qrCode.status, 'PAYED')
    const payment = await api.paymentNow(code.payment.paymentUid)
    assert.equal(payment.status.value, 'COMPLETED')
    assert.equal(payment.customer.bankMemberId, SECOND_BANK)
    const after = await page(path)
    assert.equal(after.status, 200)
    assert.match(after.html, /<h1>Paid<\/h1>/)
    assert.match(after.html, /Return to the merchant/)
    assert.doesNotMatch(after.html, /<form/)
  })

  test('an already paid code posted again (pay or decline): back to its page, which shows it paid; one payment', async () => {
    const { qrCodeUid, path } = await dynamicCode({ redirectUrl: `${BASE_URL}/api/health` })
    assert.equal((await act(path, { action: 'pay' })).status, 303)
    for (const action of ['pay', 'decline']) {
      const again = await act(path, { action, bank: SECOND_BANK })
      assert.equal(again.status, 303, again.text)
      assert.equal(again.location, path)
    }
    assert.match((await page(path)).html, /<h1>Paid<\/h1>/)
    const code = await statusOf(qrCodeUid)
    assert.equal(code.qrCode.status, 'PAYED')
    const [{ count }] = await sql(
      `SELECT count(*)::int AS count FROM "Payment" WHERE "siteId" = $1 AND "methodData"->>'qrCodeUid' = $2`,
      [api.site.siteId, qrCodeUid],
    )
    assert.equal(count, 1)
  })

  test('Decline without a redirectUrl: back to the page, which says declined; the payment DECLINED by the payer', async () => {
    const { qrCodeUid, path } = await dynamicCode()
    const r = await act(path, { action: 'decline' })
    assert.equal(r.status, 303, r.text)
    assert.equal(r.location, path)
    const code = await statusOf(qrCodeUid)
    assert.equal(code.qrCode.status, 'DECLINED')
    const payment = await api.paymentNow(code.payment.paymentUid)
    assert.equal(payment.status.reason, 'SBP_DECLINED_BY_PAYER')
    assert.match((await page(path)).html, /<h1>Declined<\/h1>/)
    assert.match((await page(path, 'ru')).html, /<h1>Отклонено<\/h1>/)
  })

  test('a TOKEN code: Link account, no amount; linking binds the FPS token and the page says linked', async () => {
    const qrCodeUid = uid('qr')
    const r = await api.put(`/sbp/qrCodes/${qrCodeUid}`, {
      qrCode: { type: 'TOKEN' },
      tokenizationAccount: 'customer-42',
      tokenizationPurpose: 'One-tap orders',
      flags: ['CREATE_TOKEN'],
    })
    assert.equal(r.status, 200, r.text)
    const path = pathOf(r.body.qrCode.payload)
    const before = await page(path)
    assert.match(before.html, /value="pay" name="action">Link account</)
    assert.match(before.html, /One-tap orders/)
    assert.doesNotMatch(before.html, /data-testid="amount"/)
    assert.equal((await act(path, { action: 'pay' })).status, 303)
    const code = await statusOf(qrCodeUid)
    assert.equal(code.qrCode.status, 'PAYED')
    assert.ok(code.token?.value, 'the FPS token is bound')
    assert.match((await page(path)).html, /<h1>Account linked<\/h1>/)
  })

  test("an SBP payment's code: paid in the bank app, the payment COMPLETED, the payer back on the page", async () => {
    const paymentId = uid('sbp')
    const p = await api.put(`/payments/${paymentId}`, { paymentMethod: { type: 'SBP' }, amount: rub('4.05') })
    assert.equal(p.status, 200, p.text)
    const path = pathOf(p.body.requirements.sbp.payload)
    assert.match((await page(path)).html, /RUB[\s\u00a0]4\.05/)
    const r = await act(path, { action: 'pay', bank: '100000000903' })
    assert.equal(r.status, 303, r.text)
    assert.equal(r.location, path)
    const paid = await api.paymentNow(paymentId)
    assert.equal(paid.status.value, 'COMPLETED')
    assert.equal(paid.customer.bankMemberId, '100000000903')
  })

  test('an expired code (its ttl over on the site clock): the page says expired; a post goes back to it', async () => {
    const own = client(await newSite('sbp-app-expiry'))
    const qrCodeUid = uid('qr')
    const r = await own.put(`/sbp/qrCodes/${qrCodeUid}`, { amount: rub('5.00'), qrCode: { type: 'DYNAMIC', ttl: 1 } })
    assert.equal(r.status, 200, r.text)
    const path = pathOf(r.body.qrCode.payload)
    assert.equal((await own.post('/sandbox/clock/advance', { seconds: 61 })).status, 200)
    assert.match((await page(path)).html, /<h1>This QR code has expired<\/h1>/)
    const posted = await act(path, { action: 'pay' })
    assert.equal(posted.status, 303, posted.text)
    assert.equal(posted.location, path)
    assert.equal((await own.get(`/sbp/qrCodes/${qrCodeUid}`)).body.qrCode.status, 'EXPIRED')
  })

  test('cross-site posts are refused (403) and change nothing', async () => {
    const { qrCodeUid, path } = await dynamicCode()
    const refusedHeaders: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { 'Sec-Fetch-Site': '', Origin: 'https://evil.example' },
    ]
    for (const headers of refusedHeaders) {
      const r = await act(path, { action: 'pay' }, headers)
      assert.equal(r.status, 403, JSON.stringify(headers))
      assert.equal(r.location, null)
    }
    assert.equal((await statusOf(qrCodeUid)).qrCode.status, 'CREATED')
  })

  test("unknown codes: a 404 page in the payer's language, and a 404 to a post; bad posts 400; no 5xx", async () => {
    for (const path of ['/sbp/AAAAAAAAAAAAAAAAAAAAAA', '/sbp/x', `/sbp/${'A'.repeat(300)}`, '/sbp/%E2%9C%93']) {
      const en = await page(path)
      assert.equal(en.status, 404, path)
      assert.match(en.html, /QR code not found/)
      assert.equal((await act(path, { action: 'pay' })).status, 404, path)
    }
    assert.match((await page('/sbp/AAAAAAAAAAAAAAAAAAAAAA', 'ru')).html, /QR-код не найден/)
    const { qrCodeUid, path } = await dynamicCode()
    assert.equal((await act(path, { action: 'refund' })).status, 400)
    assert.equal((await act(path, { action: 'pay', bank: '999999999999' })).status, 400)
    const notAForm = await fetch(`${BASE_URL}${path}/act`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
      body: 'not a form',
      redirect: 'manual',
    })
    assert.equal(notAForm.status, 400)
    assert.equal((await statusOf(qrCodeUid)).qrCode.status, 'CREATED')
  })

  test('a redirectUrl a header cannot carry as written goes out percent-encoded, after the payment', async () => {
    for (const redirectUrl of [`${BASE_URL}/api/health?q=€`, `${BASE_URL}/api/заказ?x=1`, `${BASE_URL}/api/café`]) {
      const { qrCodeUid, path } = await dynamicCode({ redirectUrl })
      const r = await act(path, { action: 'pay' })
      assert.equal(r.status, 303, r.text)
      assert.equal(r.location, new URL(redirectUrl).href)
      assert.match(r.location!, /^[\x21-\x7e]+$/, 'ASCII only')
      assert.equal((await statusOf(qrCodeUid)).qrCode.status, 'PAYED')
    }
  })

  test('a same-origin post told by its Origin alone (no Sec-Fetch-Site, as older Safari) is taken', async () => {
    const { qrCodeUid, path } = await dynamicCode()
    const r = await act(path, { action: 'pay' }, { 'Sec-Fetch-Site': '', Origin: new URL(BASE_URL).origin })
    assert.equal(r.status, 303, r.text)
    assert.equal((await statusOf(qrCodeUid)).qrCode.status, 'PAYED')
  })

  test('a code withdrawn as its bill closed says so, not that the payer declined it', async () => {
    const billId = uid('bill')
    const bill = await api.put(`/bills/${billId}`, {
      amount: rub('5.00'),
      expirationDateTime: new Date(Date.now() + 3600_000).toISOString(),
    })
    assert.equal(bill.status, 200, bill.text)
    const sbp = await api.put(`/payments/${uid('sbp')}`, {
      paymentMethod: { type: 'SBP' },
      amount: rub('5.00'),
      billId,
    })
    const path = pathOf(sbp.body.requirements.sbp.payload)
    const card = await api.put(`/payments/${uid('card')}`, {
      paymentMethod: { type: 'CARD', pan: '4111111111111111', expiryDate: '12/30', cvv2: '123', holderName: 'A B' },
      amount: rub('5.00'),
      flags: ['SALE'],
      billId,
    })
    assert.equal(card.body.status.value, 'COMPLETED', card.text)
    const r = await act(path, { action: 'pay' })
    assert.equal(r.status, 303, r.text)
    const shown = await page(path)
    assert.match(shown.html, /No longer payable/)
    assert.doesNotMatch(shown.html, /You declined this payment/)
  })
})
