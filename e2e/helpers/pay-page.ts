// Driving the sandbox's hosted payment page (a bill's `payUrl`) from a Playwright test: card, 3-D Secure,
// one-time code and mobile balance, as a payer does it, by the page's labels and roles only.
//
// Using it in your own Playwright suite: copy this one file into your tests (e.g. `tests/helpers/pay-page.ts`)
// and import from it:
//
//   import { payWithCard, passThreeDS, TEST_CARDS } from './helpers/pay-page'
//
// It imports nothing but Playwright's types (written against @playwright/test 1.64), so it needs no other file.
// The page speaks English or Russian (by the browser's Accept-Language); every step here recognises both, so
// the same test runs in either. The emulated bank's 3-D Secure page is in English.
//
// Each step returns once the page has moved on (the next screen is shown, or the browser has left the page
// and the next one has loaded): the next line of a test can look at what the payer sees. The waits are those
// of Playwright's own (no fixed sleeps): they end with the test's timeout (or `actionTimeout` /
// `navigationTimeout` when your config sets them).
import type { Locator, Page, Request } from '@playwright/test'

/** Card numbers of the sandbox's emulated acquirer: each one's outcome is fixed (README "Test cards"). */
export const TEST_CARDS = {
  /** approved (Visa) */
  success: '4111111111111111',
  /** approved (Mastercard) */
  successMastercard: '5555555555554444',
  /** approved (Mir) */
  successMir: '2200000000000004',
  /** DECLINED `ACQUIRING_DECLINED` */
  declined: '4000000000000002',
  /** DECLINED `ACQUIRING_INSUFFICIENT_FUNDS` */
  insufficientFunds: '4000000000009995',
  /** DECLINED `ACQUIRING_EXPIRED_CARD` */
  expiredCard: '4000000000000069',
  /** DECLINED `ACQUIRING_INCORRECT_CVV` */
  incorrectCvv: '4000000000000127',
  /** DECLINED `TRY_AGAIN_LATER` */
  tryAgainLater: '4000000000000119',
  /** 3-D Secure challenge: after Pay the bank's page asks; pass or fail it with passThreeDS / failThreeDS */
  threeDS: '4000000000003220',
  /** a one-time code is asked after Pay: enter TEST_CODE with enterCode */
  oneTimeCode: '4000000000001000',
} as const

/** Mobile numbers of the emulated operator (payFromMobile). */
export const TEST_PHONES = {
  /** no code: the operator confirms after a few seconds and the payment completes */
  confirms: '79001230000',
  /** no code: the operator refuses (DECLINED `ACQUIRING_INSUFFICIENT_FUNDS`) */
  refuses: '79001230001',
  /** any other number: a one-time code is asked (enterCode) */
  withCode: '79001234567',
} as const

/** The sandbox's one-time code (the service's default setting): any other code is wrong. */
export const TEST_CODE = '1234'

// ---- what the page shows, in its two languages ----

const text = {
  payButton: /^(Pay|Оплатить)(\s|$)/,
  cardMethod: /^(Card|Карта)$/,
  mobileMethod: /^(Mobile balance|Баланс телефона)$/,
  cardNumber: /^(Card number|Номер карты)/,
  expiry: /^(Expiry date|Срок действия)/,
  cvv: /^(Security code|Код безопасности)/,
  phone: /^(Mobile phone number|Номер мобильного телефона)/,
  amount: /^(Amount|Сумма), [A-Z]{3}$/,
  code: /^(Confirmation code|Код подтверждения)/,
  confirm: /^(Confirm|Подтвердить)$/,
  paid: /^(This bill is paid|Счёт оплачен)$/,
  expired: /^(This bill has expired|Срок оплаты счёта истёк)$/,
  // the mobile operator's answer, or the bank's (production's test cards of months 03 and 04)
  waiting: /Waiting for the operator|Ждём ответа оператора|Your bank is processing|Банк обрабатывает/,
  correctFields: /^(Please correct the highlighted fields\.|Исправьте отмеченные поля\.)$/,
  somethingWrong: /^(Something went wrong\. Please try again\.|Что-то пошло не так\. Попробуйте ещё раз\.)$/,
  passThreeDS: 'Pass authentication',
  failThreeDS: 'Fail authentication',
}

const payButton = (page: Page) => page.getByRole('button', { name: text.payButton })
/** the page's refusal of what was typed, in its status line */
const correctFields = (page: Page) => page.getByRole('status').filter({ hasText: text.correctFields })
/** the page's alert when its request failed */
const somethingWrong = (page: Page) => page.getByRole('alert').filter({ hasText: text.somethingWrong })

// ---- the steps ----

export interface CardDetails {
  /** the card number, digits with or without spaces (see TEST_CARDS) */
  card: string
  /**
   * the expiry month as the payer types it: `MM/YY` with or without the slash (`'12/30'` or `'1230'`);
   * the page puts the slash in. Default: December, eleven years from now (beyond any sandbox clock advance).
   */
  expiry?: string
  /** 3 or 4 digits; any value passes in the sandbox. Default `'123'`. */
  cvv?: string
  /**
   * the amount, for a bill created without one (the page then asks the payer: "Amount, RUB"), e.g. `'150.00'`.
   * Leave it out for a bill with its amount (the page shows it and asks for none).
   */
  amount?: string
}

/**
 * Pays on the payment page by card: fills the card number, expiry and security code (and the amount when the
 * bill asks for one), then presses Pay.
 *
 * Expects: the payment form of a bill (the page at its `payUrl`) with its "Pay" button; when the page also
 * offers the mobile balance, the card is chosen first.
 *
 * Returns once the page has answered Pay, on whichever screen comes next:
 * - the merchant's `successUrl` / `failedUrl` (loaded), when the bill has them and the payment completed or
 *   was declined;
 * - the bank's 3-D Secure page ("3-D Secure check"; card `TEST_CARDS.threeDS`): go on with passThreeDS or
 *   failThreeDS;
 * - the code step ("Confirmation code"; card `TEST_CARDS.oneTimeCode`): go on with enterCode;
 * - the bank's wait ("Your bank is processing the payment…"; production's test cards of expiry month 03 or 04):
 *   the page moves on by itself 3 seconds after the payment, to the screens below;
 * - the page's own screens when the bill has no return addresses: "This bill is paid", or the form again with
 *   the decline said in an alert (the payer may try another card).
 *
 * Throws when the page does not take the details (a field marked wrong: "Please correct the highlighted
 * fields"), or when the bill asks for an amount and none was given.
 */
export async function payWithCard(page: Page, details: CardDetails): Promise<void> {
  await openForm(page, 'payWithCard', details.amount)
  const cardMethod = page.getByRole('radio', { name: text.cardMethod })
  if ((await cardMethod.count()) > 0) await cardMethod.check()
  await page.getByLabel(text.cardNumber).fill(details.card)
  await page.getByLabel(text.expiry).fill(details.expiry ?? defaultExpiry())
  await page.getByLabel(text.cvv).fill(details.cvv ?? '123')
  await pressAndWait(page, 'payWithCard', payButton(page), () => afterPay(page))
}

export interface MobileOptions {
  /** the amount, for a bill created without one (see CardDetails.amount) */
  amount?: string
}

/**
 * Pays on the payment page from a mobile balance: chooses "Mobile balance", fills the phone number (and the
 * amount when the bill asks for one), then presses Pay.
 *
 * Expects: the payment form of a bill that may be paid from a mobile balance (the page offers the choice
 * "Card" / "Mobile balance", or the phone number alone when the bill's billPaymentMethodsType lists MOBILE only;
 * bills that bind a card token or start a recurrent series are card only, and then this throws).
 *
 * Returns once the page has answered Pay, on whichever screen comes next (see TEST_PHONES):
 * - the code step ("Confirmation code"; most numbers): go on with enterCode;
 * - "Confirm the payment on your phone. Waiting for the operator…" (numbers ending 0000 or 0001): the payer
 *   does nothing more; within a few seconds the operator answers and the page moves on by itself, to the
 *   merchant's `successUrl` / `failedUrl` or the page's own paid / declined screen. Wait for that with
 *   e.g. `await page.waitForURL(...)` or `expect(...).toBeVisible({ timeout: 15_000 })`;
 * - the merchant's `failedUrl`, or the form with the decline said in an alert, when the payment was declined
 *   at once.
 *
 * Throws when the page does not take the number ("Please correct the highlighted fields").
 */
export async function payFromMobile(page: Page, phone: string, options: MobileOptions = {}): Promise<void> {
  await openForm(page, 'payFromMobile', options.amount)
  // a bill whose page offers the mobile balance alone shows its phone field with no choice of method
  const mobileMethod = page.getByRole('radio', { name: text.mobileMethod })
  if ((await mobileMethod.count()) > 0) await mobileMethod.check()
  else if ((await page.getByLabel(text.phone).count()) === 0)
    throw new Error('payFromMobile: this payment page offers no "Mobile balance": the bill can be paid by card only')
  await page.getByLabel(text.phone).fill(phone)
  await pressAndWait(page, 'payFromMobile', payButton(page), () => afterPay(page))
}

/**
 * Enters the one-time code on the code step and presses Confirm.
 *
 * Expects: the code step of the payment page ("Confirmation code"), shown after payWithCard with
 * `TEST_CARDS.oneTimeCode` or payFromMobile with a number that asks for a code.
 *
 * Returns once the page has answered the code:
 * - right code (`TEST_CODE`, the default): the merchant's `successUrl` (loaded), or the page's "This bill is
 *   paid" screen;
 * - a wrong code: still on the code step, which says so ("Wrong code. Attempts left: 2");
 * - the third wrong code: the payment is declined: the merchant's `failedUrl`, or the form again with the
 *   decline said in an alert.
 */
export async function enterCode(page: Page, code: string = TEST_CODE): Promise<void> {
  const field = page.getByLabel(text.code)
  await field.waitFor()
  await field.fill(code)
  await pressAndWait(page, 'enterCode', page.getByRole('button', { name: text.confirm }), () => afterCode(page))
}

/**
 * Passes the 3-D Secure challenge: presses "Pass authentication" on the bank's page.
 *
 * Expects: the emulated bank's "3-D Secure check" page, reached after payWithCard with `TEST_CARDS.threeDS`
 * (or your own checkout sending the payer to the payment's `acsUrl`).
 *
 * Returns once the browser has left the bank's pages and the next page has loaded: the merchant's
 * `successUrl`, or the payment page's "This bill is paid" (a bill without a `successUrl`); with your own
 * checkout, its `TermUrl`.
 */
export async function passThreeDS(page: Page): Promise<void> {
  await answerThreeDS(page, text.passThreeDS)
}

/**
 * Fails the 3-D Secure challenge: presses "Fail authentication" on the bank's page. The payment is then
 * DECLINED (`DECLINED_BY_MPI`).
 *
 * Expects: the emulated bank's "3-D Secure check" page (see passThreeDS).
 *
 * Returns once the browser has left the bank's pages and the next page has loaded: the merchant's
 * `failedUrl`, or the payment form again with the decline said in an alert ("The security check with your
 * bank did not pass"; a bill without a `failedUrl`); with your own checkout, its `TermUrl`.
 */
export async function failThreeDS(page: Page): Promise<void> {
  await answerThreeDS(page, text.failThreeDS)
}

// ---- how the steps wait ----

/** December, eleven years from now, as `MM/YY`: valid on any site's clock (an advance goes ten years ahead at most) */
function defaultExpiry(): string {
  return `12/${String((new Date().getFullYear() + 11) % 100).padStart(2, '0')}`
}

/** waits for the payment form, fills the amount when asked for */
async function openForm(page: Page, step: string, amount: string | undefined): Promise<void> {
  await payButton(page).waitFor()
  const amountField = page.getByLabel(text.amount)
  if (amount !== undefined) await amountField.fill(amount)
  else if ((await amountField.count()) > 0)
    throw new Error(`${step}: this bill asks the payer for the amount: pass { amount: '…' }`)
}

type Waits = Record<string, Promise<unknown>>

/** what may follow Pay on the payment page itself (besides leaving it) */
function afterPay(page: Page): Waits {
  return {
    ...billScreens(page),
    code: page.getByLabel(text.code).waitFor(),
    waiting: page.getByRole('status').filter({ hasText: text.waiting }).waitFor(),
    // a decline, or the bill paused after failed attempts
    alert: page.getByRole('alert').waitFor(),
  }
}

/** what may follow Confirm on the code step (besides leaving the page) */
function afterCode(page: Page): Waits {
  return {
    ...billScreens(page),
    // the code step's own message (a wrong code): the step stays on screen
    message: page.getByRole('status').filter({ hasText: /\S/ }).waitFor(),
    // the third wrong code: the form again, with the decline
    alert: page.getByRole('alert').waitFor(),
  }
}

/** the payment page's own screens of a bill that another attempt paid, or that expired meanwhile */
function billScreens(page: Page): Waits {
  return {
    paid: page.getByRole('heading', { name: text.paid }).waitFor(),
    expired: page.getByRole('heading', { name: text.expired }).waitFor(),
  }
}

/**
 * Presses the button and returns once the page has answered (its request to the service) and then the payer
 * sees what comes next: one of `next()` on the page, or another page loaded. The screens are looked for only
 * after the answer: what the page showed before it (an earlier decline, a wrong code) is gone by then.
 * Throws when the page refuses what was typed before sending anything, or says something went wrong.
 * (A refusal is recognised by its words on screen: right after one, call the step again only with details the
 * page takes, or reload the page first, else the earlier refusal still on screen ends the wait at once.)
 */
async function pressAndWait(page: Page, step: string, button: Locator, next: () => Waits): Promise<void> {
  const from = new URL(page.url())
  const refused = (): Waits => ({
    refused: correctFields(page).waitFor(),
    wrong: somethingWrong(page).waitFor(),
  })
  const sent = (r: Request) => r.method() === 'POST' && r.resourceType() === 'fetch'
  const answered = firstOf({
    response: page.waitForResponse((r) => sent(r.request())),
    failed: page.waitForEvent('requestfailed', sent),
  })
  await button.click()
  if ((await firstOf({ answered, ...refused() })) !== 'answered') throw await refusal(page, step)
  const left = page.waitForURL((u) => u.origin !== from.origin || u.pathname !== from.pathname)
  await firstOf({ left, ...next(), ...refused() }).catch((e: Error) => {
    throw new Error(`${step}: the payment page did not move on after its answer (still on ${page.url()}): ${e.message}`)
  })
  if ((await correctFields(page).isVisible()) || (await somethingWrong(page).isVisible()))
    throw await refusal(page, step)
}

async function refusal(page: Page, step: string): Promise<Error> {
  const said = await page
    .getByRole('status')
    .allInnerTexts()
    .catch(() => [])
  const alerts = await page
    .getByRole('alert')
    .allInnerTexts()
    .catch(() => [])
  const words = [...said, ...alerts].map((s) => s.trim()).filter(Boolean)
  return new Error(`${step}: the payment page did not take it: ${[...new Set(words)].join(' / ') || 'no message'}`)
}

/** on the bank's page: presses the choice, returns once a page other than the bank's has loaded */
async function answerThreeDS(page: Page, choice: string): Promise<void> {
  const button = page.getByRole('button', { name: choice, exact: true })
  await button.waitFor()
  const bank = new URL(page.url())
  // the choice is posted to the bank's own result page (under the challenge's address), which sends the
  // browser on to the merchant's TermUrl by itself
  const atBank = (u: URL) =>
    u.origin === bank.origin &&
    (u.pathname === bank.pathname || u.pathname.startsWith(`${bank.pathname.replace(/\/$/, '')}/`))
  await button.click()
  await page.waitForURL((u) => !atBank(u))
}

/** the name of the first of `waits` to resolve; rejects only when all of them reject (with the last error) */
function firstOf<K extends string>(waits: Record<K, Promise<unknown>>): Promise<K> {
  const keys = Object.keys(waits) as K[]
  return new Promise<K>((resolve, reject) => {
    let failed = 0
    for (const key of keys)
      waits[key].then(
        () => resolve(key),
        (e: unknown) => {
          if (++failed === keys.length) reject(e)
        },
      )
  })
}
