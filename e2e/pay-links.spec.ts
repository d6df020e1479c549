// Links without the API in Chromium (issue 31): the merchant copies the public key from the dashboard's Settings; a
// link with extras and `readonly` opens the bill's form (readonly fields shown, not editable), the dashboard shows
// the bill with its custom fields, and opening the link again with the same billId reopens that bill (no second one);
// a payUrl's lang=en on a Russian browser shows English, and paymentMethod=SBP chooses the SBP tab.
import { expect, test } from '@playwright/test'
import { newSite } from '../tests/support/api.ts'
import { signIn } from './dashboard-support.ts'
import { payWithCard, TEST_CARDS } from './helpers/pay-page.ts'
import { paidHeading } from './support.ts'

test('a link with extras and readonly: the form, the dashboard bill with its custom fields, reopened by billId', async ({
  page,
}) => {
  const site = await newSite('e2e-links')
  await signIn(page, site)
  await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click()
  const publicKey = (await page.getByTestId('public-key').textContent())!.trim()
  expect(publicKey).toMatch(/^pk_/)

  const billId = `order-${Date.now()}`
  const link =
    `/create?publicKey=${publicKey}&amount=150.00&billId=${billId}&comment=Order%20123` +
    `&extras[cf1]=Order_123&extras[cf3]=winnie%40pooh.ru&readonly=cf1`
  await page.goto(link)
  await expect(page).toHaveURL(/\/pay\/[0-9a-f-]{36}$/)
  const payUrl = page.url()
  await expect(page.getByText('Order details')).toBeVisible()
  const cf1 = page.getByLabel('cf1')
  await expect(cf1).toHaveValue('Order_123')
  await expect(cf1).not.toBeEditable()
  await expect(page.getByLabel('cf3')).toBeEditable()
  await expect(page.getByLabel('cf3')).toHaveValue('winnie@pooh.ru')

  // the same link again: the same bill
  await page.goto(link)
  await expect(page).toHaveURL(payUrl)

  // the dashboard lists one bill of that id, with its custom fields
  await page.goto('/dashboard/bills')
  await expect(page.getByRole('link', { name: billId })).toHaveCount(1)
  await page.getByRole('link', { name: billId }).click()
  const fields = page.getByTestId('bill-custom-fields')
  await expect(fields).toContainText('cf1')
  await expect(fields).toContainText('Order_123')
  await expect(fields).toContainText('winnie@pooh.ru')

  // paid with the payer's change to cf3: the payment carries it
  await page.goto(payUrl)
  await page.getByLabel('cf3').fill('gift wrap')
  await payWithCard(page, { card: TEST_CARDS.success })
  await expect(paidHeading(page)).toBeVisible()
})

test('lang=en on a Russian browser shows English; paymentMethod=SBP chooses the SBP tab', async ({
  page: dashboard,
  browser,
}) => {
  await signIn(dashboard, await newSite('e2e-links-lang'))
  await dashboard.goto('/dashboard/settings')
  const key = (await dashboard.getByTestId('public-key').textContent())!.trim()
  const context = await browser.newContext({ locale: 'ru-RU' })
  const page = await context.newPage()
  await page.goto(`/create?publicKey=${key}&amount=10.00`)
  await expect(page.getByRole('heading', { name: 'Оплата' })).toBeVisible()
  await page.goto(`/create?publicKey=${key}&amount=10.00&lang=en&paymentMethod=SBP`)
  await expect(page).toHaveURL(/\/pay\/[0-9a-f-]{36}\?lang=en&paymentMethod=SBP$/)
  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible()
  await expect(page.getByRole('radio', { name: 'SBP' })).toBeChecked()
  await context.close()
})
