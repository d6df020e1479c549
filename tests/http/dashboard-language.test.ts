// The dashboard in the page's language (issue 33, point 2), over HTTP: in Russian a payment's status, method, flags and
// decline reason are words (the code in the title, a reason's code beside its sentence), amounts and amount fields
// are in the language's format (`1 234,50 ₽`, a field prefilled `1234,50`), the actions take `1234,50` and `1234.50`
// alike, the service's refusals in the audit log are in Russian, and the status filter offers the payments' statuses
// only, in words.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { PAYMENT_STATUSES } from '../../lib/payments/payment-wire.ts'
import { BASE_URL, cardPayment, client, newSite, rub, twoStepPayment } from '../support/api.ts'
import { asSession, post, signIn } from '../support/dashboard.ts'

const RU = { 'Accept-Language': 'ru-RU,ru;q=0.9' }

/** a dashboard page's HTML in a language; spaces of every kind (Intl's no-break ones) read as plain spaces */
async function page(cookie: string, path: string, headers: Record<string, string> = {}) {
  const r = await fetch(`${BASE_URL}${path}`, { headers: { ...asSession(cookie), ...headers }, redirect: 'manual' })
  assert.equal(r.status, 200, path)
  // React's markers between adjacent texts are no part of what is read
  return (await r.text()).replace(/[\u00a0\u202f]/g, ' ').replaceAll('<!-- -->', '')
}

const prefilled = (html: string, kind: string) =>
  html.match(new RegExp(`id="${kind}-amount"[^>]*value="([^"]*)"`))?.[1] ?? null

const act = (cookie: string, paymentId: string, kind: 'capture' | 'refund', amount: string) =>
  post(`/dashboard/actions/payments/${paymentId}/${kind}`, { amount, key: randomUUID() }, asSession(cookie))

test("amounts and amount fields in the page's language; the actions take either decimal sign", async () => {
  const site = await newSite('dash-lang-amounts')
  const api = client(site)
  const cookie = await signIn(site)
  const held = await api.newPayment(twoStepPayment({ amount: rub('1234.50') }))

  const ru = await page(cookie, `/dashboard/payments/${held}`, RU)
  assert.equal(prefilled(ru, 'capture'), '1234,50')
  assert.match(ru, /<dd>1 234,50 ₽<\/dd>/)
  const en = await page(cookie, `/dashboard/payments/${held}`)
  assert.equal(prefilled(en, 'capture'), '1234.50')
  assert.match(en, /<dd>RUB 1,234.50<\/dd>/)

  // a comma and a point alike
  const captured = await act(cookie, held, 'capture', '1000,25')
  assert.equal(captured.status, 200, captured.text)
  assert.equal(captured.body.status, 'COMPLETED')
  const refunded = await act(cookie, held, 'refund', '100.5')
  assert.equal(refunded.status, 200, refunded.text)
  const read = (await api.get(`/payments/${held}`)).body
  assert.equal(read.capturedAmount.value, '1000.25')
  const refundable = await page(cookie, `/dashboard/payments/${held}`, RU)
  assert.equal(prefilled(refundable, 'refund'), '899,75')
  // neither sign twice, nor grouping
  for (const amount of ['1,000.25', '1 000,25', '10,0,0']) {
    const r = await act(cookie, held, 'refund', amount)
    assert.equal(r.status, 400, `${amount}: ${r.text}`)
  }
})

test('in Russian: statuses, methods, flags, reasons, the timeline and the service’s refusals in words', async () => {
  const site = await newSite('dash-lang-words')
  const api = client(site)
  const cookie = await signIn(site)
  const declined = await api.newPayment(cardPayment({}, { pan: '4000000000000002' }))
  const held = await api.newPayment(twoStepPayment())

  const d = await page(cookie, `/dashboard/payments/${declined}`, RU)
  assert.match(d, /<dd><span class="dash-word" title="DECLINED" data-code="DECLINED">Отклонён<\/span><\/dd>/)
  assert.match(
    d,
    /<span class="dash-reason">Банк карты отклонил платёж. <code class="dash-word">ACQUIRING_DECLINED<\/code>/,
  )
  assert.match(d, /data-code="CARD">Карта</)
  assert.match(d, /data-code="SALE">Одностадийный</)
  // the timeline: the decline's reason in words
  assert.match(d, /Отклонён: <span class="dash-reason">Банк карты отклонил платёж./)

  // a second capture is refused: the audit log says why, in Russian
  assert.equal((await act(cookie, held, 'capture', '100,00')).status, 200)
  const refused = await act(cookie, held, 'capture', '10,00')
  assert.equal(refused.status, 409, refused.text)
  assert.equal(refused.body.description, 'Successful capture already done for this payment')
  const s = await page(cookie, `/dashboard/payments/${held}`, RU)
  assert.match(s, /<td>Списание<\/td><td>отказ: Платёж уже успешно списан<\/td>/)
  assert.match(s, /data-code="COMPLETED">Оплачен</)
  assert.match(s, /<td>Списание<\/td><td><span [^>]*data-code="COMPLETED">Списано<\/span><\/td>/)

  // the list: every status in words, the filter offering the API's payment statuses only
  const list = await page(cookie, '/dashboard/payments', RU)
  const options = [...list.matchAll(/<option value="([A-Z_]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]])
  assert.deepEqual(
    options.map(([code]) => code),
    ['', ...PAYMENT_STATUSES],
  )
  assert.deepEqual(Object.fromEntries(options), {
    '': 'Любой статус',
    WAITING: 'Ожидает',
    DECLINED: 'Отклонён',
    COMPLETED: 'Успешен',
  })
  assert.match(list, /placeholder="ID или 4 цифры карты"/)
  for (const code of ['DECLINED', 'COMPLETED', 'CARD']) assert.doesNotMatch(list, new RegExp(`>${code}<`), code)
})
