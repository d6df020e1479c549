// The dashboard's overview in Chromium (issue 33), on an instance of its own whose worker delivers notifications
// to receivers on loopback: a fresh site's payments (paid in RUB and EUR, declined by the test cards' reasons) and
// their notifications (one receiver answers 200, another always 500: failed) are what the overview's charts and
// tables count, in English and in Russian; its links lead to the payments and notifications it counted.
import { expect, test, type Browser, type Page } from '@playwright/test'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { codes as en } from '../lib/i18n/en/codes.ts'
import { codes as ru } from '../lib/i18n/ru/codes.ts'
import { BASE_URL, cardPayment, client, newSite, uid } from '../tests/support/api.ts'
import { startInstance, type Instance } from '../tests/support/instances.ts'
import { receiver } from '../tests/support/notification-receiver.ts'
import { notifyTo, WORKER_ENV } from '../tests/support/notify-site.ts'

const PORT = Number(new URL(BASE_URL).port) + 190
const BASE = `http://127.0.0.1:${PORT}`

test.use({ baseURL: BASE })

const rx = receiver()
let hook: string
// a merchant's endpoint that is down: every notification posted to it fails
const down = http.createServer((req, res) => {
  req.resume()
  res.writeHead(500).end('down')
})
let downUrl: string
let instance: Instance

test.beforeAll(async () => {
  hook = await rx.start()
  await new Promise<void>((r) => down.listen(0, '127.0.0.1', r))
  downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}/hook`
  instance = await startInstance(PORT, WORKER_ENV)
})
test.afterAll(async () => {
  instance?.kill()
  await instance?.exited
  down.closeAllConnections()
  down.close()
  rx.close()
})

async function signedIn(browser: Browser, site: { siteId: string; token: string }, lang: 'en' | 'ru') {
  const context = await browser.newContext(
    lang === 'ru' ? { locale: 'ru-RU', extraHTTPHeaders: { 'Accept-Language': 'ru-RU,ru;q=0.9' } } : {},
  )
  const page = await context.newPage()
  await page.goto('/dashboard')
  await page.locator('#site-id').fill(site.siteId)
  await page.locator('#api-token').fill(site.token)
  await page.locator('form button[type=submit]').click()
  // signing in lands on the overview
  await expect(page.getByRole('heading', { level: 1, name: lang === 'en' ? 'Overview' : 'Обзор' })).toBeVisible()
  expect(new URL(page.url()).pathname).toBe('/dashboard')
  return { context, page }
}

/** a card's cells' texts, row by row (the table's own rows, its head's included) */
const cells = (page: Page, section: string, table = 0) =>
  page
    .getByRole('region', { name: section, exact: true })
    .locator('table')
    .nth(table)
    .locator('tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th,td')].map((c) => c.textContent?.trim() ?? '')))

const amountIn = (locale: string, value: number, currency: string) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2 }).format(value)

test("the overview counts the site's payments and notifications, in English and Russian, and links to them", async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const site = await newSite('e2e-overview')
  await notifyTo(site.siteId, `${hook}/${site.siteId}`)
  const api = client(site, '/api', instance.base)
  const made: { id: string; status: string }[] = []
  const pay = async (value: string, currency: string, pan: string, over: Record<string, unknown> = {}) => {
    const id = uid('ov')
    const r = await api.put(`/payments/${id}`, cardPayment({ amount: { value, currency }, ...over }, { pan }))
    expect(r.status, r.text).toBe(200)
    made.push({ id, status: r.body.status.value })
    return id
  }
  const paidA = await pay('1500.00', 'RUB', '4111111111111111')
  // its notification goes to the endpoint that is down: retried, then failed
  const paidDown = await pay('250.50', 'RUB', '5555555555554444', { callbackUrl: downUrl })
  await pay('100.00', 'RUB', '4111111111111111')
  await pay('20.00', 'EUR', '4111111111111111')
  await pay('700.00', 'RUB', '4000000000009995') // ACQUIRING_INSUFFICIENT_FUNDS
  await pay('80.00', 'RUB', '4000000000009995')
  await pay('35.00', 'RUB', '4000000000000002') // ACQUIRING_DECLINED
  expect(made.map((p) => p.status)).toEqual([
    'COMPLETED',
    'COMPLETED',
    'COMPLETED',
    'COMPLETED',
    'DECLINED',
    'DECLINED',
    'DECLINED',
  ])
  const declined = made.filter((p) => p.status === 'DECLINED').map((p) => p.id)
  // every notification's delivery has ended: six delivered, the one to the endpoint that is down failed
  await expect
    .poll(
      async () =>
        ((await api.get('/notifications')).body as { state: string }[])
          .map((n) => n.state)
          .sort()
          .join(' '),
      { timeout: 30_000 },
    )
    .toBe('DELIVERED DELIVERED DELIVERED DELIVERED DELIVERED DELIVERED FAILED')

  // ---- in English
  const { context, page } = await signedIn(browser, site, 'en')
  const nav = page.getByRole('navigation')
  await expect(nav.getByRole('link').first()).toHaveText('Overview')
  await expect(nav.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page')
  await expect(nav.getByRole('link', { name: 'Payments' })).not.toHaveAttribute('aria-current', 'page')
  expect(await page.title()).toBe('Overview · Payin')
  // the charts: images named by their summaries, in the order of the cards (RUB before EUR)
  const charts = page.locator('main svg[role=img]')
  await expect(charts).toHaveCount(6)
  const names = await charts.evaluateAll((svgs) => svgs.map((s) => s.getAttribute('aria-label')))
  expect(names[0]).toMatch(/^Bar chart: 7 payments in 30 days; the most on .+: 7\.$/)
  expect(names[1]).toMatch(new RegExp(`^Bar chart: ${amountIn('en-GB', 1850.5, 'RUB')} authorised in 30 days;`))
  expect(names[2]).toMatch(new RegExp(`^Bar chart: ${amountIn('en-GB', 20, 'EUR')} authorised in 30 days;`))
  expect(names[3]).toBe('57.1% of finished payments succeeded: 4 succeeded, 3 declined.')
  expect(names[4]).toBe(
    `Bar chart: 3 payments declined; the most frequent reason: ${en.reason.ACQUIRING_INSUFFICIENT_FUNDS}, 2.`,
  )
  expect(names[5]).toBe('Bar chart: 7 notifications: 6 delivered, 0 pending, 1 failed.')
  for (const svg of await charts.all())
    await expect(svg.locator('title')).toHaveText((await svg.getAttribute('aria-label'))!)

  // the tables: 30 days, every payment on the last (today's), none before
  const perDay = await cells(page, 'Payments per day')
  expect(perDay).toHaveLength(31)
  expect(perDay[0]).toEqual(['Day', 'Payments'])
  expect(perDay.at(-1)![1]).toBe('7')
  expect(perDay.slice(1, -1).every((r) => r[1] === '0')).toBe(true)
  const rub = await cells(page, 'Authorised per day, RUB')
  expect(rub[0]).toEqual(['Day', 'Authorised, RUB'])
  expect(rub.at(-1)![1]).toBe(amountIn('en-GB', 1850.5, 'RUB'))
  expect((await cells(page, 'Authorised per day, EUR')).at(-1)![1]).toBe(amountIn('en-GB', 20, 'EUR'))
  expect(await cells(page, 'Successful among finished payments')).toEqual([
    ['Status', 'Payments', 'Share'],
    ['Successful', '4', '57.1%'],
    ['Declined', '3', '42.9%'],
  ])
  expect(await cells(page, 'Top decline reasons')).toEqual([
    ['No.', 'Reason', 'Payments'],
    ['1', `${en.reason.ACQUIRING_INSUFFICIENT_FUNDS} ACQUIRING_INSUFFICIENT_FUNDS`, '2'],
    ['2', `${en.reason.ACQUIRING_DECLINED} ACQUIRING_DECLINED`, '1'],
  ])
  expect(await cells(page, 'Notification delivery')).toEqual([
    ['State', 'Notifications'],
    ['Delivered', '6'],
    ['Pending', '0'],
    ['Failed', '1'],
  ])
  // the tables are a screen reader's: in a <details>, closed; opened, the table shows
  const table = page.getByRole('region', { name: 'Payments per day' }).getByRole('table')
  await expect(table).toBeHidden()
  await page.getByRole('region', { name: 'Payments per day' }).getByText('As a table').click()
  await expect(table).toBeVisible()

  // the links: the declined payments, then the failed notification
  await page
    .getByRole('region', { name: 'Top decline reasons' })
    .getByRole('link', { name: 'Declined payments' })
    .click()
  await expect(page).toHaveURL(/\/dashboard\/payments\?status=DECLINED&since=\d{4}-\d{2}-\d{2}$/)
  const ids = await page.locator('tbody tr td:first-child a').allTextContents()
  expect(ids.sort()).toEqual([...declined].sort())
  await page.goBack()
  await page
    .getByRole('region', { name: 'Notification delivery' })
    .getByRole('link', { name: 'Failed: the list' })
    .click()
  await expect(page).toHaveURL(/\/dashboard\/notifications\?state=FAILED&since=\d{4}-\d{2}-\d{2}$/)
  await expect(page.getByLabel('State')).toHaveValue('FAILED')
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await expect(page.locator('tbody tr')).toContainText(paidDown)
  await expect(page.locator('tbody tr')).toContainText(downUrl)
  await page.getByLabel('State').selectOption('DELIVERED')
  await page.getByRole('button', { name: 'Find' }).click()
  await expect(page).toHaveURL(/\/dashboard\/notifications\?state=DELIVERED&since=\d{4}-\d{2}-\d{2}$/)
  await expect(page.locator('tbody tr')).toHaveCount(6)
  await expect(page.locator('tbody tr').filter({ hasText: paidA })).toHaveCount(1)
  await context.close()

  // ---- in Russian
  const russian = await signedIn(browser, site, 'ru')
  const p = russian.page
  expect(await p.title()).toBe('Обзор · Payin')
  const ruNames = await p
    .locator('main svg[role=img]')
    .evaluateAll((svgs) => svgs.map((s) => s.getAttribute('aria-label')))
  const share = new Intl.NumberFormat('ru-RU', { style: 'percent', maximumFractionDigits: 1 })
  expect(ruNames[1]).toMatch(
    new RegExp(`^Столбчатая диаграмма: авторизовано за 30 дней — ${amountIn('ru-RU', 1850.5, 'RUB')};`),
  )
  expect(ruNames[3]).toBe(`Успешны ${share.format(4 / 7)} завершённых платежей: успешно — 4, отклонено — 3.`)
  expect(await cells(p, 'Доля успешных среди завершённых')).toEqual([
    ['Статус', 'Платежи', 'Доля'],
    ['Успешные', '4', share.format(4 / 7)],
    ['Отклонён', '3', share.format(3 / 7)],
  ])
  expect(await cells(p, 'Частые причины отказа')).toEqual([
    ['№', 'Причина', 'Платежи'],
    ['1', `${ru.reason.ACQUIRING_INSUFFICIENT_FUNDS} ACQUIRING_INSUFFICIENT_FUNDS`, '2'],
    ['2', `${ru.reason.ACQUIRING_DECLINED} ACQUIRING_DECLINED`, '1'],
  ])
  expect(await cells(p, 'Доставка уведомлений')).toEqual([
    ['Состояние', 'Уведомления'],
    ['Доставлено', '6'],
    ['В очереди', '0'],
    ['Не доставлено', '1'],
  ])
  expect((await cells(p, 'Авторизовано по дням, RUB')).at(-1)![1]).toBe(amountIn('ru-RU', 1850.5, 'RUB'))
  // a day in Russian: "27 нояб. 2026 г."
  expect((await cells(p, 'Платежи по дням')).at(-1)![0]).toMatch(/^\d{1,2} [а-я]+\.? \d{4} г\.$/)
  await p
    .getByRole('region', { name: 'Авторизовано по дням, RUB' })
    .getByRole('link', { name: 'Успешные платежи' })
    .click()
  await expect(p).toHaveURL(/\/dashboard\/payments\?status=COMPLETED&since=\d{4}-\d{2}-\d{2}$/)
  await expect(p.locator('tbody tr')).toHaveCount(4)
  await russian.context.close()
})
