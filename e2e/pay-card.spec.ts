// The payer pays a bill by card on its payUrl: one-step and two-step, 3-D Secure passed and failed,
// the one-time-code card, a decline sent to failedUrl. What the payer sees, where the browser lands,
// and what the merchant reads through the API afterwards.
import { expect, test } from '@playwright/test'
import { rub, uid } from '../tests/support/api.ts'
import { enterCode, failThreeDS, passThreeDS, payWithCard, TEST_CARDS } from './helpers/pay-page.ts'
import { merchant, merchantWebSite, outcomes, paidHeading, payButton } from './support.ts'

let m: Awaited<ReturnType<typeof merchant>>
let shop: Awaited<ReturnType<typeof merchantWebSite>>

test.beforeAll(async () => {
  m = await merchant('e2e-card')
  shop = await merchantWebSite()
})
test.afterAll(async () => {
  await shop?.close()
})

/** the browser is on the shop's page `path` with the bill's billId and invoiceUid appended */
function expectReturn(
  url: string,
  path: string,
  bill: { billId: string; invoiceUid: string },
  extra: Record<string, string> = {},
) {
  const u = new URL(url)
  expect(u.origin).toBe(shop.origin)
  expect(u.pathname).toBe(path)
  expect(u.searchParams.get('billId')).toBe(bill.billId)
  expect(u.searchParams.get('invoiceUid')).toBe(bill.invoiceUid)
  for (const [k, v] of Object.entries(extra)) expect(u.searchParams.get(k)).toBe(v)
}

test('approved one-step card → successUrl with billId and invoiceUid; the bill is PAID, captured in full', async ({
  page,
}) => {
  const bill = await m.bill({
    amount: rub('25.00'),
    successUrl: `${shop.origin}/ok?order=7`,
    failedUrl: `${shop.origin}/fail`,
  })
  await page.goto(bill.payUrl)
  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible()
  await expect(page.getByTestId('bill-amount')).toHaveText(/25\.00/)
  await expect(payButton(page)).toHaveText(/^Pay .*25\.00/)
  await expect(page.getByText('Text comment')).toBeVisible()
  await payWithCard(page, { card: TEST_CARDS.success })
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible()
  expectReturn(page.url(), '/ok', bill, { order: '7' })

  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(d.payments).toHaveLength(1)
  const p = d.payments[0]
  expect(p.status.value).toBe('COMPLETED')
  expect(p.amount).toEqual(rub('25.00'))
  expect(p.capturedAmount).toEqual(rub('25.00'))
  expect(p.paymentMethod).toMatchObject({
    type: 'CARD',
    maskedPan: '411111******1111',
    rrn: expect.stringMatching(/^\d{12}$/),
  })
  expect(p.flags).toEqual(['SALE'])
})

test('two-step bill: the card is authorised on the form, then captured through the API', async ({ page }) => {
  const bill = await m.bill({ amount: rub('40.00'), flags: [] })
  await page.goto(bill.payUrl)
  await payWithCard(page, { card: TEST_CARDS.successMastercard })
  await expect(paidHeading(page)).toBeVisible()

  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(d.payments).toHaveLength(1)
  const { paymentId } = d.payments[0]
  expect(d.payments[0].status.value).toBe('COMPLETED')
  expect(d.payments[0].capturedAmount).toEqual(rub('0.00'))

  const captureId = uid('cap')
  const c = await m.api.put(`/payments/${paymentId}/captures/${captureId}`, {})
  expect(c.status, c.text).toBe(200)
  expect(c.body.status.value).toBe('COMPLETED')
  expect(c.body.amount).toEqual(rub('40.00'))
  const after = await m.api.get(`/payments/${paymentId}`)
  expect(after.body.status.value).toBe('COMPLETED')
  expect(after.body.capturedAmount).toEqual(rub('40.00'))
})

test('3-D Secure passed, no successUrl: ACS page, "Pass authentication", back on the paid screen', async ({ page }) => {
  const bill = await m.bill({ amount: rub('12.00') })
  await page.goto(bill.payUrl)
  await payWithCard(page, { card: TEST_CARDS.threeDS })
  await expect(page.getByRole('heading', { name: /3-D Secure check/ })).toBeVisible()
  await expect(page.getByText('12.00 RUB')).toBeVisible()
  await passThreeDS(page)
  await expect(paidHeading(page)).toBeVisible()
  expect(new URL(page.url()).pathname).toBe(`/pay/${bill.invoiceUid}`)

  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
  expect(d.payments[0].capturedAmount).toEqual(rub('12.00'))
})

for (const [choice, answer, path, heading, outcome] of [
  ['Pass authentication', passThreeDS, '/ok', 'Thank you for your order', ['COMPLETED', null]],
  ['Fail authentication', failThreeDS, '/fail', 'Your payment failed', ['DECLINED', 'DECLINED_BY_MPI']],
] as const) {
  test(`3-D Secure with successUrl and failedUrl, "${choice}": the browser comes back to the shop's ${path}`, async ({
    page,
  }) => {
    const bill = await m.bill({ successUrl: `${shop.origin}/ok`, failedUrl: `${shop.origin}/fail` })
    // what the browser refuses on the way back (a Content-Security-Policy of a page in between)
    const refused: string[] = []
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) refused.push(msg.text())
    })
    await page.goto(bill.payUrl)
    await payWithCard(page, { card: TEST_CARDS.threeDS })
    // the way back from the bank's page, given 5 s: a browser held up on it says why (the refusals above)
    page.setDefaultNavigationTimeout(5_000)
    const stuck = await answer(page).then(
      () => (new URL(page.url()).origin === shop.origin ? '' : `landed on ${page.url()}`),
      (e: Error) => `${e.message.split('\n')[0]}; still on ${page.url()}`,
    )
    expect(stuck, `the browser did not reach the shop ${refused.join(' | ')}`).toBe('')
    await expect(page.getByRole('heading', { name: heading })).toBeVisible()
    expectReturn(page.url(), path, bill)
    const d = await m.details(bill.billId)
    expect(d.status.value).toBe(outcome[0] === 'COMPLETED' ? 'PAID' : 'CREATED')
    expect(outcomes(d.payments)).toEqual([outcome])
  })
}

test('3-D Secure failed, then another card succeeds: decline shown with the form, one DECLINED_BY_MPI and one COMPLETED', async ({
  page,
}) => {
  const bill = await m.bill()
  await page.goto(bill.payUrl)
  await payWithCard(page, { card: TEST_CARDS.threeDS })
  await failThreeDS(page)
  const declined = page.getByTestId('declined')
  await expect(declined).toBeVisible()
  await expect(declined).toHaveAttribute('role', 'alert')
  await expect(declined).toContainText('security check')
  await expect(page.getByLabel('Card number')).toBeVisible()

  await payWithCard(page, { card: TEST_CARDS.success })
  await expect(paidHeading(page)).toBeVisible()
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([
    ['COMPLETED', null],
    ['DECLINED', 'DECLINED_BY_MPI'],
  ])
})

test('one-time-code card: the code step, a wrong code leaves 2 attempts, 1234 completes', async ({ page }) => {
  const bill = await m.bill()
  await page.goto(bill.payUrl)
  await payWithCard(page, { card: TEST_CARDS.oneTimeCode })
  const code = page.getByLabel('Confirmation code')
  await expect(code).toBeVisible()
  await expect(code).toBeFocused()
  await enterCode(page, '9876')
  await expect(page.locator('#code-error')).toHaveText('Wrong code. Attempts left: 2')
  await expect(code).toHaveAttribute('aria-invalid', 'true')
  await enterCode(page, '1234')
  await expect(paidHeading(page)).toBeVisible()

  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('PAID')
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
})

test("declined card with failedUrl → the shop's failedUrl with billId and invoiceUid", async ({ page }) => {
  const bill = await m.bill({ successUrl: `${shop.origin}/ok`, failedUrl: `${shop.origin}/fail` })
  await page.goto(bill.payUrl)
  await payWithCard(page, { card: TEST_CARDS.declined })
  await expect(page.getByRole('heading', { name: 'Your payment failed' })).toBeVisible()
  expectReturn(page.url(), '/fail', bill)
  const d = await m.details(bill.billId)
  expect(d.status.value).toBe('CREATED')
  expect(outcomes(d.payments)).toEqual([['DECLINED', 'ACQUIRING_DECLINED']])
})

test("production's test card of month 03: the page says the bank is processing, then the bill is paid", async ({
  page,
}) => {
  const bill = await m.bill()
  await page.goto(bill.payUrl)
  // production's test card numbers: month 03 is approved 3 s after the payment
  await payWithCard(page, { card: '4256 0000 0000 0011', expiry: '03/40' })
  await expect(page.getByRole('status')).toHaveText('Your bank is processing the payment…')
  // the page asks for the payment's state each second; the answer comes 3 s after the payment
  await expect(paidHeading(page)).toBeVisible({ timeout: 15_000 })
  const d = await m.details(bill.billId)
  expect(outcomes(d.payments)).toEqual([['COMPLETED', null]])
})
