// The payer's journeys on the hosted payment page, in Chromium, against the running service.
import { expect, test, type Page } from '@playwright/test'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { client, newSite, uid } from '../tests/support/api.ts'
import { sql } from '../tests/support/db.ts'

type Api = ReturnType<typeof client>
let api: Api
let merchant: { origin: string; close: () => Promise<unknown> }

test.beforeAll(async () => {
  api = client(await newSite('e2e-pay'))
  // the merchant's return pages
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' })
    res.end(`<!doctype html><title>Shop</title><h1>Shop: ${new URL(req.url!, 'http://x').pathname.slice(1)}</h1>`)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  merchant = { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) }
})
test.afterAll(() => merchant.close())

async function bill(over: Record<string, unknown> = {}) {
  const billId = uid('bill')
  const r = await api.put(`/bills/${billId}`, {
    amount: { value: '10.00', currency: 'RUB' },
    expirationDateTime: new Date(Date.now() + 86400_000).toISOString(),
    comment: 'Order 42',
    flags: ['SALE'],
    ...over,
  })
  expect(r.status, r.text).toBe(200)
  return { billId, invoiceUid: r.body.invoiceUid as string, payUrl: r.body.payUrl as string }
}

const details = async (billId: string) => (await api.get(`/bills/${billId}/details`)).body

async function fillCard(page: Page, pan: string, expiry = '1230', cvv = '123') {
  await page.getByLabel('Card number').fill(pan)
  await page.getByLabel('Expiry date (MM/YY)').fill(expiry)
  await page.getByLabel('Security code (CVV)').fill(cvv)
}

const payButton = (page: Page) => page.getByRole('button', { name: /^Pay/ })

test('approved one-step card → successUrl with billId and invoiceUid', async ({ page }) => {
  const b = await bill({ successUrl: `${merchant.origin}/thanks?order=42` })
  await page.goto(b.payUrl)
  await expect(page.getByText('Order 42')).toBeVisible()
  await expect(page.getByTestId('bill-amount')).toHaveText('RUB 10.00')
  await fillCard(page, '4111111111111111')
  await payButton(page).click()
  await expect(page.getByRole('heading', { name: 'Shop: thanks' })).toBeVisible()
  const url = new URL(page.url())
  expect(url.searchParams.get('order')).toBe('42')
  expect(url.searchParams.get('billId')).toBe(b.billId)
  expect(url.searchParams.get('invoiceUid')).toBe(b.invoiceUid)
  const d = await details(b.billId)
  expect(d.status.value).toBe('PAID')
  expect(d.payments).toHaveLength(1)
  expect(d.payments[0].status.value).toBe('COMPLETED')
  expect(d.payments[0].capturedAmount.value).toBe('10.00')
})

test('two-step bill: authorised on the page, captured through the API', async ({ page }) => {
  const b = await bill({ flags: [] })
  await page.goto(b.payUrl)
  await fillCard(page, '5555555555554444')
  await payButton(page).click()
  await expect(page.getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
  const p = (await details(b.billId)).payments[0]
  expect(p.capturedAmount.value).toBe('0.00')
  const cap = await api.put(`/payments/${p.paymentId}/captures/${uid('cap')}`)
  expect(cap.body.status.value).toBe('COMPLETED')
  expect((await api.get(`/payments/${p.paymentId}`)).body.capturedAmount.value).toBe('10.00')
})

test('3-D Secure passed', async ({ page }) => {
  const b = await bill()
  await page.goto(b.payUrl)
  await fillCard(page, '4000000000003220')
  await payButton(page).click()
  await expect(page.getByRole('heading', { name: /3-D Secure check/ })).toBeVisible()
  await page.getByRole('button', { name: 'Pass authentication' }).click()
  await expect(page.getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
  expect((await details(b.billId)).payments[0].status.value).toBe('COMPLETED')
})

test('3-D Secure failed, then another card succeeds', async ({ page }) => {
  const b = await bill()
  await page.goto(b.payUrl)
  await fillCard(page, '4000000000003220')
  await payButton(page).click()
  await page.getByRole('button', { name: 'Fail authentication' }).click()
  await expect(page.getByTestId('declined')).toContainText('The security check with your bank did not pass')
  await fillCard(page, '4111111111111111')
  await payButton(page).click()
  await expect(page.getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
  const d = await details(b.billId)
  expect(d.payments.map((p: any) => [p.status.value, p.status.reason])).toEqual([
    ['DECLINED', 'DECLINED_BY_MPI'],
    ['COMPLETED', undefined],
  ])
})

test('code card: a wrong code, then the right one', async ({ page }) => {
  const b = await bill()
  await page.goto(b.payUrl)
  await fillCard(page, '4000000000001000')
  await payButton(page).click()
  const code = page.getByLabel('Confirmation code')
  await expect(code).toBeFocused()
  await code.fill('9999')
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.locator('#code-error')).toHaveText('Wrong code. Attempts left: 2')
  await code.fill('1234')
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
})

test('mobile balance with a code; and a phone the operator confirms by itself', async ({ page }) => {
  const b = await bill()
  await page.goto(b.payUrl)
  await page.getByLabel('Mobile balance').check()
  await page.getByLabel('Mobile phone number').fill('79001234567')
  await payButton(page).click()
  await expect(page.getByText(/\+\*+4567/).first()).toBeVisible()
  await page.getByLabel('Confirmation code').fill('1234')
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
  expect((await details(b.billId)).payments[0].paymentMethod.type).toBe('MOBILE')

  const waiting = await bill()
  await page.goto(waiting.payUrl)
  await page.getByLabel('Mobile balance').check()
  await page.getByLabel('Mobile phone number').fill('79001230000')
  await payButton(page).click()
  await expect(page.getByTestId('status')).toContainText('Waiting for the operator')
  await expect(page.getByRole('heading', { name: 'This bill is paid' })).toBeVisible({ timeout: 15_000 })
})

test('open amount: the payer enters it', async ({ page }) => {
  const b = await bill({ amount: { currency: 'RUB' } })
  await page.goto(b.payUrl)
  const amount = page.getByLabel('Amount, RUB')
  await expect(amount).toBeVisible()
  await fillCard(page, '4111111111111111')
  await payButton(page).click()
  await expect(amount).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator('#amount-error')).toHaveText('Fill in this field')
  await amount.fill('0')
  await expect(page.locator('#amount-error')).toHaveText('Enter an amount greater than 0, e.g. 150.00')
  await amount.fill('150,50')
  await fillCard(page, '4111111111111111')
  await payButton(page).click()
  await expect(page.getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
  expect((await details(b.billId)).payments[0].amount).toEqual({ value: '150.50', currency: 'RUB' })
})

test('declined card → failedUrl with billId and invoiceUid', async ({ page }) => {
  const b = await bill({ failedUrl: `${merchant.origin}/sorry` })
  await page.goto(b.payUrl)
  await fillCard(page, '4000000000000002')
  await payButton(page).click()
  await expect(page.getByRole('heading', { name: 'Shop: sorry' })).toBeVisible()
  const url = new URL(page.url())
  expect(url.searchParams.get('billId')).toBe(b.billId)
  expect(url.searchParams.get('invoiceUid')).toBe(b.invoiceUid)
})

test('expired, paid and unknown bills have pages of their own', async ({ page }) => {
  const expired = await bill()
  await sql(`UPDATE "Bill" SET "expiresAt" = now() - interval '1 second' WHERE "billId" = $1`, [expired.billId])
  await page.goto(expired.payUrl)
  await expect(page.getByRole('heading', { name: 'This bill has expired' })).toBeVisible()
  await expect(page.getByLabel('Card number')).toHaveCount(0)

  const paid = await bill()
  await api.put(`/payments/${uid('pay')}`, { paymentMethod: { type: 'CARD', pan: '4111111111111111', expiryDate: '12/30', cvv2: '123' }, amount: { value: '10.00', currency: 'RUB' }, flags: ['SALE'], billId: paid.billId })
  await page.goto(paid.payUrl)
  await expect(page.getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
  await expect(page.getByLabel('Card number')).toHaveCount(0)

  for (const path of [`/pay/${crypto.randomUUID()}`, '/pay/not-a-uuid']) {
    const res = await page.goto(path)
    expect(res?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Bill not found' })).toBeVisible()
  }
})

test('two tabs paying at the same moment: one payment', async ({ browser }) => {
  const b = await bill()
  const tabs = await Promise.all([browser.newPage(), browser.newPage()])
  for (const tab of tabs) {
    await tab.goto(b.payUrl)
    await fillCard(tab, '4111111111111111')
  }
  await Promise.all(tabs.map((tab) => payButton(tab).click()))
  const outcomes = await Promise.all(
    tabs.map(async (tab) => {
      const paid = tab.getByRole('heading', { name: 'This bill is paid' })
      const declined = tab.getByTestId('declined')
      await expect(paid.or(declined)).toBeVisible()
      return (await paid.isVisible()) ? 'paid' : await declined.innerText()
    }),
  )
  const d = await details(b.billId)
  expect(d.payments.filter((p: any) => p.status.value === 'COMPLETED')).toHaveLength(1)
  expect(outcomes).toContain('paid')
  const other = outcomes.find((o) => o !== 'paid')
  if (other) expect(other).toContain('This bill has already been paid')
  await Promise.all(tabs.map((t) => t.close()))
})

test('keyboard only: errors are announced and focused, then the payment goes through', async ({ page }) => {
  const b = await bill()
  await page.goto(b.payUrl)
  // to the submit button and press it with nothing filled
  const pan = page.getByLabel('Card number')
  await page.keyboard.press('Tab')
  for (let i = 0; i < 10 && !(await payButton(page).evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab')
  await page.keyboard.press('Enter')
  await expect(pan).toBeFocused()
  await expect(pan).toHaveAttribute('aria-invalid', 'true')
  const describedBy = (await pan.getAttribute('aria-describedby'))!
  await expect(page.locator(`#${describedBy}`)).toHaveText('Fill in this field')
  await expect(page.getByRole('status')).toHaveText('Please correct the highlighted fields.')
  await page.keyboard.type('4111111111111111')
  await expect(pan).toHaveValue('4111 1111 1111 1111')
  await page.keyboard.press('Tab')
  await page.keyboard.type('1230')
  await page.keyboard.press('Tab')
  await page.keyboard.type('123')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'This bill is paid' })).toBeVisible()
})

test('Russian, by Accept-Language', async ({ browser }) => {
  const b = await bill()
  const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Language': 'ru-RU,ru;q=0.9,en;q=0.5' }, locale: 'ru-RU' })
  const page = await context.newPage()
  await page.goto(b.payUrl)
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru')
  await expect(page.getByRole('heading', { name: 'Оплата' })).toBeVisible()
  await expect(page.getByLabel('Номер карты')).toBeVisible()
  await expect(page.getByTestId('bill-amount')).toHaveText(/^10,00\s₽$/)
  await expect(page.getByRole('button', { name: /^Оплатить 10,00\s₽$/ })).toBeVisible()
  await page.getByLabel('Номер карты').fill('4111111111111112')
  await page.getByRole('button', { name: /^Оплатить/ }).click()
  await expect(page.locator('#pan-error')).toHaveText('Введите правильный номер карты')
  await context.close()
})

test('360 px wide: nothing overflows; a screenshot is kept', async ({ browser }, testInfo) => {
  const b = await bill({ comment: 'Order 1042: running shoes, size 43, colour midnight blue' })
  const page = await browser.newPage({ viewport: { width: 360, height: 740 } })
  await page.goto(b.payUrl)
  for (const label of ['Card number', 'Expiry date (MM/YY)', 'Security code (CVV)']) await expect(page.getByLabel(label)).toBeInViewport()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  const path = testInfo.outputPath('pay-page-360.png')
  await page.screenshot({ path, fullPage: true })
  await page.screenshot({ path: 'test-results/pay-page-360.png', fullPage: true })
  await testInfo.attach('pay-page-360', { path, contentType: 'image/png' })
  await page.close()
})

test('card fields: grouping, brand, autocomplete, numeric keyboards, errors next to fields', async ({ page }) => {
  const b = await bill()
  await page.goto(b.payUrl)
  const pan = page.getByLabel('Card number')
  await pan.pressSequentially('5555555555554444')
  await expect(pan).toHaveValue('5555 5555 5555 4444')
  await expect(page.getByTestId('brand')).toHaveText('Mastercard')
  await pan.fill('4111')
  await expect(page.getByTestId('brand')).toHaveText('Visa')
  await expect(pan).toHaveAttribute('autocomplete', 'cc-number')
  await expect(page.getByLabel('Expiry date (MM/YY)')).toHaveAttribute('autocomplete', 'cc-exp')
  await expect(page.getByLabel('Security code (CVV)')).toHaveAttribute('autocomplete', 'cc-csc')
  for (const label of ['Card number', 'Expiry date (MM/YY)', 'Security code (CVV)']) await expect(page.getByLabel(label)).toHaveAttribute('inputmode', 'numeric')
  await page.getByLabel('Expiry date (MM/YY)').pressSequentially('0120')
  await expect(page.getByLabel('Expiry date (MM/YY)')).toHaveValue('01/20')
  await payButton(page).click()
  await expect(page.locator('#pan-error')).toHaveText('Enter a valid card number')
  await expect(page.locator('#expiry-error')).toHaveText('This card has expired')
})

test('safety: no card data in the page after submit, a CSP, cross-site posts refused', async ({ page }) => {
  const b = await bill()
  const res = await page.goto(b.payUrl)
  const csp = res!.headers()['content-security-policy']
  expect(csp).toContain("frame-ancestors 'none'")
  expect(csp).toMatch(/script-src 'self' 'nonce-/)
  await fillCard(page, '4000000000000002')
  await payButton(page).click()
  await expect(page.getByTestId('declined')).toContainText('The bank declined the payment')
  const html = await page.content()
  expect(html).not.toContain('4000000000000002')
  expect(html).not.toContain('4000 0000 0000 0002')
  expect(await page.getByLabel('Card number').inputValue()).toBe('')

  const before = (await details(b.billId)).payments.length
  const cross = await page.request.post(`/pay/${b.invoiceUid}/attempts`, {
    headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
    data: { method: 'card', pan: '4111111111111111', expiry: '12/30', cvv: '123' },
  })
  expect(cross.status()).toBe(403)
  expect((await details(b.billId)).payments.length).toBe(before)
})
