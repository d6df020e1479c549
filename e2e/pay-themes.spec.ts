// Payment page themes in Chromium (issue 31): the merchant adds a theme in the dashboard's Themes card (a PNG logo
// uploaded, a low-contrast colour refused on its field) and changes it, and a bill naming it in
// customFields.themeCode shows the theme's background, button colours, name and logo at 360 px, in English and in
// Russian, and still takes a payment.
import { expect, test, type Page } from '@playwright/test'
import { billRequest, client, newSite, uid } from '../tests/support/api.ts'
import { solidPng } from '../tests/support/theme-images.ts'
import { fitsWidth, signIn } from './dashboard-support.ts'
import { payWithCard, TEST_CARDS } from './helpers/pay-page.ts'
import { paidHeading } from './support.ts'

/** the computed colour of the first element `selector` matches, as the browser writes it (`rgb(…)`) */
const colorOf = (page: Page, selector: string, property: 'background-color' | 'color') =>
  page
    .locator(selector)
    .first()
    .evaluate((e, p) => getComputedStyle(e).getPropertyValue(p), property)

test('a theme added in the dashboard dresses its bills’ pages, at 360 px, in English and Russian', async ({
  page,
  browser,
}) => {
  const site = await newSite('e2e-theme')
  await signIn(page, site)
  await page.goto('/dashboard/settings')
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Payment page themes' }) })
  await expect(card.getByText('No themes yet.')).toBeVisible()
  await card.getByLabel('Code').fill('shop-01')
  await card.getByLabel('Name shown on the page').fill('Shop')
  await card.getByLabel('Background colour').fill('#fff7ed')
  // white on orange: below 4.5:1, refused on its field
  await card.getByLabel('Button colour', { exact: true }).fill('#f97316')
  await card.getByLabel(/^Logo/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: solidPng(96, 48) })
  await card.getByRole('button', { name: 'Save' }).click()
  await expect(card.getByText(/Not saved: the button's text \(#ffffff\) on it: contrast 2\.\d+:1/)).toBeVisible()
  await expect(card.getByLabel('Button colour', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  await card.getByLabel('Button colour', { exact: true }).fill('#9a3412')
  await card.getByRole('button', { name: 'Save' }).click()
  const listed = card.locator('li[data-theme="shop-01"]')
  await expect(listed).toContainText('Shop')
  await expect(listed.getByRole('img', { name: 'Logo of shop-01' })).toBeVisible()
  // changed: the form takes the theme's values; with no file chosen the logo stays
  await listed.getByRole('button', { name: 'Change' }).click()
  await expect(card.getByRole('heading', { name: 'Changing shop-01' })).toBeVisible()
  await expect(card.getByLabel('Button colour', { exact: true })).toHaveValue('#9a3412')
  await card.getByLabel('Name shown on the page').fill('Shop of Tests')
  await card.getByRole('button', { name: 'Save' }).click()
  await expect(listed).toContainText('Shop of Tests')
  await expect(listed.getByRole('img', { name: 'Logo of shop-01' })).toBeVisible()

  const bill = await client(site).put(`/bills/${uid('bill')}`, billRequest({ customFields: { themeCode: 'shop-01' } }))
  expect(bill.status, bill.text).toBe(200)
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'ru-RU' })
  const payer = await context.newPage()
  for (const [lang, heading] of [
    ['en', 'Payment'],
    ['ru', 'Оплата'],
  ]) {
    await payer.goto(`${bill.body.payUrl}?lang=${lang}`)
    await expect(payer.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
    const header = payer.locator('header.pay-theme')
    await expect(header).toContainText('Shop of Tests')
    const logo = header.locator('img')
    await expect(logo).toBeVisible()
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96)
    expect(await colorOf(payer, 'main.pay', 'background-color')).toBe('rgb(255, 247, 237)')
    expect(await colorOf(payer, 'button.pay-submit', 'background-color')).toBe('rgb(154, 52, 18)')
    expect(await colorOf(payer, 'button.pay-submit', 'color')).toBe('rgb(255, 255, 255)')
    expect(await fitsWidth(payer)).toBe(true)
  }
  // the themed page still takes a payment
  await payer.goto(`${bill.body.payUrl}?lang=en`)
  await payWithCard(payer, { card: TEST_CARDS.success })
  await expect(paidHeading(payer)).toBeVisible()
  await expect(payer.locator('header.pay-theme')).toContainText('Shop of Tests')
  await context.close()

  // deleted in the dashboard: the same bill's page is the default one
  await page.reload()
  await card.locator('li[data-theme="shop-01"]').getByRole('button', { name: 'Delete' }).click()
  await expect(card.getByText('Theme shop-01 deleted.')).toBeVisible()
  await page.goto(bill.body.payUrl)
  await expect(page.locator('header.pay-theme')).toHaveCount(0)
})
