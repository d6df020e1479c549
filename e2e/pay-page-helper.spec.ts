// A shop's checkout written as a merchant writes it in their own suite: the bill is created through the API,
// and the payer's moves on the payment page are ONLY the helper module's (e2e/helpers/pay-page.ts, the file
// merchants copy). What is checked is what the shop checks: where the browser lands, and the bill and its
// payment read through the API.
import { expect, test } from '@playwright/test'
import { rub } from '../tests/support/api.ts'
import {
  enterCode,
  failThreeDS,
  passThreeDS,
  payFromMobile,
  payWithCard,
  TEST_CARDS,
  TEST_CODE,
  TEST_PHONES,
} from './helpers/pay-page.ts'
import { merchant, merchantWebSite, outcomes } from './support.ts'

let m: Awaited<ReturnType<typeof merchant>>
let shop: Awaited<ReturnType<typeof merchantWebSite>>

test.beforeAll(async () => {
  m = await merchant('e2e-helper')
  shop = await merchantWebSite()
})
test.afterAll(async () => {
  await shop?.close()
})

/** a bill of the shop's order, with the shop's return pages */
const checkout = (over: Record<string, unknown> = {}) =>
  m.bill({ successUrl: `${shop.origin}/ok?order=42`, failedUrl: `${shop.origin}/fail?order=42`, ...over })

/** the browser is on the shop's page `path`, for this bill */
function expectOnShop(url: string, path: string, bill: { billId: string; invoiceUid: string }) {
  const u = new URL(url)
  expect(`${u.origin}${u.pathname}`).toBe(`${shop.origin}${path}`)
  expect(u.searchParams.get('order')).toBe('42')
  expect(u.searchParams.get('billId')).toBe(bill.billId)
  expect(u.searchParams.get('invoiceUid')).toBe(bill.invoiceUid)
}

test("checkout with a 3-D Secure card, passed: the payer is back on the shop's successUrl, the bill PAID", async ({
  page,
}) => {
  const bill = await checkout({ amount: rub('249.90') })
  await page.goto(bill.payUrl)
  await payWithCard(page, { card: TEST_CARDS.threeDS, expiry: '12/30', cvv: '321' })
  await expect(page.getByRole('heading', { name: /3-D Secure check/ })).toBeVisible()
  await passThreeDS(page)

  expectOnShop(page.url(), '/ok', bill)
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible()
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
  expect(d.payments[0].amount).toEqual(rub('249.90'))
  expect(d.payments[0].paymentMethod).toMatchObject({ type: 'CARD', maskedPan: '400000******3220' })
})

test("checkout with a 3-D Secure card, failed: the payer is on the shop's failedUrl, the bill still open", async ({
  page,
}) => {
  const bill = await checkout()
  await page.goto(bill.payUrl)
  await payWithCard(page, { card: TEST_CARDS.threeDS })
  await failThreeDS(page)

  expectOnShop(page.url(), '/fail', bill)
  await expect(page.getByRole('heading', { name: 'Your payment failed' })).toBeVisible()
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('CREATED')
  expect(outcomes(d.payments)).toEqual([['DECLINED', 'DECLINED_BY_MPI']])
})

test('checkout with a one-time-code card: a wrong code is said on the page, the right one lands on successUrl', async ({
  page,
}) => {
  const bill = await checkout()
  await page.goto(bill.payUrl)
  await payWithCard(page, { card: TEST_CARDS.oneTimeCode, expiry: '1230' })
  await expect(page.getByLabel('Confirmation code')).toBeVisible()
  await enterCode(page, '0000')
  await expect(page.getByRole('status')).toHaveText('Wrong code. Attempts left: 2')
  await enterCode(page, TEST_CODE)

  expectOnShop(page.url(), '/ok', bill)
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
})

test('checkout paid from a mobile balance with a code: successUrl, a MOBILE payment', async ({ page }) => {
  const bill = await checkout({ amount: rub('15.00') })
  await page.goto(bill.payUrl)
  await payFromMobile(page, TEST_PHONES.withCode)
  await enterCode(page)

  expectOnShop(page.url(), '/ok', bill)
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
  expect(d.payments[0].paymentMethod.type).toBe('MOBILE')
})

test('mobile balance the operator confirms: the page waits, then the payer lands on successUrl by itself', async ({
  page,
}) => {
  const bill = await checkout()
  await page.goto(bill.payUrl)
  await payFromMobile(page, TEST_PHONES.confirms)
  await expect(page.getByRole('status')).toContainText('Waiting for the operator')
  await page.waitForURL((u) => u.origin === shop.origin, { timeout: 20_000 })

  expectOnShop(page.url(), '/ok', bill)
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
})

test('a declined card: the payer lands on failedUrl; another card then pays the same bill', async ({ page }) => {
  const bill = await checkout()
  await page.goto(bill.payUrl)
  await payWithCard(page, { card: TEST_CARDS.insufficientFunds })
  expectOnShop(page.url(), '/fail', bill)

  await page.goto(bill.payUrl)
  await payWithCard(page, { card: TEST_CARDS.successMir })
  expectOnShop(page.url(), '/ok', bill)
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([
    ['COMPLETED', null],
    ['DECLINED', 'ACQUIRING_INSUFFICIENT_FUNDS'],
  ])
})

test('a bill without an amount: the payer enters it with the card; asked for none, payWithCard says the page wants one', async ({
  page,
}) => {
  const bill = await checkout({ amount: { currency: 'RUB' } })
  await page.goto(bill.payUrl)
  await expect(payWithCard(page, { card: TEST_CARDS.success })).rejects.toThrow(
    'this bill asks the payer for the amount',
  )
  await payWithCard(page, { card: TEST_CARDS.success, amount: '150.50' })

  expectOnShop(page.url(), '/ok', bill)
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(d.payments[0].amount).toEqual(rub('150.50'))
})

test("the page's refusals come out of the helper: an expired card, and a mobile payment of a card-only bill", async ({
  page,
}) => {
  const bill = await checkout({ flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customer: { account: 'acc-42' } })
  await page.goto(bill.payUrl)
  await expect(payWithCard(page, { card: TEST_CARDS.success, expiry: '01/20' })).rejects.toThrow(
    'Please correct the highlighted fields',
  )
  await expect(payFromMobile(page, TEST_PHONES.confirms)).rejects.toThrow('can be paid by card only')
  expect((await m.details(bill.billId)).payments).toEqual([])
})

test('the Russian page: a one-time-code card, paid with the same helper', async ({ browser }) => {
  const bill = await m.bill({ amount: rub('10.00') })
  const context = await browser.newContext({
    extraHTTPHeaders: { 'Accept-Language': 'ru-RU,ru;q=0.9' },
    locale: 'ru-RU',
  })
  try {
    const page = await context.newPage()
    await page.goto(bill.payUrl)
    await expect(page.getByRole('heading', { name: 'Оплата' })).toBeVisible()
    await payWithCard(page, { card: TEST_CARDS.oneTimeCode })
    await enterCode(page, '0000')
    await expect(page.getByRole('status')).toHaveText('Неверный код. Осталось попыток: 2')
    await enterCode(page)
    await expect(page.getByRole('heading', { name: 'Счёт оплачен' })).toBeVisible()
    const d = await m.details(bill.billId)
    expect(d.status.value).toBe('PAID')
    expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
  } finally {
    await context.close()
  }
})

test('the Russian page: 3-D Secure failed, no failedUrl: the form again with the decline, then paid with another card', async ({
  browser,
}) => {
  const bill = await m.bill()
  const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Language': 'ru' }, locale: 'ru-RU' })
  try {
    const page = await context.newPage()
    await page.goto(bill.payUrl)
    await payWithCard(page, { card: TEST_CARDS.threeDS })
    await failThreeDS(page)
    await expect(page.getByRole('alert')).toContainText('Проверка в вашем банке не пройдена.')
    await payWithCard(page, { card: TEST_CARDS.successMastercard })
    await expect(page.getByRole('heading', { name: 'Счёт оплачен' })).toBeVisible()
    const d = await m.details(bill.billId)
    expect(d.status.value).toBe('PAID')
    expect(outcomes(d.payments)).toEqual([
      ['COMPLETED', null],
      ['DECLINED', 'DECLINED_BY_MPI'],
    ])
  } finally {
    await context.close()
  }
})
