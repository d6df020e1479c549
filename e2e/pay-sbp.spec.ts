// Faster Payments (SBP) in the browser: a bill paid through the payment page's SBP tab (its QR code on a wide screen,
// the bank app's button on a phone) and the sandbox bank app its code opens, where the payer picks a test bank and
// pays or declines; the payment page follows the payment live. And a QR code of the QR API, whose bank app sends the
// payer to its redirectUrl once paid.
import { expect, test, type Page } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { rub, uid } from '../tests/support/api.ts'
import { merchant, merchantWebSite, payButton } from './support.ts'

let m: Awaited<ReturnType<typeof merchant>>
let shop: Awaited<ReturnType<typeof merchantWebSite>>

test.beforeAll(async () => {
  m = await merchant('e2e-sbp')
  shop = await merchantWebSite()
})
test.afterAll(async () => {
  await shop?.close()
})

// both are in the page once it waits (the screen's width shows one): found hidden too
const qrImage = (page: Page) => page.getByRole('img', { name: 'QR code of the payment', includeHidden: true })
const openInBankApp = (page: Page) => page.getByRole('link', { name: 'Open in bank app', includeHidden: true })

/**
 * chooses the SBP tab and presses Pay: the page then waits for the payer's bank app. Once the page's script has taken
 * the form over (a first move loads it): choices made before it runs are pay-first-move.spec.ts's subject, and a Pay
 * pressed in the instant the form mounts can still go out with the default method (a known defect, in the notes)
 */
async function payBySbp(page: Page) {
  await page.locator('#pay-form').hover()
  await expect(page.locator('#pay-form[data-live="1"]')).toBeAttached()
  await page.getByRole('radio', { name: 'SBP' }).check()
  await payButton(page).click()
  await expect(page.getByTestId('status')).toHaveText('Waiting for the payment in your bank app…')
}

/** what a QR reader reads from the image's data: URL */
function readQr(dataUrl: string): string {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'))
  const found = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
  expect(found, 'a QR reader finds a code in the image').not.toBeNull()
  return found!.data
}

test('desktop: the QR code shown; its link opens the bank app, Pay there, and the page goes to successUrl', async ({
  page,
  context,
}) => {
  const bill = await m.bill({ amount: rub('150.00'), comment: 'Order 42', successUrl: `${shop.origin}/ok?order=42` })
  await page.goto(bill.payUrl)
  await payBySbp(page)
  await expect(qrImage(page)).toBeVisible()
  await expect(openInBankApp(page)).toBeHidden()
  const payload = (await openInBankApp(page).getAttribute('href'))!
  expect(readQr((await qrImage(page).getAttribute('src'))!)).toBe(payload)

  // the payer's phone: the bank app the code opens
  const app = await context.newPage()
  await app.goto(payload)
  await expect(app.getByText('Sandbox bank app: a test bank')).toBeVisible()
  await expect(app.getByTestId('amount')).toHaveText(/150\.00/)
  await expect(app.getByText('Order 42')).toBeVisible()
  await expect(app.getByRole('radio', { name: 'Sandbox Bank' })).toBeChecked()
  await app.getByRole('radio', { name: 'Test Savings Bank' }).check()
  await app.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(app.getByRole('heading', { name: 'Paid' })).toBeVisible()

  // the payment page saw it and went on to the merchant
  await page.waitForURL((url) => url.origin === shop.origin && url.pathname === '/ok')
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible()
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(d.payments).toHaveLength(1)
  expect(d.payments[0].status.value).toBe('COMPLETED')
  expect(d.payments[0].paymentMethod.type).toBe('SBP')
  expect(d.payments[0].customer.bankMemberId).toBe('100000000902')
})

test('a phone (390×844): "Open in bank app", not the QR code; paying there pays the bill and comes back', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true })
  const page = await context.newPage()
  const bill = await m.bill({ amount: rub('9.90') })
  await page.goto(bill.payUrl)
  await payBySbp(page)
  await expect(openInBankApp(page)).toBeVisible()
  await expect(qrImage(page)).toBeHidden()
  await openInBankApp(page).click()
  await expect(page.getByText('Sandbox bank app: a test bank')).toBeVisible()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  // the bank app sends the payer back to the payment page, which shows the bill paid
  await expect(page.getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
  expect(new URL(page.url()).pathname).toBe(new URL(bill.payUrl).pathname)
  expect((await m.details(bill.billId)).status.value).toBe('PAID')
  await context.close()
})

test('declined in the bank app: the payment page says so, and the payer may try again', async ({ page, context }) => {
  const bill = await m.bill({ amount: rub('3.00') })
  await page.goto(bill.payUrl)
  await payBySbp(page)
  const app = await context.newPage()
  await app.goto((await openInBankApp(page).getAttribute('href'))!)
  await app.getByRole('button', { name: 'Decline' }).click()
  // the bank app sends the payer back to the bill's page (the code's redirectUrl)
  await expect(app).toHaveURL(new RegExp(`${new URL(bill.payUrl).pathname}$`))

  await expect(page.getByTestId('declined')).toContainText('You declined the payment in your bank app.')
  await expect(payButton(page)).toBeEnabled()
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('CREATED')
  expect(d.payments.map((p) => [p.status.value, p.status.reason])).toEqual([['DECLINED', 'SBP_DECLINED_BY_PAYER']])
})

test("a QR API code with redirectUrl: Pay in the bank app takes the payer to the merchant's page", async ({ page }) => {
  const qrCodeUid = uid('qr')
  const r = await m.api.put(`/sbp/qrCodes/${qrCodeUid}`, {
    amount: rub('200.00'),
    qrCode: { type: 'DYNAMIC', ttl: 60 },
    paymentPurpose: 'Flowers',
    redirectUrl: `${shop.origin}/ok?order=9`,
  })
  expect(r.status, r.text).toBe(200)
  await page.goto(r.body.qrCode.payload)
  await expect(page.getByText('Flowers')).toBeVisible()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await page.waitForURL((url) => url.origin === shop.origin && url.pathname === '/ok')
  expect(new URL(page.url()).searchParams.get('order')).toBe('9')
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible()
  expect((await m.api.get(`/sbp/qrCodes/${qrCodeUid}`)).body.qrCode.status).toBe('PAYED')
})
