// A payUrl's query options, as production's form reads them: `lang` wins over Accept-Language, `successUrl` is where
// a payer goes after paying when the bill names none (http(s) only), `paymentMethod` is the tab chosen first when the
// bill offers it; an unknown value is ignored. The options ride along the page's own requests, so the attempt's answer
// and the 3-D Secure return keep them.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { BASE_URL, billRequest, client, newSite, request, uid } from '../support/api.ts'
import { passChallenge } from '../support/three-ds.ts'

let api: ReturnType<typeof client>
before(async () => {
  api = client(await newSite('pay-url'))
})

async function newBill(over: Record<string, unknown> = {}) {
  const billId = uid('bill')
  const r = await api.put(`/bills/${billId}`, billRequest(over))
  assert.equal(r.status, 200, r.text)
  return { billId, invoiceUid: r.body.invoiceUid as string }
}

/** the page of a bill with a query: its status, its HTML, its language and the form's data (null without a form) */
async function page(invoiceUid: string, query: string, acceptLanguage = 'en') {
  const res = await fetch(`${BASE_URL}/pay/${invoiceUid}${query}`, { headers: { 'Accept-Language': acceptLanguage } })
  const html = await res.text()
  const json = /<script type="application\/json" id="pay-form-data">([^<]*)<\/script>/.exec(html)?.[1]
  return {
    status: res.status,
    html,
    lang: /<html lang="([^"]+)"/.exec(html)?.[1],
    form: json ? (JSON.parse(json) as Record<string, unknown>) : null,
  }
}

const GOOD_CARD = { method: 'card', pan: '4111111111111111', expiry: '12/30', cvv: '123' }
const THREE_DS = { ...GOOD_CARD, pan: '4000000000003220' }
const SHOP = 'https://shop.example.com/thanks?order=7'

describe('lang', () => {
  test('wins over Accept-Language, both ways; another value is ignored', async () => {
    const { invoiceUid } = await newBill()
    const en = await page(invoiceUid, '?lang=en', 'ru-RU,ru;q=0.9')
    assert.equal(en.status, 200)
    assert.equal(en.lang, 'en')
    assert.match(en.html, /Pay/)
    const ru = await page(invoiceUid, '?lang=ru', 'en-US')
    assert.equal(ru.lang, 'ru')
    assert.match(ru.html, /Оплат/)
    for (const other of ['?lang=de', '?lang=', '?lang=english', '?lang[]=en'])
      assert.equal((await page(invoiceUid, other, 'ru')).lang, 'ru', other)
    // the form's requests carry it; without options the form's data has no query (the page as before)
    assert.equal(en.form?.query, '?lang=en')
    assert.equal((await page(invoiceUid, '', 'en')).form?.query, undefined)
  })

  test('the not-found page speaks it too', async () => {
    const missing = await page('00000000-0000-4000-8000-000000000000', '?lang=ru', 'en')
    assert.equal(missing.status, 404)
    assert.equal(missing.lang, 'ru')
  })
})

describe('successUrl', () => {
  test("a bill without one: the payer goes to the payUrl's after paying, billId and invoiceUid appended", async () => {
    const { billId, invoiceUid } = await newBill()
    const q = `?successUrl=${encodeURIComponent(SHOP)}`
    assert.equal((await page(invoiceUid, q)).form?.query, q)
    const paid = await request('POST', `/pay/${invoiceUid}/attempts${q}`, { body: GOOD_CARD })
    assert.equal(paid.status, 200, paid.text)
    const url = new URL(paid.body.url)
    assert.equal(paid.body.kind, 'redirect')
    assert.equal(url.origin + url.pathname, 'https://shop.example.com/thanks')
    assert.deepEqual(Object.fromEntries(url.searchParams), { order: '7', billId, invoiceUid })
    // the paid page links back to it too, and without it says paid with no link
    const after = await page(invoiceUid, q)
    assert.ok(after.html.includes('https://shop.example.com/thanks?order=7&amp;billId='), 'link back')
    assert.ok(!(await page(invoiceUid, '')).html.includes('shop.example.com'))
  })

  test("the bill's own successUrl wins", async () => {
    const { invoiceUid } = await newBill({ successUrl: 'https://merchant.example.com/ok' })
    const paid = await request('POST', `/pay/${invoiceUid}/attempts?successUrl=${encodeURIComponent(SHOP)}`, {
      body: GOOD_CARD,
    })
    assert.equal(paid.status, 200, paid.text)
    assert.match(paid.body.url, /^https:\/\/merchant\.example\.com\/ok\?billId=/)
  })

  test('only http(s): another scheme or a malformed URL is ignored', async () => {
    const { invoiceUid } = await newBill()
    for (const bad of ['javascript:alert(1)', 'ftp://shop.example.com/', '/relative', 'https://', 'data:text/html,x']) {
      const q = `?successUrl=${encodeURIComponent(bad)}`
      assert.equal((await page(invoiceUid, q)).form?.query, undefined, bad)
    }
    const paid = await request('POST', `/pay/${invoiceUid}/attempts?successUrl=${encodeURIComponent('javascript:x')}`, {
      body: GOOD_CARD,
    })
    assert.equal(paid.body.url, `/pay/${invoiceUid}`)
  })

  test('kept through 3-D Secure: the TermUrl carries the options, and its return sends the payer there', async () => {
    const { invoiceUid } = await newBill()
    const q = `?lang=ru&successUrl=${encodeURIComponent(SHOP)}`
    const challenged = await request('POST', `/pay/${invoiceUid}/attempts${q}`, { body: THREE_DS })
    assert.equal(challenged.body.kind, 'threeDS', challenged.text)
    const termUrl = new URL(challenged.body.termUrl)
    assert.equal(termUrl.pathname, `/pay/${invoiceUid}/3ds-return`)
    assert.equal(termUrl.searchParams.get('lang'), 'ru')
    assert.equal(termUrl.searchParams.get('successUrl'), SHOP)
    const { pares } = await passChallenge(challenged.body.pareq, challenged.body.acsUrl, 'pass', challenged.body.md)
    const back = await fetch(termUrl.href.replace(/^https?:\/\/[^/]+/, BASE_URL), {
      method: 'POST',
      body: new URLSearchParams({ PaRes: pares, MD: challenged.body.md }),
      redirect: 'manual',
    })
    assert.equal(back.status, 303)
    assert.match(back.headers.get('location') ?? '', /^https:\/\/shop\.example\.com\/thanks\?order=7&billId=/)
  })

  test('a failed 3-D Secure goes back to the page in the language asked for, the decline shown', async () => {
    const { invoiceUid } = await newBill()
    const challenged = await request('POST', `/pay/${invoiceUid}/attempts?lang=ru`, { body: THREE_DS })
    const { pares } = await passChallenge(challenged.body.pareq, challenged.body.acsUrl, 'fail', challenged.body.md)
    const back = await fetch(`${BASE_URL}/pay/${invoiceUid}/3ds-return?lang=ru`, {
      method: 'POST',
      body: new URLSearchParams({ PaRes: pares, MD: challenged.body.md }),
      redirect: 'manual',
    })
    assert.equal(back.status, 303)
    const location = back.headers.get('location') ?? ''
    assert.equal(location, `/pay/${invoiceUid}?declined=${encodeURIComponent(challenged.body.md)}&lang=ru`)
    const shown = await page(invoiceUid, location.slice(location.indexOf('?')), 'en')
    assert.equal(shown.lang, 'ru')
    assert.ok(shown.form?.declinedReason, 'the decline is shown')
  })
})

describe('paymentMethod', () => {
  test('the tab chosen first when the bill offers it; otherwise, or unknown, the first tab', async () => {
    const rub = await newBill()
    const sbp = await page(rub.invoiceUid, '?paymentMethod=SBP')
    assert.equal(sbp.form?.firstMethod, 'sbp')
    // rendered chosen, so the page shows its fields before the form's script runs
    assert.match(sbp.html, /<input type="radio" name="method" checked="" value="sbp"\/>/)
    assert.equal((await page(rub.invoiceUid, '?paymentMethod=sbp')).form?.firstMethod, 'sbp')
    assert.equal((await page(rub.invoiceUid, '?paymentMethod=CARD')).form?.firstMethod, 'card')
    for (const other of ['?paymentMethod=MOBILE', '?paymentMethod=QIWI_WALLET', '?paymentMethod=', ''])
      assert.equal((await page(rub.invoiceUid, other)).form?.firstMethod, undefined, other)
    // a bill that lists only cards, or pays in euros (SBP pays roubles only): SBP is not offered, the card is first
    const cardOnly = await newBill({ billPaymentMethodsType: ['CARD', 'MOBILE'] })
    assert.equal((await page(cardOnly.invoiceUid, '?paymentMethod=SBP')).form?.firstMethod, undefined)
    const eur = await newBill({ amount: { value: '10.00', currency: 'EUR' } })
    assert.equal((await page(eur.invoiceUid, '?paymentMethod=SBP')).form?.firstMethod, undefined)
  })
})
