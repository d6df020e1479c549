// The dashboard reads on any width (issue 33): at 360, 768 and 1280 px, in English and in Russian, on every page
// with data, no word, number, date or id is broken across lines (each whitespace-separated word of each text is
// one rectangle on the screen) and the page does not scroll sideways. Each page's one title names it, and a payment's
// page offers only the actions that can work on it; no placeholder is cut off by its field.
import { expect, test, type Browser, type Page } from '@playwright/test'
import { cardPayment, client, newSite, rub, twoStepPayment, uid } from '../tests/support/api.ts'
import { notifyTo } from '../tests/support/notify-site.ts'
import { fitsWidth } from './dashboard-support.ts'

/** the words of the page's visible text that the browser laid out over more than one line */
const splitWords = (page: Page) =>
  page.evaluate(() => {
    const split: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      for (const m of text.matchAll(/\S+/g)) {
        const range = document.createRange()
        range.setStart(node, m.index)
        range.setEnd(node, m.index + m[0].length)
        // a word wrapped inside itself has a rectangle per line it is on
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)))
        if (lines.size > 1)
          split.push(`${m[0]} (in ${node.parentElement?.tagName.toLowerCase()}.${node.parentElement?.className})`)
      }
    }
    return split
  })

/** the placeholders cut off by their field: each one's text measured in the field's font against its content box */
const cutPlaceholders = (page: Page) =>
  page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d')!
    return [...document.querySelectorAll<HTMLInputElement>('input[placeholder]')]
      .filter((e) => e.offsetParent !== null)
      .filter((e) => {
        const style = getComputedStyle(e)
        context.font = style.font
        const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
        return context.measureText(e.placeholder).width > room + 0.5
      })
      .map((e) => `${e.id || e.name}: "${e.placeholder}"`)
  })

/** the elements that reach past the window's right edge (for the failure's message) */
const widest = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .filter((e) => !e.parentElement?.closest('.dash-table-wrap,dd,.dash-scroll,.bill-link,.notif-pre'))
      .slice(0, 4)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
      .join(', '),
  )

async function signedIn(browser: Browser, site: { siteId: string; token: string }, lang: 'en' | 'ru') {
  const context = await browser.newContext(
    lang === 'ru' ? { locale: 'ru-RU', extraHTTPHeaders: { 'Accept-Language': 'ru-RU,ru;q=0.9' } } : {},
  )
  const page = await context.newPage()
  await page.goto('/dashboard')
  await page.locator('#site-id').fill(site.siteId)
  await page.locator('#api-token').fill(site.token)
  await page.locator('form button[type=submit]').click()
  // signed in once the overview is there: the sign-in form has an h1 of its own at the same address, and a page
  // opened before the sign-in's navigation ends would be aborted by it
  await expect(page.getByRole('heading', { level: 1, name: lang === 'en' ? 'Overview' : 'Обзор' })).toBeVisible()
  expect(new URL(page.url()).pathname).toBe('/dashboard')
  return { context, page }
}

test('no word split, no sideways scroll, a title per page, only the actions that work: 360–1280 px, both languages', async ({
  browser,
}) => {
  test.setTimeout(180_000)
  const site = await newSite('e2e-words')
  const api = client(site)
  await notifyTo(site.siteId, 'http://localhost:4999/payin-hook')
  // ids as long as merchants make them, and every kind of row
  const held = uid('order-2026-11-27-customer-4815162342-basket')
  expect(
    (
      await api.put(
        `/payments/${held}`,
        twoStepPayment({
          amount: rub('1234567.89'),
          comment: 'Order 1042',
          customer: { account: 'acc-1', email: 'anna.petrovna.ivanova-sidorova@example.com', name: 'Анна Иванова' },
          customFields: {
            'loyalty-program-member-level-field-number-00-xx': 'Order 1042 for a customer with a long name',
            cf1: '9999999999',
          },
        }),
      )
    ).status,
  ).toBe(200)
  expect((await api.put(`/payments/${held}/captures/${uid('capture')}`, { amount: rub('1234567.89') })).status).toBe(
    200,
  )
  expect((await api.put(`/payments/${held}/refunds/${uid('refund')}`, { amount: rub('990.00') })).status).toBe(200)
  const declined = uid('order-1043')
  expect(
    (await api.put(`/payments/${declined}`, cardPayment({ amount: rub('350.00') }, { pan: '4000000000009995' })))
      .status,
  ).toBe(200)
  const billId = uid('bill-2026-11-27-customer-4815162342')
  expect(
    (
      await api.put(`/bills/${billId}`, {
        amount: rub('350.00'),
        expirationDateTime: new Date(Date.now() + 86_400_000).toISOString(),
        comment: 'Подарочный сертификат на 350 рублей',
      })
    ).status,
  ).toBe(200)

  const titles = {
    en: ['Overview', 'Payments', `Payment ${held}`, `Payment ${declined}`, 'Bills', 'New bill', `Bill ${billId}`],
    ru: ['Обзор', 'Платежи', `Платёж ${held}`, `Платёж ${declined}`, 'Счета', 'Новый счёт', `Счёт ${billId}`],
  }
  for (const lang of ['en', 'ru'] as const) {
    const { context, page } = await signedIn(browser, site, lang)
    const notifications = '/dashboard/notifications'
    const paths = [
      '/dashboard',
      '/dashboard/payments',
      `/dashboard/payments/${held}`,
      `/dashboard/payments/${declined}`,
      '/dashboard/bills',
      '/dashboard/bills/new',
      `/dashboard/bills/${billId}`,
      notifications,
      '/dashboard/settings',
    ]
    const actions = (name: RegExp) => page.locator('main').getByRole('button', { name })
    for (const width of [360, 768, 1280]) {
      await page.setViewportSize({ width, height: 800 })
      for (const [i, path] of paths.entries()) {
        await page.goto(path)
        await expect(page.locator('h1')).toBeVisible()
        expect(await splitWords(page), `${lang} ${width} px ${path}: words split across lines`).toEqual([])
        expect(await fitsWidth(page), `${lang} ${width} px ${path}: scrolls sideways ${await widest(page)}`).toBe(true)
        expect(await cutPlaceholders(page), `${lang} ${width} px ${path}: placeholders cut off`).toEqual([])
        if (titles[lang][i]) expect(await page.title(), `${lang} ${path}: its title`).toBe(`${titles[lang][i]} · Payin`)
      }
      // the captured payment: nothing left to capture, the rest of its capture refundable; the declined one: neither
      await page.goto(`/dashboard/payments/${held}`)
      await expect(actions(lang === 'en' ? /^Refund/ : /^Вернуть/)).toBeVisible()
      await expect(actions(lang === 'en' ? /^Capture/ : /^Списать/)).toHaveCount(0)
      await page.goto(`/dashboard/payments/${declined}`)
      await expect(page.locator('h1')).toBeVisible()
      await expect(actions(lang === 'en' ? /^(Capture|Refund)/ : /^(Списать|Вернуть)/)).toHaveCount(0)
      // a notification's own page, from the list
      await page.goto(notifications)
      const first = page
        .locator('main a[href^="/dashboard/notifications/"], a[href^="/dashboard/notifications/"]')
        .first()
      if (await first.count()) {
        await first.click()
        await expect(page.locator('h1')).toBeVisible()
        expect(await splitWords(page), `${lang} ${width} px a notification: words split across lines`).toEqual([])
        expect(await fitsWidth(page), `${lang} ${width} px a notification: scrolls sideways`).toBe(true)
      }
    }
    await context.close()
  }
})
