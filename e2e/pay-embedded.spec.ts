// The payment page in a merchant's iframe (issue 31): a merchant page on another loopback origin (127.0.0.2, another
// site than the service's 127.0.0.1), allowed by the bill's site, frames the bill's page and hears its events in order
// for a success and a failure, each from the service's origin; a page of an origin the site does not allow (127.0.0.3)
// cannot frame it, and hears nothing. The dashboard's Embedding card sets the list.
import { expect, test, type Frame, type Page } from '@playwright/test'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { BASE_URL, billRequest, client, newSite, uid } from '../tests/support/api.ts'
import { asSession, post, signIn } from '../tests/support/dashboard.ts'
import { signIn as signInToDashboard } from './dashboard-support.ts'

/**
 * A merchant's page on `host`: `/shop?pay=<payUrl>` frames the payUrl (allow="payment", as the docs say) and lists
 * each message it hears, with its origin, as an item of #events
 */
async function merchantPage(host: string) {
  const server = http.createServer((req, res) => {
    const pay = new URL(req.url!, 'http://x').searchParams.get('pay') ?? ''
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><title>Shop</title><h1>Shop</h1><ol id="events"></ol>
<script>addEventListener('message', function (e) {
  var li = document.createElement('li'); li.textContent = e.origin + ' ' + JSON.stringify(e.data)
  document.getElementById('events').appendChild(li)
})</script>
<iframe allow="payment" title="Payment" width="420" height="640" src="${pay.replace(/"/g, '&quot;')}"></iframe>`)
  })
  await new Promise<void>((r) => server.listen(0, host, r))
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`
  return { origin, close: () => new Promise((r) => server.close(r)) }
}

const service = new URL(BASE_URL).origin

/** a site that allows `origins` to frame its pages (set in the dashboard's way), with a bill to pay */
async function framedBill(origins: string[], over: Record<string, unknown> = {}) {
  const site = await newSite('e2e-embed')
  const r = await post('/dashboard/actions/settings/frame-origins', { origins }, asSession(await signIn(site)))
  expect(r.status, r.text).toBe(200)
  const bill = await client(site).put(`/bills/${uid('bill')}`, billRequest(over))
  expect(bill.status, bill.text).toBe(200)
  return bill.body as { payUrl: string; invoiceUid: string }
}

/** the bill's page inside the merchant's page, once it is there */
async function payFrame(page: Page, invoiceUid: string, button = /^Pay\b/): Promise<Frame> {
  await expect(page.frameLocator('iframe').getByRole('button', { name: button })).toBeVisible()
  return page.frames().find((f) => f.url().includes(`/pay/${invoiceUid}`))!
}

async function payIn(frame: Frame, pan: string, button = /^Pay\b/) {
  await frame.getByLabel(/^Card number/).fill(pan)
  await frame.getByLabel(/^Expiry date/).fill('12/30')
  await frame.getByLabel(/^Security code/).fill('123')
  await frame.getByRole('button', { name: button }).click()
}

const heard = (page: Page) => page.locator('#events li')
const events = (...names: string[]) => names.map((n) => `${service} "${n}"`)

test.describe('a bill framed by an allowed origin', () => {
  let shop: Awaited<ReturnType<typeof merchantPage>>
  test.beforeAll(async () => {
    shop = await merchantPage('127.0.0.2')
  })
  test.afterAll(() => shop.close())

  test('a success: INITIALIZED, PAYMENT_ATTEMPT, PAYMENT_SUCCEEDED, from the service', async ({ page }) => {
    const bill = await framedBill([shop.origin, 'https://other-shop.example'])
    await page.goto(`${shop.origin}/shop?pay=${encodeURIComponent(bill.payUrl)}`)
    const frame = await payFrame(page, bill.invoiceUid)
    await expect(heard(page)).toHaveText(events('INITIALIZED'))
    await payIn(frame, '4111111111111111')
    await expect(page.frameLocator('iframe').getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
    await expect(heard(page)).toHaveText(events('INITIALIZED', 'PAYMENT_ATTEMPT', 'PAYMENT_SUCCEEDED'))
  })

  test('a payUrl with options and no successUrl: PAYMENT_SUCCEEDED heard once', async ({ page }) => {
    const bill = await framedBill([shop.origin])
    await page.goto(`${shop.origin}/shop?pay=${encodeURIComponent(`${bill.payUrl}?lang=en&paymentMethod=CARD`)}`)
    const frame = await payFrame(page, bill.invoiceUid)
    await payIn(frame, '4111111111111111')
    await expect(page.frameLocator('iframe').getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
    // a mark posted by the paid page once loaded comes after every event of the page (one sender, in order)
    await frame.waitForLoadState('load')
    await frame.evaluate(() => window.parent.postMessage('MARK', '*'))
    await expect(heard(page)).toHaveText(events('INITIALIZED', 'PAYMENT_ATTEMPT', 'PAYMENT_SUCCEEDED', 'MARK'))
  })

  test('3-D Secure passed with a successUrl: PAYMENT_SUCCEEDED heard, then the frame goes to it', async ({ page }) => {
    const bill = await framedBill([shop.origin], { successUrl: `${shop.origin}/ok` })
    await page.goto(`${shop.origin}/shop?pay=${encodeURIComponent(bill.payUrl)}`)
    const frame = await payFrame(page, bill.invoiceUid)
    await payIn(frame, '4000000000003220')
    await page.frameLocator('iframe').getByRole('button', { name: 'Pass authentication', exact: true }).click()
    await expect(heard(page)).toHaveText(events('INITIALIZED', 'PAYMENT_ATTEMPT', 'PAYMENT_SUCCEEDED'))
    await expect(page.frameLocator('iframe').getByRole('heading', { name: 'Shop' })).toBeVisible()
    const ok = new URL(
      page
        .frames()
        .find((f) => f !== page.mainFrame())!
        .url(),
    )
    expect([ok.origin, ok.pathname, ok.searchParams.get('invoiceUid')]).toEqual([shop.origin, '/ok', bill.invoiceUid])
  })

  test('3-D Secure failed with a failedUrl: PAYMENT_FAILED heard, then the frame goes to it', async ({ page }) => {
    const bill = await framedBill([shop.origin], { failedUrl: `${shop.origin}/fail` })
    await page.goto(`${shop.origin}/shop?pay=${encodeURIComponent(bill.payUrl)}`)
    await payIn(await payFrame(page, bill.invoiceUid), '4000000000003220')
    await page.frameLocator('iframe').getByRole('button', { name: 'Fail authentication', exact: true }).click()
    await expect(heard(page)).toHaveText(events('INITIALIZED', 'PAYMENT_ATTEMPT', 'PAYMENT_FAILED'))
    await expect(page.frameLocator('iframe').getByRole('heading', { name: 'Shop' })).toBeVisible()
    expect(
      new URL(
        page
          .frames()
          .find((f) => f !== page.mainFrame())!
          .url(),
      ).pathname,
    ).toBe('/fail')
  })

  for (const [pan, event, heading] of [
    ['4111111111111111', 'PAYMENT_SUCCEEDED', 'Your card is verified'],
    ['4000000000000002', 'PAYMENT_FAILED', /not verified|could not/i],
  ] as const)
    test(`a CHECK_CARD bill's verification, card ${pan.slice(-4)}: ${event} heard once`, async ({ page }) => {
      const bill = await framedBill([shop.origin], { amount: undefined, flags: ['CHECK_CARD'] })
      await page.goto(`${shop.origin}/shop?pay=${encodeURIComponent(bill.payUrl)}`)
      await payIn(await payFrame(page, bill.invoiceUid, /^Verify card$/), pan, /^Verify card$/)
      await expect(page.frameLocator('iframe').getByRole('heading', { name: heading })).toBeVisible()
      await expect(heard(page)).toHaveText(events('INITIALIZED', 'PAYMENT_ATTEMPT', event))
    })

  test('a CHECK_CARD bill with a successUrl: PAYMENT_SUCCEEDED heard before the frame goes to it', async ({ page }) => {
    const bill = await framedBill([shop.origin], {
      amount: undefined,
      flags: ['CHECK_CARD'],
      successUrl: `${shop.origin}/ok`,
    })
    await page.goto(`${shop.origin}/shop?pay=${encodeURIComponent(bill.payUrl)}`)
    await payIn(await payFrame(page, bill.invoiceUid, /^Verify card$/), '4111111111111111', /^Verify card$/)
    await expect(page.frameLocator('iframe').getByRole('heading', { name: 'Shop' })).toBeVisible()
    await expect(heard(page)).toHaveText(events('INITIALIZED', 'PAYMENT_ATTEMPT', 'PAYMENT_SUCCEEDED'))
  })

  test('a failure: INITIALIZED, PAYMENT_ATTEMPT, PAYMENT_FAILED; the payer stays on the form', async ({ page }) => {
    const bill = await framedBill([shop.origin])
    await page.goto(`${shop.origin}/shop?pay=${encodeURIComponent(bill.payUrl)}`)
    const frame = await payFrame(page, bill.invoiceUid)
    await payIn(frame, '4000000000000002')
    await expect(frame.getByTestId('declined')).toBeVisible()
    await expect(heard(page)).toHaveText(events('INITIALIZED', 'PAYMENT_ATTEMPT', 'PAYMENT_FAILED'))
  })
})

test('a page of an origin the site does not allow cannot frame its bill, and hears nothing', async ({ page }) => {
  const allowed = await merchantPage('127.0.0.2')
  const other = await merchantPage('127.0.0.3')
  try {
    const bill = await framedBill([allowed.origin])
    const refused = page.waitForEvent('console', (m) => /frame-ancestors/.test(m.text()))
    await page.goto(`${other.origin}/shop?pay=${encodeURIComponent(bill.payUrl)}`)
    // Chromium's words: "Refused to frame '…' because an ancestor violates … frame-ancestors <the allowed origin>"
    expect((await refused).text()).toContain(allowed.origin)
    await expect(page.frameLocator('iframe').getByRole('button', { name: /^Pay\b/ })).toHaveCount(0)
    await expect(heard(page)).toHaveCount(0)
  } finally {
    await allowed.close()
    await other.close()
  }
})

test("the dashboard's Embedding card: a refused origin shown on the field, then a list saved", async ({ page }) => {
  const site = await newSite('e2e-embed-settings')
  await signInToDashboard(page, site)
  await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click()
  const card = page.getByRole('region', { name: 'Embedding', exact: true })
  const field = card.getByRole('textbox', { name: 'Allowed origins, one per line' })
  await expect(field).toHaveValue('')
  await field.fill('http://shop.example')
  await card.getByRole('button', { name: 'Save' }).click()
  await expect(card.getByText(/^Not saved: http:\/\/shop\.example: must be an https origin/)).toBeVisible()
  await expect(field).toHaveAttribute('aria-invalid', 'true')

  await field.fill('https://shop.example/\nhttp://127.0.0.2:8080')
  await card.getByRole('button', { name: 'Save' }).click()
  await expect(card.getByRole('status')).toHaveText('Saved')
  await expect(field).toHaveValue('https://shop.example\nhttp://127.0.0.2:8080')
  const changes = page.getByRole('region', { name: 'Recent changes', exact: true })
  await expect(
    changes.getByRole('row', { name: /Allowed origins.*https:\/\/shop\.example http:\/\/127\.0\.0\.2:8080.*set/ }),
  ).toBeVisible()
  await page.reload()
  await expect(page.getByRole('textbox', { name: 'Allowed origins, one per line' })).toHaveValue(
    'https://shop.example\nhttp://127.0.0.2:8080',
  )
})
