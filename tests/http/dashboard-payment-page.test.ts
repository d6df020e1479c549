// A payment's dashboard page (issue 33): it offers Capture only on an authorised, uncaptured payment and Refund only
// while something is refundable (prefilled with all of it; a split payment's refunds are left to the API), shows the
// payment's comment, customer and custom fields and links its bill; every dashboard page has one <title>, naming it;
// Settings says how to see the signing secret.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { BASE_URL, cardPayment, client, newSite, rub, twoStepPayment, uid } from '../support/api.ts'
import { asSession, assertError, dashboardPage, post, signIn } from '../support/dashboard.ts'

/** the page's HTML, and the amounts its Capture and Refund forms are prefilled with (null: not offered) */
async function paymentPage(cookie: string, paymentId: string) {
  const r = await dashboardPage(cookie, `/dashboard/payments/${encodeURIComponent(paymentId)}`)
  assert.equal(r.status, 200)
  // the text as read: the page wraps each word of a value in a span that keeps it on one line
  const html = (await r.text()).replace(/<span class="dash-word">([^<]*)<\/span>/g, '$1')
  const prefilled = (kind: string) => html.match(new RegExp(`id="${kind}-amount"[^>]*value="([^"]*)"`))?.[1] ?? null
  return { html, capture: prefilled('capture'), refund: prefilled('refund') }
}

test('Capture and Refund are offered only where they can work, prefilled with what remains', async () => {
  const site = await newSite('dash-actions')
  const api = client(site)
  const cookie = await signIn(site)

  const held = await api.newPayment(twoStepPayment())
  let page = await paymentPage(cookie, held)
  assert.equal(page.capture, '100.00')
  assert.equal(page.refund, '100.00', 'a refund of a hold reverses it')

  // a partial reversal leaves less to capture and to release
  assert.equal((await api.put(`/payments/${held}/refunds/${uid('rev')}`, { amount: rub('30.00') })).status, 200)
  page = await paymentPage(cookie, held)
  assert.deepEqual([page.capture, page.refund], ['70.00', '70.00'])

  // captured: no second capture; the refund is prefilled with what was captured
  assert.equal((await api.put(`/payments/${held}/captures/${uid('cap')}`, { amount: rub('50.00') })).status, 200)
  page = await paymentPage(cookie, held)
  assert.deepEqual([page.capture, page.refund], [null, '50.00'])
  assert.match(page.html, /<p>Nothing is left to capture\.<\/p>/, 'the Capture section says why it offers nothing')

  // one-step: never a capture; once all is refunded, nothing is offered and the page says so
  const sale = await api.newPayment(cardPayment())
  page = await paymentPage(cookie, sale)
  assert.deepEqual([page.capture, page.refund], [null, '100.00'])
  assert.equal((await api.put(`/payments/${sale}/refunds/${uid('ref')}`, { amount: rub('100.00') })).status, 200)
  page = await paymentPage(cookie, sale)
  assert.deepEqual([page.capture, page.refund], [null, null])
  assert.match(page.html, /<p>Nothing is left to refund\.<\/p>/)
  assert.doesNotMatch(page.html, /aria-labelledby="capture"/, 'a one-step payment has no Capture section')

  // declined: neither
  const declined = await api.newPayment(cardPayment({}, { pan: '4000000000000002' }))
  page = await paymentPage(cookie, declined)
  assert.deepEqual([page.capture, page.refund], [null, null])
  assert.doesNotMatch(page.html, /aria-labelledby="(capture|refund)"/, 'a declined payment has neither section')
})

test('a form left open while the payment moved on, or an amount above what is left: refused, nothing recorded', async () => {
  const site = await newSite('dash-stale')
  const api = client(site)
  const cookie = await signIn(site)
  const act = (paymentId: string, kind: 'capture' | 'refund', amount: string) =>
    post(`/dashboard/actions/payments/${paymentId}/${kind}`, { amount, key: randomUUID() }, asSession(cookie))
  /** the shop's capture notifications, the payment's refunds, and the shop's notifications of declines */
  const recorded = async (paymentId: string) => {
    const list = (await api.get('/notifications')).body as { type: string; status?: { value?: string } }[]
    return {
      captures: list.filter((n) => n.type === 'CAPTURE').length,
      refunds: ((await api.get(`/payments/${paymentId}/refunds`)).body as unknown[]).length,
      declinedNotices: list.filter((n) => n.type !== 'PAYMENT' && n.status?.value === 'DECLINED').length,
    }
  }

  // a hold released in another tab: the Capture form still on the screen is refused
  const held = await api.newPayment(twoStepPayment({ amount: rub('500.00') }))
  assert.equal((await api.put(`/payments/${held}/refunds/${uid('rel')}`, { amount: rub('500.00') })).status, 200)
  const before = await recorded(held)
  const stale = await act(held, 'capture', '500.00')
  assertError(stale, 409, 'payin.incorrect-method-invocation')
  assert.equal(stale.body.description, 'Nothing is left to capture on this payment')
  assert.deepEqual(await recorded(held), before)

  // more than is left: refused, as is a refund of a payment refunded in full meanwhile
  const hold = await api.newPayment(twoStepPayment({ amount: rub('10.00') }))
  const above = await act(hold, 'capture', '99999.00')
  assertError(above, 409, 'payin.incorrect-method-invocation')
  assert.equal(above.body.description, 'The amount is more than is left to capture')
  const sale = await api.newPayment(cardPayment({ amount: rub('100.00') }))
  assertError(await act(sale, 'refund', '100.01'), 409, 'payin.incorrect-method-invocation')
  assert.equal((await act(sale, 'refund', '100.00')).status, 200)
  const again = await act(sale, 'refund', '100.00')
  assertError(again, 409, 'payin.incorrect-method-invocation')
  assert.equal(again.body.description, 'The amount is more than is left to refund')
  assert.deepEqual(
    [await recorded(hold), await recorded(sale)],
    [
      { captures: 0, refunds: 0, declinedNotices: 0 },
      { captures: 0, refunds: 1, declinedNotices: 0 },
    ],
  )
  // the refusals are in the audit log, in the page's language
  const audit = await (
    await fetch(`${BASE_URL}/dashboard/payments/${encodeURIComponent(sale)}`, {
      headers: { ...asSession(cookie), 'Accept-Language': 'ru-RU,ru;q=0.9' },
    })
  )
    .text()
    .then((html) => html.replaceAll('<!-- -->', ''))
  assert.match(audit, /отказ: Сумма больше, чем осталось вернуть/)
  // the API itself still records what it declines, as production does
  const declined = await api.put(`/payments/${sale}/refunds/${uid('api')}`, { amount: rub('1.00') })
  assert.equal((declined.body as { status: { value: string } }).status.value, 'DECLINED')
})

test("a hold is named as it stands: authorised, paid once captured, released; the wire code in the word's title", async () => {
  const site = await newSite('dash-hold-words')
  const api = client(site)
  const cookie = await signIn(site)
  const held = await api.newPayment(twoStepPayment())
  const captured = await api.newPayment(twoStepPayment())
  assert.equal((await api.put(`/payments/${captured}/captures/${uid('cap')}`, {})).status, 200)
  const released = await api.newPayment(twoStepPayment())
  assert.equal((await api.put(`/payments/${released}/refunds/${uid('rel')}`, { amount: rub('100.00') })).status, 200)
  const sale = await api.newPayment(cardPayment())
  const word = (html: string) =>
    /<span class="dash-word" title="([A-Z]+)" data-code="[A-Z]+">([^<]+)<\/span>/.exec(html)
  const shown = async (paymentId: string, headers: Record<string, string> = {}) => {
    const r = await fetch(`${BASE_URL}/dashboard/payments/${encodeURIComponent(paymentId)}`, {
      headers: { ...asSession(cookie), ...headers },
    })
    const html = await r.text()
    const status = html.slice(
      html.indexOf('<dt>Status</dt>') >= 0 ? html.indexOf('<dt>Status</dt>') : html.indexOf('<dt>Статус</dt>'),
    )
    return word(status)?.slice(1)
  }
  assert.deepEqual(await shown(held), ['COMPLETED', 'Authorised'])
  assert.deepEqual(await shown(captured), ['COMPLETED', 'Paid'])
  assert.deepEqual(await shown(released), ['COMPLETED', 'Released'])
  assert.deepEqual(await shown(sale), ['COMPLETED', 'Paid'])
  const ru = { 'Accept-Language': 'ru-RU,ru;q=0.9' }
  assert.deepEqual(await shown(held, ru), ['COMPLETED', 'Авторизован'])
  assert.deepEqual(await shown(released, ru), ['COMPLETED', 'Отменён'])
  // the list names them alike
  const list = await (await dashboardPage(cookie, '/dashboard/payments')).text()
  for (const [id, name] of [
    [held, 'Authorised'],
    [captured, 'Paid'],
    [released, 'Released'],
  ]) {
    const row = list.slice(list.indexOf(`>${id}</a>`)).split('</tr>')[0]
    assert.equal(word(row)?.[2], name, `${name}: ${row}`)
  }
})

test('a split payment: Capture is offered, Refund is left to the API (it needs refundSplits)', async () => {
  const site = await newSite('dash-splits')
  const api = client(site)
  const cookie = await signIn(site)
  const share = (siteUid: string, value: string) => ({
    type: 'MERCHANT_DETAILS',
    siteUid,
    splitAmount: rub(value),
  })
  const held = await api.newPayment(
    twoStepPayment({ paymentSplits: [share('shop-a', '60.00'), share('shop-b', '40.00')] }),
  )
  let page = await paymentPage(cookie, held)
  assert.deepEqual([page.capture, page.refund], ['100.00', null])
  assert.match(page.html, /<p class="dash-card">Refunds of a split payment go through the API/)
  // the dashboard's refund action, sent anyway, passes the API's refusal on
  const refused = await post(
    `/dashboard/actions/payments/${held}/refund`,
    { amount: '10.00', key: randomUUID() },
    asSession(cookie),
  )
  assertError(refused, 400, 'validation.error')
  assert.ok(refused.body.cause?.refundSplits, refused.text)
  // a capture of part of it is refused in the dashboard, saying why, with nothing recorded
  const part = await post(
    `/dashboard/actions/payments/${held}/capture`,
    { amount: '50.00', key: randomUUID() },
    asSession(cookie),
  )
  assertError(part, 409, 'payin.incorrect-method-invocation')
  assert.equal(part.body.description, 'A payment with splits or a receipt is captured in full only')
  assert.equal((await api.get(`/payments/${held}`)).body.capturedAmount.value, '0.00')
  assert.equal((await api.put(`/payments/${held}/captures/${uid('cap')}`, {})).status, 200)
  page = await paymentPage(cookie, held)
  assert.deepEqual([page.capture, page.refund], [null, null])
  assert.match(page.html, /Refunds of a split payment go through the API/)
})

test("a payment's page shows its comment, customer and custom fields, and links its bill", async () => {
  const site = await newSite('dash-fields')
  const api = client(site)
  const cookie = await signIn(site)
  const billId = uid('bill')
  const paymentId = await api.newPayment(
    cardPayment({
      billId,
      comment: 'Order 1042 <b>two mugs</b>',
      customer: { email: 'payer@example.com', account: 'acc-7' },
      customFields: { cf1: 'gift wrap' },
    }),
  )
  const { html } = await paymentPage(cookie, paymentId)
  assert.match(html, /<dt>Comment<\/dt><dd>Order 1042 &lt;b&gt;two mugs&lt;\/b&gt;<\/dd>/)
  assert.match(html, /<dt>Email<\/dt><dd>payer@example.com<\/dd>/)
  assert.match(html, /<dt>Account<\/dt><dd>acc-7<\/dd>/)
  assert.match(html, /<dt>Custom fields<\/dt>/)
  assert.match(html, /<dt>cf1<\/dt><dd>gift wrap<\/dd>/)
  assert.match(html, new RegExp(`<a [^>]*href="/dashboard/bills/${billId}"[^>]*>${billId}</a>`))
  const bill = await dashboardPage(cookie, `/dashboard/bills/${billId}`)
  assert.equal(bill.status, 200)
  assert.match(await bill.text(), new RegExp(`href="/dashboard/payments/${paymentId}"`))
})

test('every dashboard page has one <title>, naming the page; Settings says how to see the signing secret', async () => {
  const site = await newSite('dash-titles')
  const api = client(site)
  const cookie = await signIn(site)
  const paymentId = await api.newPayment(cardPayment())
  const titles = async (path: string, cookieValue = cookie) => {
    const html = await (await dashboardPage(cookieValue, path)).text()
    return [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1])
  }
  assert.deepEqual(await titles(`/dashboard/payments/${paymentId}`), [`Payment ${paymentId} · Payin`])
  assert.deepEqual(await titles('/dashboard'), ['Overview · Payin'])
  assert.deepEqual(await titles('/dashboard/payments'), ['Payments · Payin'])
  assert.deepEqual(await titles('/dashboard/bills'), ['Bills · Payin'])
  assert.deepEqual(await titles('/dashboard/settings'), ['Settings · Payin'])
  assert.deepEqual(await titles('/dashboard', ''), ['Sign in to the dashboard · Payin'])

  // an action the dashboard does not have: the 404 in the error shape, never a framed page
  for (const method of ['GET', 'POST']) {
    const r = await fetch(`${BASE_URL}/dashboard/actions/nope`, { method, headers: asSession(cookie) })
    assert.equal(r.status, 404, method)
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/, method)
    assert.doesNotMatch(await r.text(), /<html/, method)
  }

  const settings = await (await dashboardPage(cookie, '/dashboard/settings')).text()
  assert.match(settings, new RegExp(`<code>npm run site -- secret ${site.siteId}</code>`))
  assert.doesNotMatch(settings, /shown once, when it is made/)
})
