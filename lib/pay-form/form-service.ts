// What the payment page does on the server: a payer's attempt becomes a payment on the bill through
// the same schema and createPayment the API uses (with a service-generated paymentId and the bill's
// flags), the code and 3-D Secure steps go through the same completePayment, and every answer says
// what the page does next.
// The page addresses its attempts by an attempt key (24 random bytes, only its SHA-256 stored), never
// by paymentId: the page's endpoints reach only the attempts the page made, and only with their key.
// A bill that is paid or expired takes no attempt (no payment is written); a payer whose attempt lost
// to another one that paid the bill is sent to the bill's page, which says it is paid, not to failedUrl.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { billState } from '../settlement/bill-for-payment'
import { billByInvoiceUid, billStatusNow, pageAttemptPayment, type Bill } from '../settlement/bill-store'
import { settings } from '../config'
import { cardCheckRequestSchema } from '../card-checks/card-check-request'
import {
  completeCardCheck,
  readCardCheckOfBill,
  requestUidTaken,
  verifyOnBill,
} from '../card-checks/card-check-service'
import { ApiError, notFound, validationError } from '../http/api-error'
import { parse } from '../http/api-route'
import { formatValue, money } from '../money/money'
import { completePayment } from '../payments/complete-service'
import { allowedWithFlags, methodOf } from '../payments/methods'
import { paymentRequestSchema } from '../payments/payment-request'
import { createPayment, readPayment } from '../payments/payment-service'
import { checkBillStreak, countClientAttempt } from './attempt-limits'
import { payFormSchema } from './form-schema'
import { payFormMethodOf, payFormMethods } from './methods'
import type { PayFormMethod } from './methods/pay-method'
import { clockOf, type SiteClock } from '../sandbox/site-clock'
import { frameOrigins } from '../sites/frame-origins'
import { pageQuery, type PageOptions } from './page-options'

export type NextStep =
  /** `outcome`: the attempt's own, when it paid or failed (the page tells its embedder before it leaves) */
  | { kind: 'redirect'; url: string; outcome?: 'PAID' | 'FAILED' }
  | { kind: 'threeDS'; acsUrl: string; pareq: string; md: string; termUrl: string }
  | { kind: 'otp'; attemptId: string; text: string }
  | { kind: 'wait'; attemptId: string; bankApp?: BankAppStep }
  | { kind: 'declined'; reason: string }

/** an SBP payment's wait: its QR code (a data: URL of the PNG) and the bank app's link the code stands for */
export interface BankAppStep {
  qr: string
  link: string
}

type WirePayment = Awaited<ReturnType<typeof readPayment>>

/** the registered method (lib/payments/methods) a page method pays with */
function paidWith(m: PayFormMethod) {
  const method = methodOf(m.type)
  if (!method) throw new Error(`payment page: its ${m.method} pays with ${m.type}, which is not registered`)
  return method
}

/**
 * what of a bill decides the methods its page offers: its flags, its currency (SBP pays roubles only) and its list of
 * methods (billPaymentMethodsType)
 */
type OfferingBill = Pick<Bill, 'flags' | 'currency'> & { paymentMethods?: string[] | null }

/** whether the bill's list of methods names the page's method (a bill without one lists every method) */
const listedOn = (bill: OfferingBill, m: PayFormMethod) =>
  !bill.paymentMethods?.length || bill.paymentMethods.includes(m.type)

/** whether the method pays in the bill's currency (a method without a list of currencies pays in any) */
const paysIn = (bill: OfferingBill, m: PayFormMethod) => paidWith(m).currencies?.includes(bill.currency) ?? true

/**
 * whether the page offers the method on this bill: one its list names (all when it has none) that pays in its
 * currency, and of those, when its payments must issue a token or start a series, only the methods that can (a card)
 */
export const offeredOn = (bill: OfferingBill, m: PayFormMethod) =>
  listedOn(bill, m) &&
  paysIn(bill, m) &&
  allowedWithFlags(paidWith(m), bill.flags) &&
  // a CHECK_CARD bill's page verifies a card: the card alone
  (!checksCard(bill) || m.type === 'CARD')

/** a bill whose page verifies a card without charging it (production's CHECK_CARD flag; lib/card-checks) */
export const checksCard = (bill: Pick<Bill, 'flags'>) => bill.flags.includes('CHECK_CARD')

/** the page's methods offered on this bill, in the order of its tabs (none: the page says it cannot be paid here) */
export const offeredMethods = (bill: OfferingBill) => payFormMethods.filter((m) => offeredOn(bill, m))

/** a return URL with billId and invoiceUid appended */
export function returnUrl(base: string, bill: Pick<Bill, 'billId' | 'invoiceUid'>): string {
  const url = new URL(base)
  url.searchParams.append('billId', bill.billId)
  url.searchParams.append('invoiceUid', bill.invoiceUid)
  return url.href
}

const pagePath = (bill: Pick<Bill, 'invoiceUid'>, query = '') => `/pay/${bill.invoiceUid}${query}`

/** where the payer goes after paying: the bill's successUrl, else the one its payUrl named (page-options.ts) */
const successUrlOf = (bill: Bill, o: PageOptions) => bill.successUrl ?? o.successUrl ?? null

/** a new attempt key, and what is stored of it */
function newAttemptKey(): { key: string; hash: string } {
  const key = randomBytes(24).toString('base64url')
  return { key, hash: attemptKeyHash(key) }
}

const attemptKeyHash = (key: string) => createHash('sha256').update(key).digest('hex')

/** the shape of an attempt key (another id is no attempt of the page) */
const ATTEMPT_KEY = /^[A-Za-z0-9_-]{32}$/

/** an attempt refused because the bill is paid or expired: the page shows the bill's state instead */
class BillClosed extends Error {}

async function nextStep(bill: Bill, p: WirePayment, attemptId: string, o: PageOptions = {}): Promise<NextStep> {
  const success = successUrlOf(bill, o)
  const paid: NextStep = {
    kind: 'redirect',
    url: success ? returnUrl(success, bill) : pagePath(bill, pageQuery(o)),
    outcome: 'PAID',
  }
  if (p.status.value === 'COMPLETED') return paid
  // an attempt declined or unfinished on a bill that another attempt paid (whatever this one's reason),
  // or that expired: the bill's own page says so, never failedUrl
  const closed = await closedNow(bill)
  if (closed) {
    // the payment was read before the bill: this very attempt may have paid the bill in between (the payer's bank
    // app, the operator), and then the payer goes on to successUrl as if the payment had been read after
    if (p.status.value === 'WAITING' && (await paidSince(bill, p.paymentId, closed))) return paid
    return { kind: 'redirect', url: pagePath(bill, pageQuery(o)) }
  }
  if (p.status.value === 'DECLINED')
    return bill.failedUrl
      ? { kind: 'redirect', url: returnUrl(bill.failedUrl, bill), outcome: 'FAILED' }
      : { kind: 'declined', reason: p.status.reason ?? 'other' }
  const req = p.requirements as
    | {
        threeDS?: { pareq: string; acsUrl: string }
        otp?: string
        sbp?: { image: { mediaType: string; content: string }; payload: string }
      }
    | undefined
  if (req?.threeDS)
    return {
      kind: 'threeDS',
      acsUrl: req.threeDS.acsUrl,
      pareq: req.threeDS.pareq,
      md: attemptId,
      termUrl: `${settings().publicBaseUrl}${pagePath(bill, `/3ds-return${pageQuery(o)}`)}`,
    }
  if (req?.otp) return { kind: 'otp', attemptId, text: req.otp }
  if (req?.sbp) {
    const { image, payload } = req.sbp
    return {
      kind: 'wait',
      attemptId,
      bankApp: { qr: `data:${image.mediaType};base64,${image.content}`, link: payload },
    }
  }
  return { kind: 'wait', attemptId }
}

/** whether the payment reads COMPLETED now (false when it is gone: a sandbox reset) */
async function paidSince(bill: Bill, paymentId: string, clock: SiteClock): Promise<boolean> {
  try {
    return (await readPayment(bill.siteId, paymentId, clock)).status.value === 'COMPLETED'
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return false
    throw e
  }
}

/**
 * whether the bill is paid or expired by now, its site's time (read again: another attempt may have paid it meanwhile):
 * then the site's clock (a bill gone, by a sandbox reset: closed, on the real clock), else null
 */
async function closedNow(bill: Bill): Promise<SiteClock | null> {
  const now = await billStatusNow(bill.id)
  if (!now) return clockOf(0)
  const clock = clockOf(now.siteOffsetMs)
  return billState(now, clock.now()) !== 'CREATED' ? clock : null
}

/** the bill behind the page, with its site's sandbox clock */
async function billOf(invoiceUid: string): Promise<{ bill: Bill; clock: SiteClock }> {
  const row = await billByInvoiceUid(invoiceUid)
  if (!row) throw notFound('Bill')
  const { siteOffsetMs, ...bill } = row
  return { bill, clock: clockOf(siteOffsetMs) }
}

/** the paymentId of the page's attempt on this bill with this key, or 404 */
async function attemptOf(bill: Bill, attemptId: string): Promise<string> {
  const p = ATTEMPT_KEY.test(attemptId) ? await pageAttemptPayment(bill.id, attemptKeyHash(attemptId)) : null
  if (!p) throw notFound('Payment')
  return p.paymentId
}

/**
 * the values a payer sent for a link's bill's fields they may change (lib/form-links: shown, not read-only), which
 * become the payment's customFields (over the bill's); undefined for every other bill, and anything else sent ignored
 */
function editedFields(bill: Bill, input: unknown): Record<string, string> | undefined {
  const shown = Array.isArray(bill.formFields) ? (bill.formFields as { name: string; readonly: boolean }[]) : []
  const sent = (input as { customFields?: unknown } | null)?.customFields
  if (!sent || typeof sent !== 'object') return undefined
  const edited = shown.flatMap((f) => {
    const v = (sent as Record<string, unknown>)[f.name]
    return !f.readonly && typeof v === 'string' && Object.hasOwn(sent, f.name) ? [[f.name, v] as const] : []
  })
  return edited.length ? Object.fromEntries(edited) : undefined
}

export async function startAttempt(
  invoiceUid: string,
  input: unknown,
  clientAddress: string,
  o: PageOptions = {},
): Promise<NextStep> {
  const { bill, clock } = await billOf(invoiceUid)
  if (billState(bill, clock.now()) !== 'CREATED') return { kind: 'redirect', url: pagePath(bill, pageQuery(o)) }
  const form = parse(payFormSchema({ openAmount: bill.amountMinor === null, clockOffsetMs: clock.offsetMs }), input)
  // the page's method the payer picked, and the registered method it pays with (lib/payments/methods)
  const pageMethod = payFormMethodOf(form.method)!
  // a method the bill's list leaves out, whatever its flags; then one its flags exclude
  if (!listedOn(bill, pageMethod)) throw validationError({ method: ['method.unavailable'] })
  if (!offeredOn(bill, pageMethod)) throw validationError({ method: [`${form.method}.unavailable`] })
  if (checksCard(bill)) {
    await countClientAttempt(clientAddress)
    return verifyCard(bill, pageMethod.paymentMethod(form as Record<string, string>))
  }
  const amountMinor = bill.amountMinor ?? form.amountMinor
  if (amountMinor === undefined) throw validationError({ amount: ['required'] })
  const customer = bill.customer ? { ...(bill.customer as Record<string, unknown>), ip: undefined } : undefined
  const request = parse(paymentRequestSchema, {
    paymentMethod: pageMethod.paymentMethod(form as Record<string, string>),
    amount: { value: formatValue(money(amountMinor, bill.currency)), currency: bill.currency },
    flags: bill.flags,
    customer,
    billId: bill.billId,
    recurrent: bill.recurrent ?? undefined,
    comment: bill.comment ?? undefined,
    customFields: editedFields(bill, input),
  })
  await countClientAttempt(clientAddress)
  const { key, hash } = newAttemptKey()
  try {
    const payment = await createPayment(bill.siteId, randomUUID(), request, {
      attemptKeyHash: hash,
      clock,
      // where a bank app sends the payer back: the bill's page, which then shows the outcome
      payerReturnUrl: `${settings().publicBaseUrl}${pagePath(bill, pageQuery(o))}`,
      admit: async (tx, locked, now) => {
        if (locked.state !== 'CREATED') throw new BillClosed()
        await checkBillStreak(tx, locked.id, now)
      },
    })
    return await nextStep(bill, payment, key, o)
  } catch (e) {
    if (e instanceof BillClosed) return { kind: 'redirect', url: pagePath(bill, pageQuery(o)) }
    throw e
  }
}

export async function submitCode(
  invoiceUid: string,
  attemptId: string,
  code: string,
  o: PageOptions = {},
): Promise<NextStep> {
  const { bill, clock } = await billOf(invoiceUid)
  const paymentId = await attemptOf(bill, attemptId)
  // the bill was paid by another attempt (or expired) meanwhile: no code is counted, the page says why
  if (billState(bill, clock.now()) !== 'CREATED')
    return nextStep(bill, await readPayment(bill.siteId, paymentId, clock), attemptId, o)
  try {
    return await nextStep(bill, await completePayment(bill.siteId, paymentId, { otp: { code } }), attemptId, o)
  } catch (e) {
    // a wrong code: the field error names the attempts left
    if (e instanceof ApiError && e.cause?.['otp.code']) {
      const left = /(\d+) attempts? left/.exec(e.cause['otp.code'][0])?.[1]
      throw validationError({ code: [left ? `code.wrong:${left}` : 'code.invalid'] })
    }
    if (e instanceof ApiError && e.status === 409)
      return nextStep(bill, await readPayment(bill.siteId, paymentId, clock), attemptId, o)
    throw e
  }
}

export async function attemptStatus(invoiceUid: string, attemptId: string, o: PageOptions = {}): Promise<NextStep> {
  const { bill, clock } = await billOf(invoiceUid)
  const paymentId = await attemptOf(bill, attemptId)
  return nextStep(bill, await readPayment(bill.siteId, paymentId, clock), attemptId, o)
}

/** the MD of a CHECK_CARD bill's 3-D Secure step: its verification is the bill's own (requestUid: its billId) */
const CARD_CHECK_MD = 'card-check'

/** where a CHECK_CARD bill's payer goes once the verification ended: the return URL of its outcome, else its page */
function afterCheck(bill: Bill, valid: boolean): NextStep & { kind: 'redirect' } {
  const back = valid ? bill.successUrl : bill.failedUrl
  return { kind: 'redirect', url: back ? returnUrl(back, bill) : pagePath(bill), outcome: valid ? 'PAID' : 'FAILED' }
}

/**
 * where the 3-D Secure return sends the payer whose attempt ended at the merchant's URL: an embedder (a frame, the
 * checkout popup) hears the outcome from the page only, so a site that allows one gets the bill's page first, which
 * posts the outcome and forwards (`leave`: the attempt's key, or the card check's MD: the page finds the URL itself)
 */
async function leavingBy(bill: Bill, step: NextStep & { kind: 'redirect' }, leave: string, o: PageOptions = {}) {
  if (!step.outcome || step.url.startsWith('/')) return step.url
  return (await frameOrigins(bill.siteId))?.length ? pagePath(bill, pageQuery(o, { leave })) : step.url
}

/**
 * A CHECK_CARD bill's attempt: the card verified without charging it (lib/card-checks), once per bill. The same card
 * again while 3-D Secure is awaited goes back to the challenge; another card after the verification (a 409): the
 * page, which shows its outcome.
 */
async function verifyCard(bill: Bill, method: Record<string, unknown>): Promise<NextStep> {
  const { type: _type, ...card } = method
  const { cardData } = parse(cardCheckRequestSchema, { cardData: card })
  let check
  try {
    check = await verifyOnBill(bill, cardData)
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) return { kind: 'redirect', url: pagePath(bill) }
    throw e
  }
  if (check.status === 'WAITING_3DS' && check.requirements)
    return {
      kind: 'threeDS',
      acsUrl: check.requirements.acsUrl,
      pareq: check.requirements.pareq,
      md: CARD_CHECK_MD,
      termUrl: `${settings().publicBaseUrl}${pagePath(bill, '/3ds-return')}`,
    }
  return afterCheck(bill, check.isValidCard === true)
}

/**
 * TermUrl: the PaRes the access-control page posted back (MD: the attempt key); answers where the payer's browser goes
 */
export async function threeDSReturn(
  invoiceUid: string,
  pares: string,
  attemptId: string,
  o: PageOptions = {},
): Promise<string> {
  const { bill, clock } = await billOf(invoiceUid)
  if (checksCard(bill) && attemptId === CARD_CHECK_MD) {
    try {
      const step = afterCheck(bill, (await completeCardCheck(bill.siteId, bill.billId, { pares })).isValidCard === true)
      return await leavingBy(bill, step, CARD_CHECK_MD)
    } catch (e) {
      // a PaRes not of this verification, or one already ended: the page shows where it stands
      if (!(e instanceof ApiError) || e.status >= 500) throw e
      return pagePath(bill)
    }
  }
  const paymentId = await attemptOf(bill, attemptId)
  let step: NextStep
  try {
    step = await nextStep(bill, await completePayment(bill.siteId, paymentId, { threeDS: { pares } }), attemptId, o)
  } catch (e) {
    if (!(e instanceof ApiError) || e.status >= 500) throw e
    step = await nextStep(bill, await readPayment(bill.siteId, paymentId, clock), attemptId, o)
  }
  if (step.kind === 'redirect') return leavingBy(bill, step, attemptId, o)
  return pagePath(bill, pageQuery(o, step.kind === 'declined' ? { declined: attemptId } : {}))
}

export interface PageState {
  bill: Bill
  /** its site's sandbox clock */
  clock: SiteClock
  state: 'CREATED' | 'PAID' | 'EXPIRED'
  /** the reason of the payer's declined attempt shown on the page (after a 3-D Secure return) */
  declinedReason?: string
  /** a CHECK_CARD bill's verification, once its page made one */
  check?: { status: string; isValidCard: boolean | null; maskedPan: string }
  /** the outcome of the attempt the page forwards the payer after (`leave`), or the card check's (leaveChecked) */
  left?: 'PAID' | 'FAILED'
  leaveChecked?: boolean
  /** a CHECK_CARD bill whose billId a verification through the API already holds: the page cannot verify under it */
  checkTaken?: boolean
}

/**
 * `leave`: the page forwards the payer to the merchant's URL of this outcome, once it told its embedder (the 3-D Secure
 * return of a site that allows embedding, leavingBy): the attempt's key (its outcome, read here: the key is the proof)
 * or the card check's MD
 */
export async function pageState(
  invoiceUid: string,
  declinedAttemptId?: string,
  leave?: string,
): Promise<PageState | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(invoiceUid)) return null
  const { loadBill } = await import('../billing/bill-service')
  const loaded = await loadBill({ invoiceUid: invoiceUid.toLowerCase() })
  if (!loaded) return null
  const hashOf = (key?: string) => (key && ATTEMPT_KEY.test(key) ? attemptKeyHash(key) : undefined)
  const keyHash = hashOf(declinedAttemptId ?? leave)
  const declined = keyHash
    ? loaded.payments.find((p) => p.pageAttemptKey === keyHash && p.status === 'DECLINED')
    : undefined
  const leaveHash = hashOf(leave)
  const leaving = leaveHash ? loaded.payments.find((p) => p.pageAttemptKey === leaveHash) : undefined
  const left = leaving?.status === 'COMPLETED' ? 'PAID' : leaving?.status === 'DECLINED' ? 'FAILED' : undefined
  const check = checksCard(loaded.bill) ? await readCardCheckOfBill(loaded.bill.id) : null
  const checkTaken =
    checksCard(loaded.bill) && !check && (await requestUidTaken(loaded.bill.siteId, loaded.bill.billId))
  return {
    bill: loaded.bill,
    clock: loaded.clock,
    state: billState(loaded.bill, loaded.clock.now()),
    declinedReason: declined?.statusReason ?? undefined,
    ...(left && { left }),
    ...(leave === CARD_CHECK_MD && { leaveChecked: true }),
    ...(checkTaken && { checkTaken }),
    ...(check && { check: { status: check.status, isValidCard: check.isValidCard, maskedPan: check.maskedPan } }),
  }
}
