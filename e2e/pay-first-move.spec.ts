// The payment page before its script runs (it runs at the payer's first move, fetched with low
// priority before): what the payer types or chooses is kept, a Pay pressed is carried out once, a
// script that cannot be loaded is said and tried again, and without scripts the page says so and no
// card goes into an address.
import { expect, test, type Page, type Route } from '@playwright/test'
import { rub } from '../tests/support/api.ts'
import { merchant, outcomes, paidHeading, payButton } from './support.ts'

let m: Awaited<ReturnType<typeof merchant>>

test.beforeAll(async () => {
  m = await merchant('e2e-first-move')
})

/** holds every request for the form's script until release() */
async function holdScript(page: Page) {
  let release!: () => void
  const released = new Promise<void>((r) => (release = r))
  const held: Route[] = []
  await page.route('**/_pay/*.js*', async (route) => {
    held.push(route)
    await released
    await route.continue()
  })
  return { release, held }
}

test('typed and pressed before the script runs: kept, announced, and paid once when it runs', async ({ page }) => {
  const bill = await m.bill({ amount: rub('7.00') })
  const script = await holdScript(page)
  await page.goto(bill.payUrl)
  await page.getByLabel('Card number').fill('4111111111111111')
  await page.getByLabel('Expiry date (MM/YY)').fill('12/30')
  await page.getByLabel('Security code (CVV)').fill('123')
  await payButton(page).click()
  await payButton(page).click() // pressed twice while waiting
  await expect(page.locator('#pay-form-notice')).toHaveText('Processing the payment…')
  await expect(page.locator('#pay-form')).toHaveAttribute('aria-busy', 'true')
  expect(script.held.length).toBeGreaterThan(0)
  script.release()
  await expect(paidHeading(page)).toBeVisible()
  const d = await m.details(bill.billId)
  expect(d.payments).toHaveLength(1)
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
  expect(d.payments[0].amount).toEqual(rub('7.00'))
})

test('a card number typed before the script runs is grouped, with its brand, once it runs', async ({ page }) => {
  const bill = await m.bill()
  const script = await holdScript(page)
  await page.goto(bill.payUrl)
  await page.getByLabel('Card number').pressSequentially('5555555555554444')
  await page.getByLabel('Expiry date (MM/YY)').pressSequentially('1230')
  await expect(page.getByLabel('Card number')).toHaveValue('5555555555554444')
  script.release()
  await expect(page.getByLabel('Card number')).toHaveValue('5555 5555 5555 4444')
  await expect(page.getByLabel('Expiry date (MM/YY)')).toHaveValue('12/30')
  await expect(page.getByTestId('brand')).toHaveText('Mastercard')
})

test('the mobile method chosen before the script runs stays chosen', async ({ page }) => {
  const bill = await m.bill()
  const script = await holdScript(page)
  await page.goto(bill.payUrl)
  await page.getByLabel('Mobile balance').check()
  script.release()
  await expect(page.getByLabel('Mobile phone number')).toBeVisible()
  await expect(page.getByLabel('Mobile balance')).toBeChecked()
  await expect(page.getByLabel('Card number')).toHaveCount(0)
})

test('the script cannot be loaded: Pay says so; pressed again, it loads and pays', async ({ page }) => {
  const bill = await m.bill()
  let refuse = true
  await page.route('**/_pay/*.js*', (route) => (refuse ? route.abort() : route.continue()))
  await page.goto(bill.payUrl)
  await page.getByLabel('Card number').fill('4111111111111111')
  await page.getByLabel('Expiry date (MM/YY)').fill('12/30')
  await page.getByLabel('Security code (CVV)').fill('123')
  await payButton(page).click()
  await expect(page.locator('#pay-form-notice')).toHaveText('Something went wrong. Please try again.')
  await expect(page.locator('#pay-form')).not.toHaveAttribute('aria-busy', 'true')
  refuse = false
  await payButton(page).click()
  await expect(paidHeading(page)).toBeVisible()
  expect(outcomes((await m.details(bill.billId)).payments)).toEqual([['COMPLETED', null]])
})

test('without scripts the page says they are needed; a submit goes nowhere but the page itself, as a POST, and pays nothing', async ({
  browser,
}) => {
  const bill = await m.bill()
  const context = await browser.newContext({ javaScriptEnabled: false })
  try {
    const page = await context.newPage()
    const requests: { method: string; url: string }[] = []
    page.on('request', (r) => requests.push({ method: r.method(), url: r.url() }))
    await page.goto(bill.payUrl)
    // (Chromium with scripts switched off by Playwright still parses <noscript> as if they ran: its text is checked in
    // the HTML)
    const notice =
      /<noscript><p class="pay-alert">Paying on this page needs JavaScript: turn it on, or open the page in another browser\.<\/p><\/noscript>/
    expect(await page.content()).toMatch(notice)
    await page.getByLabel('Card number').fill('4111111111111111')
    await page.getByLabel('Expiry date (MM/YY)').fill('12/30')
    await page.getByLabel('Security code (CVV)').fill('123')
    await page.getByLabel('Security code (CVV)').press('Enter')
    await page.waitForLoadState('load')
    expect(await page.content()).toMatch(notice)
    // the form is posted to the page (which does not read it), never as a GET with the card in the address
    const posts = requests.filter((r) => r.method === 'POST')
    expect(posts.map((r) => new URL(r.url).pathname)).toEqual([new URL(bill.payUrl).pathname])
    for (const r of requests) expect(r.url).not.toMatch(/4111|cvv|pan=/i)
    expect((await m.details(bill.billId)).payments).toEqual([])
  } finally {
    await context.close()
  }
})
