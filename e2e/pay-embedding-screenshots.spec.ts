// The payment page in each of the ways a merchant uses it (issue 31), as the README shows them: a payUrl with lang
// and paymentMethod, a link without the API (/create) with readonly custom fields, the page framed by a shop's page
// with its events, the checkout library's popup, and a theme. Each capture is taken once the page shows what the
// README says it does (and it is checked), so a picture cannot show a page that does not work.
// The captures go to test-results/pay-embedding-screenshots/, or to SCREENSHOTS_DIR: the README's pictures come from
// `SCREENSHOTS_DIR=docs/screenshots TEST_ONLY=none TEST_E2E=pay-embedding-screenshots npm test`.
import { expect, test, type Page } from '@playwright/test'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { BASE_URL, billRequest, client, newSite, rub, uid } from '../tests/support/api.ts'
import { asSession, dashboardPage, post, signIn } from '../tests/support/dashboard.ts'
import { GOOD_SVG } from '../tests/support/theme-images.ts'
import { fitsWidth } from './dashboard-support.ts'

const DIR = process.env.SCREENSHOTS_DIR ?? 'test-results/pay-embedding-screenshots'
const service = new URL(BASE_URL).origin

let shop: { origin: string; close: () => Promise<unknown> }

test.beforeAll(async () => {
  // a shop's checkout page on another loopback origin: `?frame=<payUrl>` frames the bill's page and lists the events
  // it hears; `?popup=<payUrl>` has a button that opens it with the checkout library
  const server = http.createServer((req, res) => {
    const q = new URL(req.url!, 'http://x').searchParams
    const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><html lang="en"><title>Tea shop · Checkout</title>
<style>body{font:16px system-ui,sans-serif;margin:0;background:#f4f4f5;color:#18181b}
header{background:#14532d;color:#fff;padding:14px 24px;font-weight:600}main{display:flex;gap:24px;padding:24px}
iframe{border:1px solid #d4d4d8;border-radius:12px;background:#fff}aside{flex:1;max-width:320px}
ol{padding-left:20px;font:13px ui-monospace,monospace}li{margin:4px 0}
button{font:inherit;padding:10px 18px;border-radius:8px;border:0;background:#14532d;color:#fff}</style>
<header>Tea shop</header><main>
${
  q.get('frame')
    ? `<iframe allow="payment" title="Payment" width="420" height="640" src="${attr(q.get('frame')!)}"></iframe>`
    : ''
}
<aside><h2>Your order</h2><p>Green tea, 250 g — 1 490,00 ₽</p>
${q.get('popup') ? `<button id="pay">Pay 1 490,00 ₽</button><output id="result"></output>` : ''}
<h3>Events from the payment page</h3><ol id="events"></ol></aside></main>
<script src="${service}/popup/v2.js"></script>
<script>addEventListener('message', function (e) {
  // the framed page posts the event's name; to a popup's opener, { qiwiCheckout: name, … }
  var name = typeof e.data === 'string' ? e.data : e.data && e.data.qiwiCheckout
  if (e.origin !== ${JSON.stringify(service)} || !name) return
  var li = document.createElement('li'); li.textContent = name
  document.getElementById('events').appendChild(li)
})
var pay = document.getElementById('pay')
if (pay) pay.onclick = function () {
  QiwiCheckout.openInvoice({ payUrl: ${JSON.stringify(q.get('popup') ?? '')} }).then(function (d) {
    document.getElementById('result').textContent = 'Paid: ' + d.billId
  }, function (e) { document.getElementById('result').textContent = 'Not paid: ' + e.reason })
}</script>`)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.2', r))
  shop = {
    origin: `http://127.0.0.2:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(r)),
  }
})
test.afterAll(() => shop.close())

/** a site that allows the shop to frame its pages, with a theme, and its dashboard session */
async function shopSite() {
  const site = await newSite('tea-shop')
  const session = await signIn(site)
  const framing = await post(
    '/dashboard/actions/settings/frame-origins',
    { origins: [shop.origin] },
    asSession(session),
  )
  expect(framing.status, framing.text).toBe(200)
  const theme = await post(
    '/dashboard/actions/settings/themes',
    {
      code: 'tea',
      name: 'Tea shop',
      backgroundColor: '#f0fdf4',
      buttonColor: '#14532d',
      logo: { type: 'image/svg+xml', data: Buffer.from(GOOD_SVG).toString('base64') },
    },
    asSession(session),
  )
  expect(theme.status, theme.text).toBe(200)
  return { site, session }
}

async function bill(site: { siteId: string; token: string }, over: Record<string, unknown> = {}) {
  const b = await client(site).put(
    `/bills/${uid('order')}`,
    billRequest({ amount: rub('1490.00'), comment: 'Green tea, 250 g', ...over }),
  )
  expect(b.status, b.text).toBe(200)
  return b.body as { payUrl: string; invoiceUid: string; billId: string }
}

async function capture(page: Page, name: string) {
  expect(await fitsWidth(page), `${name} scrolls sideways`).toBe(true)
  await page.screenshot({ path: path.join(DIR, `${name}.png`) })
}

test('each way of showing the payment page, captured', async ({ browser }) => {
  const { site, session } = await shopSite()
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'ru-RU' })
  const payer = await phone.newPage()

  // 1. payUrl parameters: a Russian browser, lang=en and paymentMethod=SBP
  const plain = await bill(site)
  await payer.goto(`${plain.payUrl}?lang=en&paymentMethod=SBP`)
  await expect(payer.getByRole('heading', { name: 'Payment', level: 1 })).toBeVisible()
  await expect(payer.getByRole('radio', { name: 'SBP' })).toBeChecked()
  await capture(payer, 'way-payurl-parameters')

  // 2. a link without the API: the bill it makes, its readonly field shown, not editable
  const settings = await (await dashboardPage(session, '/dashboard/settings')).text()
  const key = /data-testid="public-key">([^<]+)</.exec(settings)![1]
  await payer.goto(
    `/create?publicKey=${key}&amount=1490.00&comment=Green%20tea&extras[cf1]=Order%201042&readonly=cf1&lang=en`,
  )
  await expect(payer).toHaveURL(/\/pay\/[0-9a-f-]{36}\?lang=en$/)
  await expect(payer.getByLabel('cf1')).toHaveValue('Order 1042')
  await expect(payer.getByLabel('cf1')).not.toBeEditable()
  await capture(payer, 'way-link')

  // 5. a theme: the site's name, logo and colours
  const themed = await bill(site, { customFields: { themeCode: 'tea' } })
  await payer.goto(`${themed.payUrl}?lang=ru`)
  await expect(payer.getByRole('heading', { name: 'Оплата', level: 1 })).toBeVisible()
  await expect(payer.locator('header.pay-theme')).toContainText('Tea shop')
  expect(await payer.locator('header.pay-theme img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96)
  await capture(payer, 'way-theme')
  await phone.close()

  const desktop = await browser.newContext({ viewport: { width: 1024, height: 720 }, locale: 'en-US' })
  const shopper = await desktop.newPage()

  // 3. framed by the shop's page, which hears the page's events
  const framed = await bill(site)
  await shopper.goto(`${shop.origin}/checkout?frame=${encodeURIComponent(framed.payUrl)}`)
  const frame = shopper.frameLocator('iframe')
  await expect(frame.getByRole('button', { name: /^Pay\b/ })).toBeVisible()
  await frame.getByLabel(/^Card number/).fill('4111111111111111')
  await frame.getByLabel(/^Expiry date/).fill('12/30')
  await frame.getByLabel(/^Security code/).fill('123')
  await frame.getByRole('button', { name: /^Pay\b/ }).click()
  await expect(frame.getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
  await expect(shopper.locator('#events li')).toHaveText(['INITIALIZED', 'PAYMENT_ATTEMPT', 'PAYMENT_SUCCEEDED'])
  await capture(shopper, 'way-iframe')

  // 4. the checkout library's popup, opened from the shop's page
  const popped = await bill(site)
  await shopper.goto(`${shop.origin}/checkout?popup=${encodeURIComponent(popped.payUrl)}`)
  const opened = shopper.waitForEvent('popup')
  await shopper.getByRole('button', { name: /^Pay 1/ }).click()
  const popup = await opened
  await popup.setViewportSize({ width: 480, height: 720 })
  await expect(popup.getByRole('button', { name: /^Pay\b/ })).toBeVisible()
  await expect(popup.getByText('Green tea, 250 g')).toBeVisible()
  await capture(popup, 'way-popup')
  await popup.close()
  await expect(shopper.locator('#result')).toHaveText('Not paid: POPUP_CLOSED')
  await desktop.close()
})
