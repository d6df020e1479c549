// The dashboard's Bills in Chromium, by labels and roles: a new bill with an amount, its page with the
// payment link and its QR code, "Copy link" into the clipboard, the copied link paid by card in a second
// page, the bill PAID with its payment listed; an open-amount bill; the service's refusals shown next to
// their fields; Russian on a 360 px screen.
import { expect, test, type Page } from '@playwright/test'
import { client, newSite } from '../tests/support/api.ts'
import { fitsWidth, signIn } from './dashboard-support.ts'
import { payWithCard, TEST_CARDS } from './helpers/pay-page.ts'
import { paidHeading } from './support.ts'

const PAY_URL = /^https?:\/\/[^/]+\/pay\/[0-9a-f-]{36}$/

/** the bill's id, from the bill page's address */
const billIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!)

/** a datetime-local value `days` from now, in the browser's own time zone */
const daysAhead = (page: Page, days: number) =>
  page.evaluate(
    (ms) => {
      const d = new Date(Date.now() + ms)
      const pad = (n: number) => String(n).padStart(2, '0')
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
    },
    days * 24 * 3600_000,
  )

async function openNewBill(page: Page) {
  await page.getByRole('navigation').getByRole('link', { name: 'Bills' }).click()
  await expect(page.getByRole('heading', { name: 'Bills', level: 1 })).toBeVisible()
  await page.getByRole('link', { name: 'New bill' }).click()
  await expect(page.getByRole('heading', { name: 'New bill', level: 1 })).toBeVisible()
}

test('new bill with an amount: its page, Copy link, the copied link paid in another page, the bill PAID with its payment', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL!).origin })
  const site = await newSite('e2e-dash-bills')
  await signIn(page, site)
  await openNewBill(page)

  await page.getByLabel('Amount').fill('25.00')
  await expect(page.getByLabel('Currency')).toHaveValue('RUB')
  await page.getByLabel('Comment').fill('Order 7')
  // a day from now by default, in the browser's local time
  await expect(page.getByLabel('Expires')).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/)
  await page.getByRole('button', { name: 'Create bill' }).click()

  await expect(page.getByRole('heading', { name: /^Bill [0-9a-f-]{36}$/, level: 1 })).toBeVisible()
  const billId = billIdOf(page)
  const fields = page.getByRole('region', { name: 'Bill', exact: true })
  await expect(fields).toContainText('Awaiting payment')
  await expect(fields).toContainText('25.00')
  await expect(fields).toContainText('Order 7')

  const link = page.getByRole('region', { name: 'Payment link' })
  const payUrl = (await link.getByText(PAY_URL).textContent())!.trim()
  expect(payUrl).toMatch(PAY_URL)
  const qr = link.getByRole('img', { name: 'QR code of the payment link' })
  await expect(qr).toBeVisible()
  await expect(qr.locator('svg')).toHaveCount(1)

  await link.getByRole('button', { name: 'Copy link' }).click()
  await expect(link.getByRole('status')).toHaveText('Copied')
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toBe(payUrl)

  // the payer opens the copied link and pays
  const payer = await context.newPage()
  await payer.goto(copied)
  await payWithCard(payer, { card: TEST_CARDS.success })
  await expect(paidHeading(payer)).toBeVisible()

  await page.reload()
  await expect(fields).toContainText('Paid')
  const payments = page.getByRole('region', { name: 'Payments' })
  await expect(payments.getByRole('row')).toHaveCount(2) // the heading's row and the payment
  await expect(payments).toContainText('Paid')
  await expect(payments).toContainText('411111******1111')
  const details = (await client(site).get(`/bills/${billId}/details`)).body
  expect(details.status.value).toBe('PAID')
  expect(details.payUrl).toBe(payUrl)
  const paymentId = details.payments[0].paymentId
  await payments.getByRole('link', { name: paymentId }).click()
  await expect(page.getByRole('heading', { name: `Payment ${paymentId}` })).toBeVisible()

  // the list: newest first, the bill PAID
  await page.getByRole('navigation').getByRole('link', { name: 'Bills' }).click()
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: billId }) })
  await expect(row).toContainText('Paid')
})

test('an open-amount bill: no amount, another currency', async ({ page }) => {
  const site = await newSite('e2e-dash-bills')
  await signIn(page, site)
  await openNewBill(page)
  await page.getByLabel('Currency').selectOption('EUR')
  await page.getByRole('button', { name: 'Create bill' }).click()
  await expect(page.getByRole('heading', { name: /^Bill /, level: 1 })).toBeVisible()
  const billId = billIdOf(page)
  const fields = page.getByRole('region', { name: 'Bill', exact: true })
  await expect(fields).toContainText('Open amount')
  await expect(fields).toContainText('EUR')
  const details = (await client(site).get(`/bills/${billId}/details`)).body
  expect(details.amount).toEqual({ currency: 'EUR' })
  await page.getByRole('link', { name: 'Back to bills' }).click()
  await expect(page.getByRole('row').filter({ has: page.getByRole('link', { name: billId }) })).toContainText(
    'Open amount',
  )
})

test('the service’s refusals next to their fields; nothing made until the bill is right', async ({ page }) => {
  const site = await newSite('e2e-dash-bills')
  await signIn(page, site)
  await openNewBill(page)
  // three decimals: refused in the form, not rounded down by the service without a word
  const amount = page.getByLabel('Amount')
  await amount.fill('12,345')
  await page.getByRole('button', { name: 'Create bill' }).click()
  await expect(amount).toHaveAttribute('aria-invalid', 'true')
  await expect(amount).toHaveAccessibleDescription(/An amount above zero with at most two decimals/)
  await amount.fill('10.00')

  const success = page.getByLabel('Success URL')
  await success.fill('ftp://shop.example.com/ok')
  await page.getByRole('button', { name: 'Create bill' }).click()
  await expect(success).toHaveAttribute('aria-invalid', 'true')
  await expect(success).toHaveAccessibleDescription(/must be an absolute http\(s\) URL/)
  await expect(success).toBeFocused()

  await success.fill('https://shop.example.com/ok')
  // 60 days ahead, in the browser's time: past the 45-day window
  const expires = page.getByLabel('Expires')
  await expires.fill(await daysAhead(page, 60))
  await page.getByRole('button', { name: 'Create bill' }).click()
  await expect(expires).toHaveAttribute('aria-invalid', 'true')
  await expect(expires).toHaveAccessibleDescription(/must be at most 45 days ahead/)
  await expect(success).not.toHaveAttribute('aria-invalid', 'true')

  // right at last: the same form makes the bill; the refusals made none
  await expires.fill(await daysAhead(page, 10))
  await page.getByRole('button', { name: 'Create bill' }).click()
  await expect(page.getByRole('heading', { name: /^Bill /, level: 1 })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Bill', exact: true })).toContainText('https://shop.example.com/ok')
  await page.getByRole('link', { name: 'Back to bills' }).click()
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2) // the heading's row and the one bill
})

test.describe('in Russian on a 360 px screen', () => {
  test.use({
    locale: 'ru-RU',
    extraHTTPHeaders: { 'Accept-Language': 'ru-RU,ru;q=0.9' },
    viewport: { width: 360, height: 740 },
  })

  test('the list, the form and the bill’s page, without horizontal scrolling', async ({ page }) => {
    const site = await newSite('e2e-dash-bills-ru')
    await page.goto('/dashboard')
    await page.getByLabel('Идентификатор сайта').fill(site.siteId)
    await page.getByLabel('API-токен').fill(site.token)
    await page.getByRole('button', { name: 'Войти' }).click()
    await expect(page.getByRole('heading', { name: 'Обзор', level: 1 })).toBeVisible()
    await page.getByRole('navigation').getByRole('link', { name: 'Счета' }).click()
    await expect(page.getByRole('heading', { name: 'Счета', level: 1 })).toBeVisible()
    await expect(page.getByText('Счетов пока нет.')).toBeVisible()
    expect(await fitsWidth(page)).toBe(true)

    await page.getByRole('link', { name: 'Новый счёт' }).click()
    await expect(page.getByRole('heading', { name: 'Новый счёт', level: 1 })).toBeVisible()
    expect(await fitsWidth(page)).toBe(true)
    // a decimal comma, as typed in Russian
    await page.getByLabel('Сумма').fill('10,50')
    await page.getByLabel('Комментарий').fill('Заказ 12')
    await page.getByRole('button', { name: 'Создать счёт' }).click()

    await expect(page.getByRole('heading', { name: /^Счёт [0-9a-f-]{36}$/, level: 1 })).toBeVisible()
    const fields = page.getByRole('region', { name: 'Счёт', exact: true })
    await expect(fields).toContainText('Ожидает оплаты')
    await expect(fields).toContainText('10,50')
    await expect(page.getByRole('img', { name: 'QR-код ссылки на оплату' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Копировать ссылку' })).toBeEnabled()
    expect(await fitsWidth(page)).toBe(true)
    const billId = billIdOf(page)
    expect((await client(site).get(`/bills/${billId}/details`)).body.amount).toEqual({
      value: '10.50',
      currency: 'RUB',
    })

    await page.getByRole('link', { name: 'К счетам' }).click()
    await expect(page.getByRole('link', { name: billId })).toBeVisible()
    expect(await fitsWidth(page)).toBe(true)
  })
})
