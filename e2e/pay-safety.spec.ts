// Card data on the payment page: the fields help the payer (grouping, brand, autocomplete, errors next
// to the field), the number is gone from the page once sent, the page is locked down by its headers,
// and another site cannot post attempts on the payer's behalf.
import { expect, test } from '@playwright/test'
import { payWithCard, TEST_CARDS } from './helpers/pay-page.ts'
import { merchant, outcomes, payButton } from './support.ts'

let m: Awaited<ReturnType<typeof merchant>>

test.beforeAll(async () => {
  m = await merchant('e2e-safety')
})

test('card fields: grouped as typed, brand shown, autocomplete and numeric keyboards, errors next to the field', async ({
  page,
}) => {
  const bill = await m.bill()
  await page.goto(bill.payUrl)
  const pan = page.getByLabel('Card number')
  const expiry = page.getByLabel('Expiry date (MM/YY)')
  const cvv = page.getByLabel('Security code (CVV)')
  await expect(pan).toHaveAttribute('autocomplete', 'cc-number')
  await expect(expiry).toHaveAttribute('autocomplete', 'cc-exp')
  await expect(cvv).toHaveAttribute('autocomplete', 'cc-csc')
  for (const input of [pan, expiry, cvv]) await expect(input).toHaveAttribute('inputmode', 'numeric')

  await pan.pressSequentially('4111111111111111')
  await expect(pan).toHaveValue('4111 1111 1111 1111')
  await expect(page.getByTestId('brand')).toHaveText('Visa')
  await pan.fill('')
  await pan.pressSequentially('5555555555554444')
  await expect(pan).toHaveValue('5555 5555 5555 4444')
  await expect(page.getByTestId('brand')).toHaveText('Mastercard')

  await expiry.pressSequentially('1230')
  await expect(expiry).toHaveValue('12/30')

  // a number that fails the check digit: the error appears next to the field once the payer leaves it
  await pan.fill('')
  await pan.pressSequentially('4111111111111112')
  await expiry.focus()
  const error = page.locator('#pan-error')
  await expect(error).toHaveText('Enter a valid card number')
  await expect(pan).toHaveAttribute('aria-invalid', 'true')
  await expect(pan).toHaveAttribute('aria-describedby', /\bpan-error\b/)
  // next to the field: in the same field block, right under the input
  const [inputBox, errorBox] = [(await pan.boundingBox())!, (await error.boundingBox())!]
  expect(errorBox.y).toBeGreaterThanOrEqual(inputBox.y + inputBox.height - 1)
  expect(errorBox.y - (inputBox.y + inputBox.height)).toBeLessThan(40)

  await cvv.fill('12')
  await expiry.focus()
  await expect(page.locator('#cvv-error')).toHaveText('Enter 3 or 4 digits')
  expect((await m.details(bill.billId)).payments).toHaveLength(0)
})

test('after a declined card the number is not in the page; CSP locks framing and scripts; a cross-site post is refused', async ({
  page,
}) => {
  const bill = await m.bill()
  const res = await page.goto(bill.payUrl)
  const csp = res!.headers()['content-security-policy'] ?? ''
  expect(csp).toContain("frame-ancestors 'none'")
  expect(csp).toMatch(/script-src [^;]*'nonce-[A-Za-z0-9+/=]{16,}'/)
  expect(csp).not.toMatch(/script-src [^;]*'unsafe-inline'(?![^;]*'nonce-)/)

  await payWithCard(page, { card: TEST_CARDS.declined })
  const declined = page.getByTestId('declined')
  await expect(declined).toBeVisible()
  await expect(declined).toContainText('The bank declined the payment.')
  await expect(page.getByLabel('Card number')).toHaveValue('')
  await expect(page.getByLabel('Security code (CVV)')).toHaveValue('')
  const html = await page.content()
  expect(html).not.toContain('4000000000000002')
  expect(html).not.toContain('4000 0000 0000 0002')
  const inputs = await page
    .locator('input')
    .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join('|'))
  expect(inputs).not.toMatch(/4000\s?0000\s?0000\s?0002/)
  expect(outcomes((await m.details(bill.billId)).payments)).toEqual([['DECLINED', 'ACQUIRING_DECLINED']])

  // another site's page posting an attempt to this form's endpoint
  const evil = await page.request.post(`${bill.payUrl}/attempts`, {
    headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
    data: { method: 'card', pan: '4111111111111111', expiry: '12/30', cvv: '123' },
  })
  expect(evil.status()).toBe(403)
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('CREATED')
  expect(d.payments).toHaveLength(1)
})

test('five declined cards in a row pause the bill: the payer is told when to try again, and no payment is made', async ({
  page,
}) => {
  const bill = await m.bill()
  await page.goto(bill.payUrl)
  const declined = page.getByTestId('declined')
  for (const card of [
    TEST_CARDS.declined,
    TEST_CARDS.insufficientFunds,
    TEST_CARDS.expiredCard,
    TEST_CARDS.incorrectCvv,
    TEST_CARDS.tryAgainLater,
  ]) {
    await payWithCard(page, { card })
    await expect(declined).toBeVisible()
    await expect(payButton(page)).toBeEnabled()
  }
  await payWithCard(page, { card: TEST_CARDS.success })
  const paused = page.getByTestId('general-error')
  await expect(paused).toHaveText(
    'Too many unsuccessful attempts to pay this bill. For your security, paying is paused: try again in 10 min.',
  )
  await expect(paused).toHaveAttribute('role', 'alert')
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('CREATED')
  expect(d.payments).toHaveLength(5)
  expect(d.payments.every((p: any) => p.status.value === 'DECLINED')).toBe(true)
})
