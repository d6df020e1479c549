// The payment page for every payer: keyboard only, with a screen reader's cues (focus, aria-invalid,
// aria-describedby, the status live region), in Russian, and on a 360 px phone.
import { expect, test, type Page } from '@playwright/test'
import fs from 'node:fs'
import { rub } from '../tests/support/api.ts'
import { merchant, outcomes, paidHeading } from './support.ts'

let m: Awaited<ReturnType<typeof merchant>>

test.beforeAll(async () => {
  m = await merchant('e2e-access')
})

/** presses Tab until the focused element matches `selector` */
async function tabTo(page: Page, selector: string, max = 20) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    if (await page.evaluate((s) => !!document.activeElement?.matches(s), selector)) return
  }
  throw new Error(`Tab never reached ${selector}`)
}

test('keyboard only: an empty submit focuses the first invalid field with its error described; then the card is paid with Enter', async ({
  page,
}) => {
  const bill = await m.bill({ amount: rub('5.00') })
  await page.goto(bill.payUrl)
  await expect(page.getByLabel('Card number')).toBeVisible()

  // an empty form, submitted from the keyboard
  await tabTo(page, 'button[type=submit]')
  await page.keyboard.press('Enter')
  const pan = page.getByLabel('Card number')
  await expect(pan).toBeFocused()
  await expect(pan).toHaveAttribute('aria-invalid', 'true')
  const describedBy = (await pan.getAttribute('aria-describedby')) ?? ''
  expect(describedBy).not.toBe('')
  const described = (
    await Promise.all(describedBy.split(/\s+/).map((id) => page.locator(`[id="${id}"]`).innerText()))
  ).join(' ')
  expect(described).toContain('Fill in this field')
  await expect(page.getByRole('status')).toHaveText(/\S/)
  await expect(page.getByRole('status')).toContainText('Please correct the highlighted fields')
  await expect(page.getByLabel('Security code (CVV)')).toHaveAttribute('aria-invalid', 'true')

  // the payer types the card, moving with Tab, and submits with Enter
  await page.keyboard.type('4111111111111111')
  await expect(pan).toHaveValue('4111 1111 1111 1111')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Expiry date (MM/YY)')).toBeFocused()
  await page.keyboard.type('1230')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Security code (CVV)')).toBeFocused()
  await page.keyboard.type('123')
  await page.keyboard.press('Enter')
  await expect(paidHeading(page)).toBeVisible()

  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
})

test('keyboard only: the mobile method is chosen with the arrow keys and Space', async ({ page }) => {
  const bill = await m.bill()
  await page.goto(bill.payUrl)
  await expect(page.getByLabel('Card number')).toBeVisible()
  await tabTo(page, 'input[type=radio]')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('Space')
  await expect(page.getByLabel('Mobile balance')).toBeChecked()
  await expect(page.getByLabel('Mobile phone number')).toBeVisible()
  await expect(page.getByLabel('Card number')).toHaveCount(0)
})

test('Russian: the page speaks Russian and formats the amount as "10,00 ₽"', async ({ browser }) => {
  const bill = await m.bill({ amount: rub('10.00') })
  const context = await browser.newContext({
    extraHTTPHeaders: { 'Accept-Language': 'ru-RU,ru;q=0.9' },
    locale: 'ru-RU',
  })
  try {
    const page = await context.newPage()
    await page.goto(bill.payUrl)
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru')
    await expect(page.getByRole('heading', { name: 'Оплата' })).toBeVisible()
    await expect(page.getByLabel('Номер карты')).toBeVisible()
    await expect(page.getByLabel('Срок действия (ММ/ГГ)')).toBeVisible()
    await expect(page.getByTestId('bill-amount')).toHaveText(/^10,00\s₽$/)
    await expect(page.getByRole('button', { name: /^Оплатить 10,00\s₽$/ })).toBeVisible()
    await expect(page.getByText('Text comment')).toBeVisible()
    // a field error in Russian too
    await page.getByRole('button', { name: /^Оплатить/ }).click()
    await expect(page.locator('#pan-error')).toHaveText('Заполните поле')
  } finally {
    await context.close()
  }
})

test('360 px phone: no horizontal scroll, every input in view; full-page screenshot kept', async ({
  browser,
}, testInfo) => {
  const bill = await m.bill({
    amount: rub('1234567.89'),
    comment: 'Order 1001: a rather long comment about what is being paid for, to wrap on a narrow screen',
  })
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
  try {
    const page = await context.newPage()
    await page.goto(bill.payUrl)
    await expect(page.getByLabel('Card number')).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    const inputs = page.locator('input:not([type=hidden])')
    expect(await inputs.count()).toBeGreaterThanOrEqual(5) // two methods, number, expiry, CVV
    for (const input of await inputs.all()) {
      await expect(input).toBeVisible()
      const box = (await input.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(360)
    }
    await expect(page.getByRole('button', { name: /^Pay/ })).toBeVisible()
    const shot = await page.screenshot({ fullPage: true })
    fs.mkdirSync('test-results', { recursive: true })
    fs.writeFileSync('test-results/pay-page-360.png', shot)
    await testInfo.attach('pay-page-360', { body: shot, contentType: 'image/png' })
  } finally {
    await context.close()
  }
})
