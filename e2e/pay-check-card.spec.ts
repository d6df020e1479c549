// A CHECK_CARD bill's payment page verifies the payer's card without charging it: card fields only, "Verify card",
// 3-D Secure when the card asks, then the outcome; the merchant reads the verification through the API under the
// bill's billId (GET …/validation/card/requests/{billId}), with the token a BIND_PAYMENT_TOKEN bill asks for.
import { expect, test, type Page } from '@playwright/test'
import { fromNow, DAY_MS } from '../tests/support/api.ts'
import { passThreeDS, TEST_CARDS } from './helpers/pay-page.ts'
import { merchant } from './support.ts'

let m: Awaited<ReturnType<typeof merchant>>

test.beforeAll(async () => {
  m = await merchant('e2e-check')
})

/** a CHECK_CARD bill as production's example makes it: no amount, a customer account, a token asked for */
async function checkBill(flags = ['CHECK_CARD', 'BIND_PAYMENT_TOKEN']) {
  const billId = `check-${crypto.randomUUID()}`
  const r = await m.api.put(`/bills/${billId}`, {
    expirationDateTime: fromNow(DAY_MS),
    customer: { account: 'payer-42' },
    flags,
  })
  expect(r.status, r.text).toBe(200)
  expect(r.body.amount).toEqual({ value: '0.00', currency: 'RUB' })
  return r.body as { billId: string; invoiceUid: string; payUrl: string }
}

const expiry = `12/${String((new Date().getFullYear() + 11) % 100).padStart(2, '0')}`

async function verify(page: Page, pan: string) {
  await expect(page.getByRole('heading', { name: 'Card verification' })).toBeVisible()
  // the card alone: no choice of method, no amount
  await expect(page.getByRole('radio')).toHaveCount(0)
  await expect(page.getByTestId('bill-amount')).toHaveCount(0)
  await page.getByLabel(/^Card number/).fill(pan)
  await page.getByLabel(/^Expiry date/).fill(expiry)
  await page.getByLabel(/^Security code/).fill('123')
  await page.getByRole('button', { name: 'Verify card' }).click()
}

test('an approved card: verified without a charge; the bill is PAID, the verification valid with its token', async ({
  page,
  browser,
}) => {
  const bill = await checkBill()
  await page.goto(bill.payUrl)
  await verify(page, TEST_CARDS.success)
  await expect(page.getByRole('heading', { name: 'Your card is verified' })).toBeVisible()
  await expect(page.getByText('411111******1111')).toBeVisible()

  const check = await m.api.get(`/validation/card/requests/${bill.billId}`)
  expect(check.status, check.text).toBe(200)
  expect(check.body).toMatchObject({ status: 'SUCCESS', isValidCard: true, threeDsStatus: 'WITHOUT' })
  expect(check.body.createdToken).toMatchObject({ name: '411111******1111', account: 'payer-42' })
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(d.payments).toHaveLength(0)
  // the token pays for the account
  const paid = await m.api.put(`/payments/pay-${crypto.randomUUID()}`, {
    paymentMethod: { type: 'TOKEN', paymentToken: check.body.createdToken.token },
    amount: { value: '5.00', currency: 'RUB' },
    flags: ['SALE'],
    customer: { account: 'payer-42' },
  })
  expect(paid.body.status.value, paid.text).toBe('COMPLETED')
  // opened again, at production's payUrl shape, in Russian: the page shows the outcome
  const ru = await browser.newContext({ locale: 'ru-RU' })
  const again = await ru.newPage()
  await again.goto(new URL(`/validation/card?invoiceUid=${bill.invoiceUid}`, bill.payUrl).href)
  await expect(again.getByRole('heading', { name: 'Карта проверена' })).toBeVisible()
  expect(new URL(again.url()).pathname).toBe(`/pay/${bill.invoiceUid}`)
  await ru.close()
})

test('the 3-D Secure card: the bank page, "Pass authentication", back on the outcome; a declining card', async ({
  page,
}) => {
  const bill = await checkBill(['CHECK_CARD'])
  await page.goto(bill.payUrl)
  await verify(page, TEST_CARDS.threeDS)
  await expect(page.getByRole('heading', { name: /3-D Secure check/ })).toBeVisible()
  await passThreeDS(page)
  await expect(page.getByRole('heading', { name: 'Your card is verified' })).toBeVisible()
  expect(new URL(page.url()).pathname).toBe(`/pay/${bill.invoiceUid}`)
  const check = await m.api.get(`/validation/card/requests/${bill.billId}`)
  expect(check.body).toMatchObject({ status: 'SUCCESS', isValidCard: true, threeDsStatus: 'PASSED' })
  expect(check.body.createdToken).toBeUndefined()

  const declining = await checkBill()
  await page.goto(declining.payUrl)
  await verify(page, TEST_CARDS.declined)
  await expect(page.getByRole('heading', { name: 'The card could not be verified' })).toBeVisible()
  const no = await m.api.get(`/validation/card/requests/${declining.billId}`)
  expect(no.body).toMatchObject({ status: 'SUCCESS', isValidCard: false })
  expect((await m.details(declining.billId)).status.value).toBe('CREATED')
})
