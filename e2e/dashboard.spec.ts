// The merchant dashboard in Chromium, by labels and roles: signing in and out, finding a payment by its
// card's last four digits, capturing and refunding it (the API agrees), a refund over the captured
// amount refused inline, Russian on a 360 px screen.
import { expect, test } from '@playwright/test'
import { BASE_URL, client, newSite, rub, twoStepPayment, uid } from '../tests/support/api.ts'
import { sql } from '../tests/support/db.ts'
import { fitsWidth, signIn } from './dashboard-support.ts'
import { merchantWebSite } from './support.ts'

test('sign in, find a payment by its last four digits, capture, refund part of it, sign out', async ({ page }) => {
  const site = await newSite('e2e-dash')
  const api = client(site)
  const held = uid('held')
  const other = uid('other')
  expect(
    (await api.put(`/payments/${held}`, twoStepPayment({ amount: rub('50.00') }, { pan: '5555555555554444' }))).status,
  ).toBe(200)
  expect((await api.put(`/payments/${other}`, twoStepPayment({ amount: rub('20.00') }))).status).toBe(200)

  await signIn(page, site)
  const nav = page.getByRole('navigation')
  for (const link of ['Overview', 'Payments', 'Bills', 'Notifications', 'Settings'])
    await expect(nav.getByRole('link', { name: link })).toBeVisible()
  await nav.getByRole('link', { name: 'Payments' }).click()
  await expect(page.getByRole('link', { name: held })).toBeVisible()
  await expect(page.getByRole('link', { name: other })).toBeVisible()

  await page.getByLabel('Search').fill('4444')
  await page.getByRole('button', { name: 'Find' }).click()
  await expect(page.getByRole('link', { name: held })).toBeVisible()
  await expect(page.getByRole('link', { name: other })).toHaveCount(0)
  await page.getByRole('link', { name: held }).click()
  await expect(page.getByRole('heading', { name: `Payment ${held}` })).toBeVisible()

  const capture = page.getByRole('region', { name: 'Capture' })
  await capture.getByLabel('Amount').fill('40.00')
  await capture.getByRole('button', { name: 'Capture' }).click()
  const confirmCapture = page.getByRole('alertdialog', { name: 'Capture' })
  await expect(confirmCapture).toContainText('Capture RUB 40.00?')
  await confirmCapture.getByRole('button', { name: 'Confirm' }).click()
  await expect(capture.getByRole('status')).toHaveText('Capture: Captured')
  await expect.poll(async () => (await api.get(`/payments/${held}`)).body.capturedAmount.value).toBe('40.00')

  const refund = page.getByRole('region', { name: 'Refund' })
  await refund.getByLabel('Amount').fill('15.50')
  await refund.getByRole('button', { name: 'Refund' }).click()
  await page.getByRole('alertdialog', { name: 'Refund' }).getByRole('button', { name: 'Confirm' }).click()
  await expect(refund.getByRole('status')).toHaveText('Refund: Refunded')
  const read = (await api.get(`/payments/${held}`)).body
  expect(read.refundedAmount.value).toBe('15.50')

  // nothing: refused in the form, before any confirmation
  await refund.getByLabel('Amount').fill('0,00')
  await refund.getByRole('button', { name: 'Refund' }).click()
  await expect(refund.getByLabel('Amount')).toHaveAccessibleDescription(
    'Enter an amount above zero, such as 10.00 or 10,00.',
  )
  await expect(page.getByRole('alertdialog', { name: 'Refund' })).toHaveCount(0)

  // more than what is left of the capture: refused, shown where it was asked; no declined refund recorded
  await refund.getByLabel('Amount').fill('30.00')
  await refund.getByRole('button', { name: 'Refund' }).click()
  await page.getByRole('alertdialog', { name: 'Refund' }).getByRole('button', { name: 'Confirm' }).click()
  await expect(refund.getByRole('alert')).toHaveText('The amount is more than is left to refund')
  expect((await api.get(`/payments/${held}`)).body.refundedAmount.value).toBe('15.50')
  expect((await api.get(`/payments/${held}/refunds`)).body).toHaveLength(1)

  // the page's figures and the audit log follow
  const fields = page.getByRole('region', { name: 'Payment', exact: true })
  await expect(fields).toContainText('CapturedRUB 40.00')
  await expect(fields).toContainText('RefundedRUB 15.50')
  const audit = page.getByRole('region', { name: 'Audit log' })
  await expect(audit.getByRole('row')).toHaveCount(4) // the heading's row and three actions
  await expect(audit).toContainText(site.token.slice(0, 9))
  await expect(audit).toContainText('refused: The amount is more than is left to refund')
  await expect(page.getByRole('region', { name: 'Timeline' })).not.toContainText('Refund declined')

  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible()
  await page.goto(`/dashboard/payments/${held}`)
  await expect(page.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible()
})

test('a wrong token: one message, no session', async ({ page }) => {
  const site = await newSite('e2e-dash')
  await page.goto('/dashboard')
  await page.getByLabel('Site ID').fill(site.siteId)
  await page.getByLabel('API token').fill(`${site.token}x`)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Wrong site ID or API token.')
  await page.goto('/dashboard/payments')
  await expect(page.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible()
})

test('an idle session ends: the next action lands on the sign-in page, nothing is captured', async ({ page }) => {
  const site = await newSite('e2e-dash')
  const api = client(site)
  const held = uid('held')
  expect((await api.put(`/payments/${held}`, twoStepPayment({ amount: rub('30.00') }))).status).toBe(200)
  await signIn(page, site)
  await page.goto(`/dashboard/payments/${held}`)
  const capture = page.getByRole('region', { name: 'Capture' })
  await capture.getByLabel('Amount').fill('30.00')
  // 8 hours and a minute without a request pass (the idle limit is DASHBOARD_IDLE_MINUTES, 480)
  await sql(`UPDATE "DashboardSession" SET "lastSeenAt" = now() - interval '481 minutes' WHERE "siteId" = $1`, [
    site.siteId,
  ])
  await capture.getByRole('button', { name: 'Capture' }).click()
  await page.getByRole('alertdialog', { name: 'Capture' }).getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible()
  await expect(page.getByRole('main')).toContainText('Your session has ended. Sign in again.')
  expect((await api.get(`/payments/${held}`)).body.capturedAmount.value).toBe('0.00')
  // and a page read after the idle limit shows the sign-in page too
  await signIn(page, site)
  await sql(`UPDATE "DashboardSession" SET "lastSeenAt" = now() - interval '481 minutes' WHERE "siteId" = $1`, [
    site.siteId,
  ])
  await page.getByRole('navigation').getByRole('link', { name: 'Bills' }).click()
  await expect(page.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible()
})

test("another site's payment is not found; a form posted from another origin is refused", async ({ page }) => {
  const mine = await newSite('e2e-dash')
  const theirs = await newSite('e2e-dash-other')
  const theirPayment = uid('theirs')
  expect((await client(theirs).put(`/payments/${theirPayment}`, twoStepPayment())).status).toBe(200)
  await signIn(page, mine)
  const answer = await page.goto(`/dashboard/payments/${theirPayment}`)
  expect(answer?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Not found', level: 1 })).toBeVisible()
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Payments' })).toBeVisible()
  // an address the dashboard does not have: the same page in its frame, not the framework's English default
  for (const path of ['/dashboard/nope', '/dashboard/payments/a/b']) {
    expect((await page.goto(path))?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Not found', level: 1 })).toBeVisible()
    await expect(page).toHaveTitle('Not found · Payin')
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Payments' })).toBeVisible()
  }

  // a page of another origin (a port of its own on this host: the browser still sends the SameSite=Strict
  // cookie, which makes the Origin check the one thing that stands) posts a capture of my own payment
  const held = uid('held')
  expect((await client(mine).put(`/payments/${held}`, twoStepPayment({ amount: rub('10.00') }))).status).toBe(200)
  const elsewhere = await merchantWebSite()
  try {
    await page.goto(`${elsewhere.origin}/shop`)
    const target = new URL(`/dashboard/actions/payments/${held}/capture`, BASE_URL).toString()
    const refused = page.waitForResponse((r) => r.url() === target)
    await page.evaluate((action) => {
      const form = document.createElement('form')
      form.method = 'POST'
      form.action = action
      form.enctype = 'text/plain'
      const field = document.createElement('input')
      field.name = '{"amount":"10.00","key":"00000000-0000-4000-8000-00000000000'
      field.value = '1"}'
      form.append(field)
      document.body.append(form)
      form.submit()
    }, target)
    const response = await refused
    expect((await response.request().allHeaders()).cookie ?? '').toContain('payin_dashboard=')
    expect(response.status()).toBe(403)
    expect((await response.json()).errorCode).toBe('auth.forbidden')
  } finally {
    await elsewhere.close()
  }
  expect((await client(mine).get(`/payments/${held}`)).body.capturedAmount.value).toBe('0.00')
})

test('a refund whose answer is lost: trying again replays it, the money moves once', async ({ page }) => {
  const site = await newSite('e2e-dash')
  const api = client(site)
  const paid = uid('paid')
  expect((await api.put(`/payments/${paid}`, twoStepPayment({ amount: rub('50.00') }))).status).toBe(200)
  expect((await api.put(`/payments/${paid}/captures/${uid('c')}`, { amount: rub('50.00') })).status).toBe(200)
  await signIn(page, site)
  await page.goto(`/dashboard/payments/${paid}`)
  // the first send reaches the service and is done there, but its answer never comes back
  const sent: string[] = []
  await page.route('**/dashboard/actions/payments/*/refund', async (route) => {
    sent.push(route.request().postData() ?? '')
    if (sent.length === 1) {
      await route.fetch()
      await route.abort('connectionreset')
    } else await route.continue()
  })
  const refund = page.getByRole('region', { name: 'Refund' })
  await refund.getByLabel('Amount').fill('10.00')
  await refund.getByRole('button', { name: 'Refund' }).click()
  await page.getByRole('alertdialog', { name: 'Refund' }).getByRole('button', { name: 'Confirm' }).click()
  await expect(refund.getByRole('alert')).toHaveText(/^No answer from the service/)
  expect((await api.get(`/payments/${paid}`)).body.refundedAmount.value).toBe('10.00')
  await refund.getByRole('button', { name: 'Refund' }).click()
  await page.getByRole('alertdialog', { name: 'Refund' }).getByRole('button', { name: 'Confirm' }).click()
  await expect(refund.getByRole('status')).toHaveText('Refund: Refunded')
  expect(sent).toHaveLength(2)
  expect(JSON.parse(sent[1]).key).toBe(JSON.parse(sent[0]).key)
  expect((await api.get(`/payments/${paid}`)).body.refundedAmount.value).toBe('10.00')
  expect((await api.get(`/payments/${paid}/refunds`)).body).toHaveLength(1)
})

test.describe('in Russian on a 360 px screen', () => {
  test.use({
    locale: 'ru-RU',
    extraHTTPHeaders: { 'Accept-Language': 'ru-RU,ru;q=0.9' },
    viewport: { width: 360, height: 740 },
  })

  test('sign-in, the overview and the payments, without horizontal scrolling', async ({ page }) => {
    const site = await newSite('e2e-dash-ru')
    expect((await client(site).put(`/payments/${uid('ru')}`, twoStepPayment())).status).toBe(200)
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { name: 'Вход в кабинет' })).toBeVisible()
    expect(await fitsWidth(page)).toBe(true)
    await page.getByLabel('Идентификатор сайта').fill(site.siteId)
    await page.getByLabel('API-токен').fill(site.token)
    await page.getByRole('button', { name: 'Войти' }).click()
    // signing in lands on the overview
    await expect(page.getByRole('heading', { name: 'Обзор', level: 1 })).toBeVisible()
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Настройки' })).toBeVisible()
    expect(await fitsWidth(page)).toBe(true)
    await page.getByRole('navigation').getByRole('link', { name: 'Платежи' }).click()
    await expect(page.getByRole('heading', { name: 'Платежи', level: 1 })).toBeVisible()
    expect(await fitsWidth(page)).toBe(true)
  })
})
