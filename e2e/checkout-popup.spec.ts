// The checkout popup library (GET /popup/v2.js, issue 31) on a merchant's page of another loopback origin
// (127.0.0.2, allowed by the site): openInvoice opens the bill's page in a popup, and its promise resolves once the
// payer pays there (the popup then closes) and rejects when the payer closes the popup; where the browser blocks the
// popup the merchant's page goes to the payUrl itself; createInvoice opens the /create link of its parameters, and with
// the site's real public key the bill that link made is paid in the popup and the promise resolves with it.
import { expect, test, type Page } from '@playwright/test'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { BASE_URL, billRequest, client, newSite, uid } from '../tests/support/api.ts'
import { asSession, dashboardPage, post, signIn } from '../tests/support/dashboard.ts'

const service = new URL(BASE_URL).origin

let shop: { origin: string; close: () => Promise<unknown> }

test.beforeAll(async () => {
  // the merchant's page: the library from the service, a button per call, the promise's outcome in #result
  const server = http.createServer((req, res) => {
    const params = new URL(req.url!, 'http://x').searchParams
    const pay = params.get('pay') ?? ''
    const key = params.get('key') ?? 'pk-1'
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><title>Shop</title><h1>Shop</h1>
<script src="${service}/popup/v2.js"></script>
<button id="open">Pay in a popup</button> <button id="create">Create and pay</button>
<output id="result"></output>
<script>
function show(what) { return function (d) { document.getElementById('result').textContent = what + ' ' + JSON.stringify(d) } }
document.getElementById('open').onclick = function () {
  QiwiCheckout.openInvoice({ payUrl: ${JSON.stringify(pay)} }).then(show('resolved'), show('rejected'))
}
document.getElementById('create').onclick = function () {
  QiwiCheckout.createInvoice({ publicKey: ${JSON.stringify(key)}, amount: 10.5, comment: 'Order 7', email: 'a@b.example',
    customFields: { cf1: 'Order_123', themeCode: 'dark' } }).then(show('resolved'), show('rejected'))
}
</script>`)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.2', r))
  shop = {
    origin: `http://127.0.0.2:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(r)),
  }
})
test.afterAll(() => shop.close())

/** a site that allows the shop's origin (its pages tell their opener there), and its dashboard session */
async function shopSite() {
  const site = await newSite('e2e-popup')
  const session = await signIn(site)
  const r = await post('/dashboard/actions/settings/frame-origins', { origins: [shop.origin] }, asSession(session))
  expect(r.status, r.text).toBe(200)
  return { site, session }
}

/** a bill of a site that allows the shop's origin */
async function bill() {
  const { site } = await shopSite()
  const b = await client(site).put(`/bills/${uid('bill')}`, billRequest())
  expect(b.status, b.text).toBe(200)
  return b.body as { payUrl: string; invoiceUid: string; billId: string }
}

async function openPopup(page: Page, payUrl: string) {
  await page.goto(`${shop.origin}/shop?pay=${encodeURIComponent(payUrl)}`)
  const opened = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Pay in a popup' }).click()
  const popup = await opened
  await expect(popup.getByRole('button', { name: /^Pay\b/ })).toBeVisible()
  return popup
}

test('openInvoice: the promise resolves with the paid bill once the payer pays, and the popup closes', async ({
  page,
}) => {
  const b = await bill()
  const popup = await openPopup(page, b.payUrl)
  await popup.getByLabel('Card number').fill('4111111111111111')
  await popup.getByLabel('Expiry date (MM/YY)').fill('12/30')
  await popup.getByLabel('Security code (CVV)').fill('123')
  const closed = popup.waitForEvent('close')
  await popup.getByRole('button', { name: /^Pay\b/ }).click()
  await expect(page.locator('#result')).toHaveText(
    `resolved ${JSON.stringify({ status: 'PAID', billId: b.billId, invoiceUid: b.invoiceUid })}`,
  )
  await closed
})

test("openInvoice: another bill paid in the popup settles nothing (only the payUrl's bill does)", async ({ page }) => {
  const b = await bill()
  const other = await bill()
  const popup = await openPopup(page, b.payUrl)
  await popup.goto(other.payUrl)
  await popup.getByLabel('Card number').fill('4111111111111111')
  await popup.getByLabel('Expiry date (MM/YY)').fill('12/30')
  await popup.getByLabel('Security code (CVV)').fill('123')
  await popup.getByRole('button', { name: /^Pay\b/ }).click()
  await expect(popup.getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
  await expect(page.locator('#result')).toHaveText('')
  await popup.close()
  await expect(page.locator('#result')).toHaveText('rejected {"reason":"POPUP_CLOSED"}')
})

test('openInvoice: the promise rejects when the payer closes the popup', async ({ page }) => {
  const b = await bill()
  const popup = await openPopup(page, b.payUrl)
  await popup.close()
  await expect(page.locator('#result')).toHaveText('rejected {"reason":"POPUP_CLOSED"}')
})

test('a blocked popup: the merchant page goes to the payment page itself', async ({ page }) => {
  const b = await bill()
  await page.addInitScript(() => {
    window.open = () => null
  })
  await page.goto(`${shop.origin}/shop?pay=${encodeURIComponent(b.payUrl)}`)
  await page.getByRole('button', { name: 'Pay in a popup' }).click()
  await page.waitForURL(b.payUrl)
  await expect(page.getByRole('button', { name: /^Pay\b/ })).toBeVisible()
})

test("createInvoice: the popup opens the service's /create link of the documented parameters", async ({ page }) => {
  // the link only (/create is the form links' part of issue 31): the popup the library asks for is recorded
  await page.addInitScript(() => {
    const w = window as unknown as { opened?: string }
    window.open = (url?: string | URL) => {
      w.opened = String(url)
      return { closed: false, close() {} } as unknown as Window
    }
  })
  await page.goto(`${shop.origin}/shop`)
  await page.getByRole('button', { name: 'Create and pay' }).click()
  const opened = await page.evaluate(() => (window as unknown as { opened?: string }).opened)
  const url = new URL(opened!)
  expect(url.origin + url.pathname).toBe(`${service}/create`)
  expect([...url.searchParams]).toEqual([
    ['publicKey', 'pk-1'],
    ['amount', '10.50'],
    ['email', 'a@b.example'],
    ['comment', 'Order 7'],
    ['extras[cf1]', 'Order_123'],
    ['extras[themeCode]', 'dark'],
  ])
})

test('createInvoice through a real link: the bill the link made is paid in the popup and the promise resolves', async ({
  page,
}) => {
  const { site, session } = await shopSite()
  // the site's public key, as the merchant copies it from Settings
  const settings = await (await dashboardPage(session, '/dashboard/settings')).text()
  const key = /data-testid="public-key">([^<]+)</.exec(settings)![1]
  await page.goto(`${shop.origin}/shop?key=${encodeURIComponent(key)}`)
  const opened = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Create and pay' }).click()
  const popup = await opened
  await popup.waitForURL(/\/pay\/[0-9a-f-]{36}$/)
  await expect(popup.getByLabel('cf1')).toHaveValue('Order_123')
  await popup.getByLabel('Card number').fill('4111111111111111')
  await popup.getByLabel('Expiry date (MM/YY)').fill('12/30')
  await popup.getByLabel('Security code (CVV)').fill('123')
  const closed = popup.waitForEvent('close')
  await popup.getByRole('button', { name: /^Pay\b/ }).click()
  await expect(page.locator('#result')).toHaveText(/^resolved /)
  await closed
  const settled = JSON.parse((await page.locator('#result').textContent())!.slice('resolved '.length)) as {
    status: string
    billId: string
    invoiceUid: string
  }
  expect(settled.status).toBe('PAID')
  // the merchant's server confirms it: the bill the link made is paid, for the amount and comment the call named
  const b = await client(site).get(`/bills/${settled.billId}/details`)
  expect(b.status, b.text).toBe(200)
  const bill = b.body as { invoiceUid: string; status: { value: string }; amount: { value: string }; comment: string }
  expect(bill.invoiceUid).toBe(settled.invoiceUid)
  expect(bill.status.value).toBe('PAID')
  expect(bill.amount.value).toBe('10.50')
  expect(bill.comment).toBe('Order 7')
  // one payment, two-step as every link's: held in full, nothing captured yet
  const payments = (await client(site).get(`/bills/${settled.billId}`)).body as {
    status: { value: string }
    amount: { value: string }
    capturedAmount: { value: string }
    customFields: Record<string, string>
  }[]
  expect(payments).toHaveLength(1)
  expect(payments[0].status.value).toBe('COMPLETED')
  expect(payments[0].amount.value).toBe('10.50')
  expect(payments[0].capturedAmount.value).toBe('0.00')
  expect(payments[0].customFields).toEqual({ cf1: 'Order_123', themeCode: 'dark' })
})
