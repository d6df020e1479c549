// The dashboard's pages as a merchant sees them, with a little of everything in them: each page opens
// with its heading, fits the screen without sideways scrolling (1280 px and 360 px, and in Russian at 360 px), and is
// captured.
// The captures go to test-results/dashboard-screenshots/, or to SCREENSHOTS_DIR when it is set: the pictures of
// docs/merchants/dashboard.md come from `SCREENSHOTS_DIR=docs/dashboard TEST_E2E=dashboard-screenshots npm test`.
import { expect, test, type Page } from '@playwright/test'
import path from 'node:path'
import { cardPayment, client, newSite, rub, twoStepPayment, uid } from '../tests/support/api.ts'
import { notifyTo } from '../tests/support/notify-site.ts'
import { fitsWidth, signIn } from './dashboard-support.ts'

const DIR = process.env.SCREENSHOTS_DIR ?? 'test-results/dashboard-screenshots'

async function capture(page: Page, name: string, heading: string | RegExp) {
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
  expect(await fitsWidth(page), `${name} scrolls sideways`).toBe(true)
  await page.screenshot({ path: path.join(DIR, `${name}.png`), fullPage: true })
}

test('every page of the dashboard, captured', async ({ page, browser }) => {
  const site = await newSite('demo-shop')
  const api = client(site)
  await notifyTo(site.siteId, 'http://localhost:4999/payin-hook')
  const held = uid('order-1042')
  expect(
    (
      await api.put(
        `/payments/${held}`,
        twoStepPayment({ amount: rub('4990.00'), comment: 'Order 1042' }, { pan: '5555555555554444' }),
      )
    ).status,
  ).toBe(200)
  expect((await api.put(`/payments/${held}/captures/${uid('c')}`, { amount: rub('4990.00') })).status).toBe(200)
  expect((await api.put(`/payments/${held}/refunds/${uid('r')}`, { amount: rub('990.00') })).status).toBe(200)
  expect(
    (
      await api.put(
        `/payments/${uid('order-1043')}`,
        cardPayment({ amount: rub('1250.00') }, { pan: '4000000000009995' }),
      )
    ).status,
  ).toBe(200)
  expect((await api.put(`/payments/${uid('order-1044')}`, cardPayment({ amount: rub('310.50') }))).status).toBe(200)
  expect((await api.put(`/payments/${uid('order-1045')}`, twoStepPayment({ amount: rub('15000.00') }))).status).toBe(
    200,
  )

  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/dashboard')
  await capture(page, 'sign-in', 'Sign in to the dashboard')
  await signIn(page, site)
  await capture(page, 'overview', 'Overview')
  await page.getByRole('navigation').getByRole('link', { name: 'Payments' }).click()
  await capture(page, 'payments', 'Payments')
  await page.getByRole('link', { name: held }).click()
  await capture(page, 'payment', `Payment ${held}`)

  await page.getByRole('navigation').getByRole('link', { name: 'Bills' }).click()
  await page.getByRole('link', { name: 'New bill' }).click()
  await page.getByLabel('Amount').fill('2500.00')
  await page.getByLabel('Comment').fill('Order 1046')
  await capture(page, 'new-bill', 'New bill')
  await page.getByRole('button', { name: 'Create bill' }).click()
  await capture(page, 'bill', /^Bill /)
  await page.getByRole('navigation').getByRole('link', { name: 'Bills' }).click()
  await capture(page, 'bills', 'Bills')

  await page.getByRole('navigation').getByRole('link', { name: 'Notifications' }).click()
  await capture(page, 'notifications', 'Notifications')
  await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click()
  await capture(page, 'settings', 'Settings')

  await page.setViewportSize({ width: 360, height: 740 })
  await page.getByRole('navigation').getByRole('link', { name: 'Overview' }).click()
  await capture(page, 'overview-360px', 'Overview')
  await page.getByRole('navigation').getByRole('link', { name: 'Payments' }).click()
  await page.getByRole('link', { name: held }).click()
  await capture(page, 'payment-360px', `Payment ${held}`)

  // in Russian on a phone: the same session, the browser asking for Russian
  const ru = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'ru-RU' })
  await ru.addCookies(await page.context().cookies())
  const phone = await ru.newPage()
  await phone.goto('/dashboard')
  await capture(phone, 'overview-ru-360px', 'Обзор')
  const nav = phone.getByRole('navigation')
  await nav.getByRole('link', { name: 'Платежи' }).click()
  await capture(phone, 'payments-ru-360px', 'Платежи')
  await phone.getByRole('link', { name: held }).click()
  await capture(phone, 'payment-ru-360px', `Платёж ${held}`)
  await nav.getByRole('link', { name: 'Уведомления' }).click()
  await capture(phone, 'notifications-ru-360px', 'Уведомления')
  await ru.close()
})
