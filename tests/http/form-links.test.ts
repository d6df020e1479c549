// Links without the API (GET /create?publicKey=…, lib/form-links): a site's public key, shown in the dashboard and by
// the site command and rotated there (audited), names the site; a link makes a bill checked by the bill API's schema
// (or, with billId, reopens it; another amount is a 409 page) and sends the payer to its payUrl with lang and
// paymentMethod; such bills are two-step; extras become customFields, shown on the page, readonly ones not editable;
// an unknown key is a 404 page and wrong values a 400 page naming them, in the payer's language. Production's payUrl
// shapes (/form?invoiceUid=…, /form/?invoice_uid=…) lead to the bill's page.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { BASE_URL, client, newSite, request } from '../support/api.ts'
import { asSession, dashboardPage, post, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'
import { siteOk } from '../support/site-command.ts'

let site: { siteId: string; token: string }
let api: ReturnType<typeof client>
let cookie: string
let key: string

/** the public key the dashboard's settings page shows */
async function shownKey(): Promise<string> {
  const html = await (await dashboardPage(cookie, '/dashboard/settings')).text()
  const shown = /data-testid="public-key">([^<]+)</.exec(html)?.[1]
  assert.ok(shown, 'the settings page shows the public key')
  return shown
}

before(async () => {
  site = await newSite('links')
  api = client(site)
  cookie = await signIn(site)
  key = await shownKey()
})

/** opens a link (not followed): its status, where it sends the payer, its HTML */
async function open(query: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${BASE_URL}/create?${new URLSearchParams({ publicKey: key, ...query })}`, {
    headers: { 'Accept-Language': 'en', ...headers },
    redirect: 'manual',
  })
  const html = await res.text()
  return {
    status: res.status,
    location: res.headers.get('location'),
    html,
    lang: /<html lang="([^"]+)"/.exec(html)?.[1],
  }
}

const uidOf = (location: string | null) => /\/pay\/([0-9a-f-]{36})/.exec(location ?? '')?.[1] ?? ''

const billRow = async (invoiceUid: string) =>
  (
    await sql<{
      billId: string
      siteId: string
      amountMinor: string | null
      currency: string
      flags: string[]
      comment: string | null
      successUrl: string | null
      customer: unknown
      customFields: Record<string, string> | null
      formFields: unknown
      expiresAt: Date
    }>(`SELECT * FROM "Bill" WHERE "invoiceUid" = $1`, [invoiceUid])
  )[0]

/** the form's data on the bill's page (null without a form) */
async function formData(invoiceUid: string) {
  const html = await (await fetch(`${BASE_URL}/pay/${invoiceUid}`)).text()
  const json = /<script type="application\/json" id="pay-form-data">([^<]*)<\/script>/.exec(html)?.[1]
  return { html, form: json ? JSON.parse(json) : null }
}

describe('the public key', () => {
  test('the dashboard and the site command show the same key, of the pk_ shape; never stored as such', async () => {
    assert.match(key, /^pk_[A-Za-z0-9_-]{43}$/)
    assert.equal(await shownKey(), key, 'the same on every reading')
    const printed = (await siteOk(['public-key', site.siteId])).trim().split('\n').at(-1)
    assert.equal(printed, key)
    const [row] = await sql<{ publicKeyHash: string }>(`SELECT "publicKeyHash" FROM "Site" WHERE id = $1`, [
      site.siteId,
    ])
    assert.match(row.publicKeyHash, /^[0-9a-f]{64}$/)
    assert.notEqual(row.publicKeyHash, key)
  })

  test('rotated in the dashboard (audited): the old key is a 404 page at once, the new one works', async () => {
    const other = await newSite('links-rotate')
    const session = await signIn(other)
    const page = await (await dashboardPage(session, '/dashboard/settings')).text()
    const before = /data-testid="public-key">([^<]+)</.exec(page)![1]
    const link = (k: string) =>
      fetch(`${BASE_URL}/create?publicKey=${k}&amount=5.00`, {
        redirect: 'manual',
        headers: { 'Accept-Language': 'en' },
      })
    assert.equal((await link(before)).status, 303)
    const rotated = await post('/dashboard/actions/settings/public-key', {}, asSession(session))
    assert.equal(rotated.status, 200, rotated.text)
    const after = rotated.body.publicKey as string
    assert.notEqual(after, before)
    assert.equal((await link(before)).status, 404)
    assert.equal((await link(after)).status, 303)
    const shown = await (await dashboardPage(session, '/dashboard/settings')).text()
    assert.ok(shown.includes(after), 'the page shows the new key')
    const [entry] = await sql<{ action: string; subject: string }>(
      `SELECT action, subject FROM "AuditEntry" WHERE "siteId" = $1 AND action = 'rotate-public-key'`,
      [other.siteId],
    )
    assert.deepEqual({ ...entry }, { action: 'rotate-public-key', subject: 'public key' })
    // a rotation without a session is refused
    assert.equal((await post('/dashboard/actions/settings/public-key', {})).status, 401)
  })
})

describe('GET /create', () => {
  test("makes a two-step bill of the link's values and sends the payer to its payUrl with lang and paymentMethod", async () => {
    const link = await open({
      amount: '100.00',
      comment: 'Order 123',
      successUrl: 'https://shop.example.com/ok',
      paymentMethod: 'SBP',
      lang: 'ru',
      phone: '79001234567',
      email: 'payer@example.com',
      'extras[cf1]': 'Order_123',
      'extras[cf3]': 'winnie@pooh.ru',
      'extras[themeCode]': 'Main',
      readonly: 'cf1,cf9',
    })
    assert.equal(link.status, 303, link.html)
    const location = new URL(link.location!)
    assert.equal(location.pathname, `/pay/${uidOf(link.location)}`)
    assert.deepEqual(Object.fromEntries(location.searchParams), { lang: 'ru', paymentMethod: 'SBP' })
    const bill = await billRow(uidOf(link.location))
    assert.equal(bill.siteId, site.siteId)
    assert.equal(bill.amountMinor, '10000')
    assert.equal(bill.currency, 'RUB')
    assert.deepEqual(bill.flags, [], 'no SALE: two-step')
    assert.equal(bill.comment, 'Order 123')
    assert.equal(bill.successUrl, 'https://shop.example.com/ok')
    assert.deepEqual(bill.customer, { phone: '79001234567', email: 'payer@example.com' })
    assert.deepEqual(bill.customFields, { cf1: 'Order_123', cf3: 'winnie@pooh.ru', themeCode: 'Main' })
    assert.deepEqual(bill.formFields, [
      { name: 'cf1', readonly: true },
      { name: 'cf3', readonly: false },
    ])
    // the API answers it as any bill of the site
    assert.equal((await api.get(`/bills/${bill.billId}`)).status, 200)
  })

  test('without billId each opening makes a new bill; with one, it is reopened; another amount is a 409 page', async () => {
    const a = await open({ amount: '10.00' })
    const b = await open({ amount: '10.00' })
    assert.notEqual(uidOf(a.location), uidOf(b.location))
    const billId = `order-${Date.now()}`
    const first = await open({ amount: '10.00', billId })
    const again = await open({ amount: '10.00', billId, comment: 'another comment' })
    assert.equal(first.status, 303)
    assert.equal(uidOf(again.location), uidOf(first.location))
    const rows = await sql(`SELECT id FROM "Bill" WHERE "siteId" = $1 AND "billId" = $2`, [site.siteId, billId])
    assert.equal(rows.length, 1)
    const other = await open({ amount: '11.00', billId })
    assert.equal(other.status, 409)
    assert.match(other.html, /another amount/)
    // the bill of an API request reopens too, when the amount is the same
    assert.equal((await open({ amount: '10.00', currency: 'EUR', billId })).status, 409)
  })

  test('without amount the payer enters it; lifetime is read as Moscow time', async () => {
    const link = await open({})
    assert.equal(link.status, 303, link.html)
    assert.equal((await billRow(uidOf(link.location))).amountMinor, null)
    // beyond 45 days: the bill API's own rule refuses it, named as the link's parameter
    const far = await open({ amount: '1.00', lifetime: '2099-01-02T1530' })
    assert.equal(far.status, 400)
    assert.ok(far.html.includes('<code>lifetime</code>'))
    const soon = new Date(Date.now() + 2 * 24 * 3600_000)
    const msk = new Date(soon.getTime() + 3 * 3600_000).toISOString()
    const lifetime = `${msk.slice(0, 10)}T${msk.slice(11, 13)}${msk.slice(14, 16)}`
    const timed = await open({ amount: '1.00', lifetime })
    assert.equal(timed.status, 303, timed.html)
    const expires = (await billRow(uidOf(timed.location))).expiresAt
    assert.equal(expires.toISOString().slice(0, 16), soon.toISOString().slice(0, 16))
  })

  test("extras named as Object.prototype's members are fields like any other, never a 500", async () => {
    const link = await open({
      amount: '1.00',
      'extras[constructor]': 'c',
      'extras[toString]': 't',
      readonly: 'toString',
    })
    assert.equal(link.status, 303, link.html)
    const bill = await billRow(uidOf(link.location))
    assert.deepEqual(bill.customFields, { constructor: 'c', toString: 't' })
    const proto = await open({ amount: '1.00', 'extras[__proto__]': 'p' })
    assert.ok(proto.status === 303 || proto.status === 400, `${proto.status}`)
  })

  test('a link cannot set where notifications go: anyone with the public key can write one', async () => {
    const link = await open({
      amount: '1.00',
      'extras[cf1]': 'Order_9',
      'extras[invoice_callback_url]': 'https://attacker.example/hook',
    })
    assert.equal(link.status, 303, link.html)
    assert.deepEqual((await billRow(uidOf(link.location))).customFields, { cf1: 'Order_9' })
  })

  test("a bill made through the API is not the link's to open, whatever the amount: a 409 page that tells nothing", async () => {
    const billId = `api-made-${Date.now()}`
    const made = await api.put(`/bills/${billId}`, {
      amount: { value: '5.00', currency: 'RUB' },
      expirationDateTime: new Date(Date.now() + 86_400_000).toISOString(),
      comment: 'private note of the merchant',
    })
    assert.equal(made.status, 200, made.text)
    for (const amount of ['5.00', '6.00']) {
      const r = await open({ amount, billId })
      assert.equal(r.status, 409, r.location ?? '')
      assert.match(r.html, /This bill number is taken/)
      assert.ok(!r.html.includes('private note'), 'nothing of the bill is shown')
    }
  })

  test('an unknown key is a 404 page, in the language asked for', async () => {
    for (const publicKey of [`pk_${'A'.repeat(43)}`, 'nonsense', '']) {
      const r = await fetch(`${BASE_URL}/create?publicKey=${publicKey}&amount=1.00`, {
        redirect: 'manual',
        headers: { 'Accept-Language': 'ru-RU' },
      })
      assert.equal(r.status, 404)
      const html = await r.text()
      assert.match(html, /<html lang="ru"/)
      assert.match(html, /Ссылка на оплату не найдена/)
    }
    const en = await fetch(`${BASE_URL}/create?publicKey=x&lang=en`, { headers: { 'Accept-Language': 'ru' } })
    assert.match(await en.text(), /Payment link not found/)
  })

  test("wrong values are a 400 page naming the link's parameters; nothing is made", async () => {
    const before = await sql(`SELECT id FROM "Bill" WHERE "siteId" = $1`, [site.siteId])
    const cases: [Record<string, string>, string][] = [
      [{ amount: 'abc' }, 'amount'],
      [{ amount: '1.00', currency: 'XXX' }, 'currency'],
      [{ amount: '1.00', successUrl: 'ftp://shop.example.com/' }, 'successUrl'],
      [{ amount: '1.00', lifetime: '2000-01-01T0000' }, 'lifetime'],
      [{ amount: '1.00', billId: 'no spaces allowed' }, 'billId'],
    ]
    for (const [query, parameter] of cases) {
      const r = await open(query)
      assert.equal(r.status, 400, `${JSON.stringify(query)}: ${r.location}`)
      assert.ok(r.html.includes(`<code>${parameter}</code>`), `${parameter} named`)
    }
    const ru = await open({ amount: 'abc' }, { 'Accept-Language': 'ru' })
    assert.match(ru.html, /В ссылке на оплату ошибка/)
    assert.equal((await sql(`SELECT id FROM "Bill" WHERE "siteId" = $1`, [site.siteId])).length, before.length)
  })
})

describe("the link's bill on its page", () => {
  test('extras shown (not themeCode), readonly ones not editable; the edits become the payment customFields', async () => {
    const link = await open({
      amount: '3.00',
      'extras[cf1]': 'Order_123',
      'extras[cf3]': 'note',
      'extras[themeCode]': 'Main',
      readonly: 'cf1',
    })
    const invoiceUid = uidOf(link.location)
    const { html, form } = await formData(invoiceUid)
    assert.deepEqual(form.orderFields.list, [
      { name: 'cf1', value: 'Order_123', readonly: true },
      { name: 'cf3', value: 'note', readonly: false },
    ])
    assert.match(html, /<input id="order_0"[^>]*readOnly=""[^>]*value="Order_123"/)
    assert.match(html, /<input id="order_1"[^>]*name="order_1" value="note"\/>/)
    assert.ok(!html.includes('>themeCode<'))
    // the payer changes cf3, and tries cf1 and a field never shown: only cf3 is taken
    const paid = await request('POST', `/pay/${invoiceUid}/attempts`, {
      body: {
        method: 'card',
        pan: '4111111111111111',
        expiry: '12/30',
        cvv: '123',
        customFields: { cf1: 'changed', cf3: 'gift wrap', invoice_callback_url: 'https://evil.example.com/' },
      },
    })
    assert.equal(paid.status, 200, paid.text)
    const [payment] = await sql<{ customFields: Record<string, string>; holdDueAt: Date | null }>(
      `SELECT p."customFields", p."holdDueAt" FROM "Payment" p JOIN "Bill" b ON b.id = p."billRef" WHERE b."invoiceUid" = $1`,
      [invoiceUid],
    )
    assert.deepEqual(payment.customFields, { cf1: 'Order_123', cf3: 'gift wrap', themeCode: 'Main' })
    // two-step: an open hold, which confirms itself at its time
    assert.ok(payment.holdDueAt, 'a hold due to confirm itself')
  })

  test('a bill made through the API shows no fields (its page as before)', async () => {
    const billId = `api-${Date.now()}`
    const r = await api.put(`/bills/${billId}`, {
      amount: { value: '1.00', currency: 'RUB' },
      expirationDateTime: new Date(Date.now() + 3600_000).toISOString(),
      customFields: { cf1: 'x' },
    })
    const { form } = await formData(r.body.invoiceUid)
    assert.equal(form.orderFields, undefined)
  })
})

describe("production's payUrl shapes", () => {
  test('/form?invoiceUid= and /form/?invoice_uid= lead to the bill page, options kept; anything else is 404', async () => {
    const invoiceUid = uidOf((await open({ amount: '1.00' })).location)
    for (const path of [`/form?invoiceUid=${invoiceUid}&lang=ru`, `/form/?invoice_uid=${invoiceUid}&lang=ru`]) {
      const res = await fetch(`${BASE_URL}${path}`, { headers: { 'Accept-Language': 'en' } })
      assert.equal(res.status, 200, path)
      assert.equal(new URL(res.url).pathname, `/pay/${invoiceUid}`)
      assert.match(await res.text(), /<html lang="ru"/)
    }
    assert.equal((await fetch(`${BASE_URL}/form?invoiceUid=nope`)).status, 404)
    assert.equal((await fetch(`${BASE_URL}/form`)).status, 404)
  })
})
