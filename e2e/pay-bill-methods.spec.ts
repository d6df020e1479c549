// A bill's billPaymentMethodsType on the payment page: a bill listing MOBILE only shows the phone number alone (no
// card, no choice of method) and is paid from the mobile balance; a bill listing only QIWI_WALLET, which the sandbox
// does not have, shows why it cannot be paid here instead of the form.
import { expect, test } from '@playwright/test'
import { rub } from '../tests/support/api.ts'
import { enterCode, payFromMobile, TEST_CODE, TEST_PHONES } from './helpers/pay-page.ts'
import { merchant, outcomes, paidHeading, payButton } from './support.ts'

let m: Awaited<ReturnType<typeof merchant>>

test.beforeAll(async () => {
  m = await merchant('e2e-bill-methods')
})

test('["MOBILE"]: the phone number alone, no card; paid from the mobile balance', async ({ page }) => {
  const bill = await m.bill({ amount: rub('12.00'), billPaymentMethodsType: ['MOBILE'] })
  await page.goto(bill.payUrl)
  await expect(page.getByLabel('Mobile phone number')).toBeVisible()
  await expect(page.getByLabel('Card number')).toHaveCount(0)
  await expect(page.getByRole('radio')).toHaveCount(0)
  await payFromMobile(page, TEST_PHONES.withCode)
  await enterCode(page, TEST_CODE)
  await expect(paidHeading(page)).toBeVisible()

  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
  expect(d.payments[0].paymentMethod.type).toBe('MOBILE')
})

test('["QIWI_WALLET"]: the page says the bill cannot be paid here, in the payer\'s language; no form', async ({
  browser,
}) => {
  const bill = await m.bill({ billPaymentMethodsType: ['QIWI_WALLET'] })
  for (const [locale, title] of [
    ['en-US', 'This bill cannot be paid here'],
    ['ru-RU', 'Этот счёт нельзя оплатить здесь'],
  ]) {
    const context = await browser.newContext({ locale })
    const page = await context.newPage()
    await page.goto(bill.payUrl)
    await expect(page.getByRole('heading', { name: title })).toBeVisible()
    await expect(payButton(page)).toHaveCount(0)
    await expect(page.getByRole('textbox')).toHaveCount(0)
    await context.close()
  }
  expect((await m.details(bill.billId)).payments).toEqual([])
})
