// The dashboard's Notifications in Chromium, by labels and roles, on an instance of its own whose worker
// delivers to a receiver on loopback (the suite's server runs no worker): a paid payment's notification
// delivered, its attempt (time, HTTP 200, duration) and body shown; "Resend", confirmed, queues it
// (PENDING) and it is delivered again (the receiver gets it twice); a delivery under way is refused
// inline; Russian on a 360 px screen without horizontal scrolling.
import { expect, test, type Page } from '@playwright/test'
import { BASE_URL, cardPayment, client, newSite, rub, uid } from '../tests/support/api.ts'
import { sql } from '../tests/support/db.ts'
import { startInstance, type Instance } from '../tests/support/instances.ts'
import { receiver } from '../tests/support/notification-receiver.ts'
import { notifyTo, WORKER_ENV } from '../tests/support/notify-site.ts'
import { fitsWidth, signIn } from './dashboard-support.ts'
import { payWithCard, TEST_CARDS } from './helpers/pay-page.ts'
import { paidHeading } from './support.ts'

const PORT = Number(new URL(BASE_URL).port) + 130
const BASE = `http://127.0.0.1:${PORT}`

test.use({ baseURL: BASE })

const rx = receiver()
let hook: string
let instance: Instance

test.beforeAll(async () => {
  hook = await rx.start()
  // the payer of the bill journey comes from 127.0.0.1, as every payer of the suite does: the per-client
  // page-attempt limit counts them all in the shared database (its own test: tests/http/page-attempts.test.ts)
  instance = await startInstance(PORT, { ...WORKER_ENV, PAGE_CLIENT_ATTEMPTS: '100000' })
})
test.afterAll(async () => {
  instance?.kill()
  await instance?.exited
  rx.close()
})

/** a site whose notifications go to the receiver, and a payment of it paid by card, its notification delivered */
async function paidAndNotified(prefix: string) {
  const site = await newSite(prefix)
  const path = `/${site.siteId}`
  await notifyTo(site.siteId, `${hook}${path}`)
  const api = client(site, '/api', instance.base)
  const paymentId = uid('paid')
  const created = await api.put(`/payments/${paymentId}`, cardPayment({ amount: rub('60.50') }))
  expect(created.status, created.text).toBe(200)
  expect(created.body.status.value).toBe('COMPLETED')
  // received, and its attempt recorded
  await expect.poll(() => rx.forPath(path).length).toBe(1)
  await expect.poll(async () => ((await api.get('/notifications')).body as any[])[0]?.state).toBe('DELIVERED')
  return { site, api, paymentId, path }
}

const attemptsTable = (page: Page, name: string) => page.getByRole('region', { name }).getByRole('table')

test('a delivery with its attempt and body; Resend, confirmed: PENDING, then delivered again', async ({ page }) => {
  const { site, api, paymentId, path } = await paidAndNotified('e2e-notif')
  await signIn(page, site)
  await page.getByRole('navigation').getByRole('link', { name: 'Notifications' }).click()
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible()
  const row = page.getByRole('row').filter({ hasText: paymentId })
  await expect(row).toContainText('Payment')
  await expect(row).toContainText('Success')
  await expect(row).toContainText(`${hook}${path}`)
  await expect(row).toContainText('Delivered')
  await expect(row.getByRole('link', { name: paymentId, exact: true })).toHaveAttribute(
    'href',
    `/dashboard/payments/${paymentId}`,
  )

  await row.getByRole('link', { name: `Details of PAYMENT ${paymentId}` }).click()
  await expect(page.getByRole('heading', { name: `Notification PAYMENT ${paymentId}`, level: 1 })).toBeVisible()
  const attempts = attemptsTable(page, 'Delivery attempts')
  await expect(attempts.getByRole('row')).toHaveCount(2) // the heading's row and one attempt
  const attempt = attempts.getByRole('row').nth(1).getByRole('cell')
  await expect(attempt.nth(0)).toHaveText(/\d{2}:\d{2}:\d{2}/)
  await expect(attempt.nth(1)).toHaveText('200')
  await expect(attempt.nth(2)).toHaveText(/^\d+ ms$/)
  const body = page.getByRole('region', { name: 'Body sent' })
  await expect(body).toContainText(`"paymentId": "${paymentId}"`)
  await expect(body).toContainText('"value": 60.50')
  await expect(body).toContainText('"maskedPan": "411111******1111"')
  await expect(body).not.toContainText('4111111111111111')
  // the exact text the receiver got, indented
  const sent = rx.forPath(path)[0].body
  expect(JSON.parse((await body.locator('pre').textContent())!)).toEqual(JSON.parse(sent))

  const resend = page.getByRole('region', { name: 'Resend' })
  await resend.getByRole('button', { name: 'Resend' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Resend' })
  await expect(confirm).toContainText(`Send this notification to ${hook}${path} again?`)
  // Cancel (or Escape) leaves it alone
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(resend.getByRole('button', { name: 'Resend' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(confirm).toBeVisible()
  await confirm.getByRole('button', { name: 'Confirm' }).click()
  await expect(resend.getByRole('status')).toContainText('Queued again: Pending, next attempt')
  // delivered again: the receiver gets it twice, the same body; the page shows the second attempt
  await expect.poll(() => rx.forPath(path).length).toBe(2)
  expect(rx.forPath(path)[1].body).toBe(sent)
  await expect(async () => {
    await page.reload()
    await expect(attempts.getByRole('row')).toHaveCount(3, { timeout: 1000 })
    await expect(page.getByRole('region', { name: 'Notification', exact: true })).toContainText('Delivered', {
      timeout: 1000,
    })
  }).toPass()
  await expect(attempts.getByRole('row').nth(2).getByRole('cell').nth(1)).toHaveText('200')
  const audit = page.getByRole('region', { name: 'Audit log' })
  await expect(audit).toContainText(site.token.slice(0, 9))
  await expect(audit).toContainText('Resend')
  const [n] = (await api.get('/notifications')).body as any[]
  expect(n.attempts).toBe(2)

  // while a delivery of it is under way (a worker's lease held): refused, shown where it was asked
  await sql(`UPDATE "Notification" SET state = 'PENDING', "leaseUntil" = now() + interval '5 minutes' WHERE id = $1`, [
    n.notificationId,
  ])
  try {
    await resend.getByRole('button', { name: 'Resend' }).click()
    await page.getByRole('alertdialog', { name: 'Resend' }).getByRole('button', { name: 'Confirm' }).click()
    await expect(resend.getByRole('alert')).toHaveText(
      'A delivery of this notification is under way. Try again once it has ended.',
    )
    await expect(resend.getByRole('status')).toHaveText('')
  } finally {
    await sql(`UPDATE "Notification" SET state = 'DELIVERED', "leaseUntil" = NULL WHERE id = $1`, [n.notificationId])
  }
  expect(rx.forPath(path).length).toBe(2)
})

test('a bill made in the dashboard, paid through its copied link in a second page: its notification shown, then sent again', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE })
  const site = await newSite('e2e-notif-bill')
  const path = `/${site.siteId}`
  await notifyTo(site.siteId, `${hook}${path}`)
  await signIn(page, site)
  await page.getByRole('navigation').getByRole('link', { name: 'Bills' }).click()
  await page.getByRole('link', { name: 'New bill' }).click()
  await page.getByLabel('Amount').fill('12.00')
  await page.getByRole('button', { name: 'Create bill' }).click()
  await expect(page.getByRole('heading', { name: /^Bill [0-9a-f-]{36}$/, level: 1 })).toBeVisible()
  const link = page.getByRole('region', { name: 'Payment link' })
  await link.getByRole('button', { name: 'Copy link' }).click()
  await expect(link.getByRole('status')).toHaveText('Copied')
  const copied = await page.evaluate(() => navigator.clipboard.readText())

  const payer = await context.newPage()
  await payer.goto(copied)
  await payWithCard(payer, { card: TEST_CARDS.success })
  await expect(paidHeading(payer)).toBeVisible()
  await payer.close()

  // the merchant's receiver gets the payment's notification; the dashboard shows it delivered
  await expect.poll(() => rx.forPath(path).length).toBe(1)
  const sent = JSON.parse(rx.forPath(path)[0].body)
  const paymentId: string = sent.payment.paymentId
  expect(sent.payment.status.value).toBe('SUCCESS')
  await page.getByRole('navigation').getByRole('link', { name: 'Notifications' }).click()
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible()
  const row = page.getByRole('row').filter({ hasText: paymentId })
  await expect(async () => {
    await page.reload()
    await expect(row).toContainText('Delivered', { timeout: 1000 })
  }).toPass()
  await row.getByRole('link', { name: `Details of PAYMENT ${paymentId}` }).click()
  await expect(page.getByRole('region', { name: 'Body sent' })).toContainText(`"paymentId": "${paymentId}"`)
  const resend = page.getByRole('region', { name: 'Resend' })
  await resend.getByRole('button', { name: 'Resend' }).click()
  await page.getByRole('alertdialog', { name: 'Resend' }).getByRole('button', { name: 'Confirm' }).click()
  await expect(resend.getByRole('status')).toContainText('Queued again: Pending')
  await expect.poll(() => rx.forPath(path).length).toBe(2)
  expect(rx.forPath(path)[1].body).toBe(rx.forPath(path)[0].body)
})

test.describe('in Russian on a 360 px screen', () => {
  test.use({
    locale: 'ru-RU',
    extraHTTPHeaders: { 'Accept-Language': 'ru-RU,ru;q=0.9' },
    viewport: { width: 360, height: 740 },
  })

  test('the notifications and a delivery, without horizontal scrolling; Resend', async ({ page }) => {
    const { site, paymentId, path } = await paidAndNotified('e2e-notif-ru')
    await page.goto('/dashboard')
    await page.getByLabel('Идентификатор сайта').fill(site.siteId)
    await page.getByLabel('API-токен').fill(site.token)
    await page.getByRole('button', { name: 'Войти' }).click()
    await expect(page.getByRole('heading', { name: 'Обзор', level: 1 })).toBeVisible()
    await page.getByRole('navigation').getByRole('link', { name: 'Уведомления' }).click()
    await expect(page.getByRole('heading', { name: 'Уведомления', level: 1 })).toBeVisible()
    await expect(page.getByRole('columnheader', { name: 'Состояние' })).toBeVisible()
    expect(await fitsWidth(page)).toBe(true)

    await page.getByRole('link', { name: `Подробнее: Платёж ${paymentId}` }).click()
    await expect(page.getByRole('heading', { name: `Уведомление Платёж ${paymentId}`, level: 1 })).toBeVisible()
    await expect(attemptsTable(page, 'Попытки доставки').getByRole('row').nth(1)).toContainText('200')
    await expect(page.getByRole('region', { name: 'Отправленное тело' })).toContainText('"value": 60.50')
    expect(await fitsWidth(page)).toBe(true)

    const resend = page.getByRole('region', { name: 'Отправить снова' })
    await resend.getByRole('button', { name: 'Отправить снова' }).click()
    await page
      .getByRole('alertdialog', { name: 'Отправить снова' })
      .getByRole('button', { name: 'Подтвердить' })
      .click()
    await expect(resend.getByRole('status')).toContainText('Отправка повторена (В очереди)')
    expect(await fitsWidth(page)).toBe(true)
    await expect.poll(() => rx.forPath(path).length).toBe(2)
  })
})
