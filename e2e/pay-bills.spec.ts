// The payment page beyond the plain card: mobile balance (code, operator's wait), open-amount bills,
// the pages of expired, paid and unknown bills, and 20 tabs paying the same bill at once.
import { expect, test } from '@playwright/test'
import { randomUUID } from 'node:crypto'
import { cardPayment, rub } from '../tests/support/api.ts'
import { sql } from '../tests/support/db.ts'
import { enterCode, payFromMobile, TEST_PHONES } from './helpers/pay-page.ts'
import { merchant, merchantWebSite, outcomes, paidHeading, payButton, typeCard } from './support.ts'

let m: Awaited<ReturnType<typeof merchant>>

test.beforeAll(async () => {
  m = await merchant('e2e-bills')
})

test('mobile balance with a code: phone, code step, 1234 → paid', async ({ page }) => {
  const bill = await m.bill({ amount: rub('15.00') })
  await page.goto(bill.payUrl)
  await payFromMobile(page, TEST_PHONES.withCode)
  await expect(page.getByText(/^Enter the code sent by SMS to \+\*+4567$/)).toBeVisible()
  await enterCode(page, '1234')
  await expect(paidHeading(page)).toBeVisible()

  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
  expect(d.payments[0].paymentMethod.type).toBe('MOBILE')
  expect(d.payments[0].capturedAmount).toEqual(rub('15.00'))
})

test('mobile balance, phone ending 0000: the page waits for the operator, then shows paid by itself', async ({
  page,
}) => {
  const bill = await m.bill()
  await page.goto(bill.payUrl)
  await payFromMobile(page, TEST_PHONES.confirms)
  await expect(page.getByRole('status')).toContainText('Waiting for the operator')
  await expect(paidHeading(page)).toBeVisible({ timeout: 15_000 })
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
})

test('open amount: the payer enters it; empty and 0 are refused next to the field; "150,50" pays 150.50', async ({
  page,
}) => {
  const bill = await m.bill({ amount: { currency: 'RUB' } })
  await page.goto(bill.payUrl)
  const amount = page.getByLabel('Amount, RUB')
  await expect(amount).toBeVisible()
  await expect(page.getByTestId('bill-amount')).toHaveCount(0)

  await typeCard(page, '4111111111111111')
  await payButton(page).click()
  await expect(page.locator('#amount-error')).toHaveText('Fill in this field')
  await expect(amount).toHaveAttribute('aria-invalid', 'true')
  await expect(amount).toHaveAttribute('aria-describedby', /amount-error/)

  await amount.fill('0')
  await payButton(page).click()
  await expect(page.locator('#amount-error')).toHaveText('Enter an amount greater than 0, e.g. 150.00')
  expect((await m.details(bill.billId)).payments).toHaveLength(0)

  await amount.fill('150,50')
  await expect(page.locator('#amount-error')).toHaveCount(0)
  await payButton(page).click()
  await expect(paidHeading(page)).toBeVisible()

  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(d.payments).toHaveLength(1)
  expect(d.payments[0].status.value).toBe('COMPLETED')
  expect(d.payments[0].amount).toEqual(rub('150.50'))
  expect(d.payments[0].capturedAmount).toEqual(rub('150.50'))
})

test('expired bill: "This bill has expired", no card fields', async ({ page }) => {
  const bill = await m.bill()
  await sql('UPDATE "Bill" SET "expiresAt" = now() - interval \'1 second\' WHERE "billId" = $1', [bill.billId])
  await page.goto(bill.payUrl)
  await expect(page.getByRole('heading', { name: 'This bill has expired' })).toBeVisible()
  await expect(page.getByLabel('Card number')).toHaveCount(0)
  await expect(page.locator('input')).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0)
})

test('paid bill: "This bill is paid", no form', async ({ page }) => {
  const bill = await m.bill()
  const p = await m.api.put(`/payments/${randomUUID()}`, cardPayment({ billId: bill.billId, amount: rub('3.00') }))
  expect(p.body.status.value).toBe('COMPLETED')
  await page.goto(bill.payUrl)
  await expect(paidHeading(page)).toBeVisible()
  await expect(page.locator('form')).toHaveCount(0)
  await expect(page.locator('input')).toHaveCount(0)
})

test('unknown invoice: 404 and "Bill not found"; a malformed invoiceUid too', async ({ page }) => {
  for (const path of [`/pay/${randomUUID()}`, '/pay/not-a-uuid']) {
    const res = await page.goto(path)
    expect(res?.status(), path).toBe(404)
    await expect(page.getByRole('heading', { name: 'Bill not found' })).toBeVisible()
    await expect(page.locator('input')).toHaveCount(0)
  }
})

test('20 tabs pay the same bill at the same moment: one pays and goes to successUrl, the 19 others see the bill paid, none lands at failedUrl', async ({
  context,
}) => {
  const shop = await merchantWebSite()
  try {
    const bill = await m.bill({
      amount: rub('9.00'),
      successUrl: `${shop.origin}/ok`,
      failedUrl: `${shop.origin}/fail`,
    })
    const tabs = await Promise.all(Array.from({ length: 20 }, () => context.newPage()))
    for (const tab of tabs) {
      await tab.goto(bill.payUrl)
      await tab.getByLabel('Card number').fill('4111 1111 1111 1111')
      await tab.getByLabel('Expiry date (MM/YY)').fill('12/30')
      await tab.getByLabel('Security code (CVV)').fill('123')
    }
    await Promise.all(tabs.map((tab) => payButton(tab).click()))
    const endings = await Promise.all(
      tabs.map(async (tab) => {
        const thanks = tab.getByRole('heading', { name: 'Thank you for your order' })
        await expect(paidHeading(tab).or(thanks)).toBeVisible({ timeout: 30_000 })
        if (await thanks.isVisible()) return 'successUrl'
        // the bill's page: paid, with the way back to the merchant
        const back = tab.getByRole('link', { name: 'Return to the merchant' })
        await expect(back).toHaveAttribute('href', new RegExp(`^${shop.origin}/ok\\?billId=`))
        expect(new URL(tab.url()).pathname).toBe(`/pay/${bill.invoiceUid}`)
        return 'paid page'
      }),
    )
    expect(endings.filter((e) => e === 'successUrl')).toHaveLength(1)
    expect(endings.filter((e) => e === 'paid page')).toHaveLength(19)
    expect(shop.visits.filter((v) => v.path.startsWith('/fail'))).toHaveLength(0)

    const d = await m.details(bill.billId)
    expect(d.status.value).toBe('PAID')
    expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
    expect(d.payments[0].capturedAmount).toEqual(rub('9.00'))
    await Promise.all(tabs.map((tab) => tab.close()))
  } finally {
    await shop.close()
  }
})
