// The dashboard entirely in the page's language (issue 33): on every page with data, in Russian, no code of the
// service's tables (statuses, methods, flags, decline reasons, notifications' types and states) and none of their
// English words is left in the text a merchant reads, nor the English unit "ms". A decline reason's code stays
// beside its sentence, in a <code> element, and a notification's body as it was sent: both are left out. The lists
// of codes are the dictionaries' keys, which tests/unit/dashboard-code-words.test.ts holds to the service's tables.
import { expect, test, type Page } from '@playwright/test'
import { codes as en } from '../lib/i18n/en/codes.ts'
import { codes as ru } from '../lib/i18n/ru/codes.ts'
import { cardPayment, client, newSite, rub, twoStepPayment, uid } from '../tests/support/api.ts'
import { notifyTo } from '../tests/support/notify-site.ts'

const TABLES = [
  'paymentStatus',
  'billStatus',
  'captureStatus',
  'refundStatus',
  'notificationStatus',
  'notificationState',
  'notificationType',
  'method',
  'flag',
  'reason',
] as const

/** what must not be read on a Russian page: every code, and every English word that is not Russian's too */
const ENGLISH = [
  ...new Set(
    TABLES.flatMap((table) =>
      Object.keys(en[table]).flatMap((code) => {
        const word = en[table][code]
        return [code, ...(word !== ru[table][code] ? [word.replace(/\.$/, '')] : [])]
      }),
    ),
  ),
  'ms',
]

/** the text a reader sees, but for the wire codes shown as such (<code>) and the body as sent (<pre>) */
const readText = (page: Page) =>
  page.evaluate(() => {
    const parts: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      if (!node.parentElement?.closest('code,pre,script,style')) parts.push(node.textContent ?? '')
    // the form fields' and buttons' own text too (placeholders, options)
    for (const e of document.querySelectorAll('input[placeholder]')) parts.push(e.getAttribute('placeholder') ?? '')
    return parts.join('\n')
  })

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** the English words found in a text, each as a whole word (`Paid` is not in `Unpaid`, nor `SALE` in `WHOLESALE`) */
const englishIn = (text: string) =>
  ENGLISH.filter((w) => new RegExp(`(^|[^\\p{L}\\p{N}_])${escape(w)}(?=$|[^\\p{L}\\p{N}_])`, 'u').test(text))

test('a Russian dashboard shows no English status, method, reason, flag or notification word', async ({ browser }) => {
  test.setTimeout(120_000)
  expect(ENGLISH.length).toBeGreaterThan(40)
  const site = await newSite('e2e-language')
  const api = client(site)
  // nothing listens there: the attempts fail, and their errors are shown
  await notifyTo(site.siteId, 'http://localhost:4999/payin-hook')
  const held = uid('order-held')
  expect((await api.put(`/payments/${held}`, twoStepPayment({ amount: rub('1234.50') }))).status).toBe(200)
  expect((await api.put(`/payments/${held}/captures/${uid('capture')}`, { amount: rub('1000.00') })).status).toBe(200)
  expect((await api.put(`/payments/${held}/refunds/${uid('refund')}`, { amount: rub('10.00') })).status).toBe(200)
  const over = await api.put(`/payments/${held}/refunds/${uid('refund')}`, { amount: rub('5000.00') })
  expect(over.status).toBe(200)
  const declined = uid('order-declined')
  expect((await api.put(`/payments/${declined}`, cardPayment({}, { pan: '4000000000000002' }))).status).toBe(200)
  const sale = uid('order-sale')
  expect((await api.put(`/payments/${sale}`, cardPayment())).status).toBe(200)
  const billId = uid('bill')
  const bill = await api.put(`/bills/${billId}`, {
    amount: rub('350.00'),
    expirationDateTime: new Date(Date.now() + 86_400_000).toISOString(),
  })
  expect(bill.status).toBe(200)

  const context = await browser.newContext({ locale: 'ru-RU', extraHTTPHeaders: { 'Accept-Language': 'ru-RU' } })
  const page = await context.newPage()
  await page.goto('/dashboard')
  await page.getByLabel('Идентификатор сайта').fill(site.siteId)
  await page.getByLabel('API-токен').fill(site.token)
  await page.getByRole('button', { name: 'Войти' }).click()
  await expect(page.getByRole('heading', { name: 'Обзор', level: 1 })).toBeVisible()

  // a refused capture (a second one): its refusal in the audit log and the timeline
  await page.goto(`/dashboard/payments/${held}`)
  expect(
    (
      await page.request.post(`/dashboard/actions/payments/${held}/capture`, {
        data: { amount: '10,00', key: crypto.randomUUID() },
        headers: { Origin: new URL(page.url()).origin },
      })
    ).status(),
  ).toBe(409)

  const notifications = '/dashboard/notifications'
  // the attempts failed: a row shows the attempt's error
  await expect
    .poll(async () => {
      await page.goto(notifications)
      return page.locator('tbody tr').count()
    })
    .toBeGreaterThan(0)
  const firstNotification = await page.locator('a[href^="/dashboard/notifications/"]').first().getAttribute('href')
  const paths = [
    '/dashboard',
    '/dashboard/payments',
    `/dashboard/payments/${held}`,
    `/dashboard/payments/${declined}`,
    `/dashboard/payments/${sale}`,
    '/dashboard/bills',
    '/dashboard/bills/new',
    `/dashboard/bills/${billId}`,
    notifications,
    firstNotification!,
    '/dashboard/settings',
  ]
  for (const path of paths) {
    await page.goto(path)
    await expect(page.locator('h1')).toBeVisible()
    expect(englishIn(await readText(page)), `${path}: English words`).toEqual([])
  }
  // the words are there: a status, a method, a reason's sentence with its code
  await page.goto(`/dashboard/payments/${declined}`)
  await expect(page.locator('main')).toContainText('Отклонён')
  await expect(page.locator('main')).toContainText('Карта')
  await expect(page.locator('main')).toContainText('Банк карты отклонил платёж. ACQUIRING_DECLINED')
  await page.goto(`/dashboard/payments/${held}`)
  await expect(page.getByRole('region', { name: 'История' })).toContainText('отказ: Платёж уже успешно списан')
  await context.close()
})
