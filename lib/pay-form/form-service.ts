// What the payment page does on the server: a payer's attempt becomes a payment on the bill through
// the same schema and createPayment the API uses (with a service-generated paymentId and the bill's
// flags), the code and 3-D Secure steps go through the same completePayment, and every answer says
// what the page does next.
import { randomUUID } from 'node:crypto'
import type { Bill } from '../generated/prisma/client'
import { billState } from '../bills/bill-for-payment'
import { settings } from '../config'
import { db } from '../db/client'
import { ApiError, notFound, validationError } from '../http/api-error'
import { parse } from '../http/api-route'
import { formatValue, money } from '../money/money'
import { completePayment } from '../payments/complete-service'
import { paymentRequestSchema } from '../payments/payment-request'
import { createPayment, readPayment } from '../payments/payment-service'
import { payFormSchema } from './form-schema'

export type NextStep =
  | { kind: 'redirect'; url: string }
  | { kind: 'threeDS'; acsUrl: string; pareq: string; md: string; termUrl: string }
  | { kind: 'otp'; paymentId: string; text: string }
  | { kind: 'wait'; paymentId: string }
  | { kind: 'declined'; reason: string }

type WirePayment = Awaited<ReturnType<typeof readPayment>>

/** Bills whose payments must issue a token or start a series are paid by card only. */
export const mobileAllowed = (bill: Pick<Bill, 'flags'>) => !bill.flags.includes('BIND_PAYMENT_TOKEN') && !bill.flags.includes('RECURRENT_FIRST')

/** a return URL with billId and invoiceUid appended */
export function returnUrl(base: string, bill: Pick<Bill, 'billId' | 'invoiceUid'>): string {
  const url = new URL(base)
  url.searchParams.append('billId', bill.billId)
  url.searchParams.append('invoiceUid', bill.invoiceUid)
  return url.href
}

const pagePath = (bill: Pick<Bill, 'invoiceUid'>, query = '') => `/pay/${bill.invoiceUid}${query}`

function nextStep(bill: Bill, p: WirePayment): NextStep {
  if (p.status.value === 'COMPLETED') return { kind: 'redirect', url: bill.successUrl ? returnUrl(bill.successUrl, bill) : pagePath(bill) }
  if (p.status.value === 'DECLINED')
    return bill.failedUrl ? { kind: 'redirect', url: returnUrl(bill.failedUrl, bill) } : { kind: 'declined', reason: p.status.reason ?? 'other' }
  const req = p.requirements as { threeDS?: { pareq: string; acsUrl: string }; otp?: string } | undefined
  if (req?.threeDS)
    return {
      kind: 'threeDS',
      acsUrl: req.threeDS.acsUrl,
      pareq: req.threeDS.pareq,
      md: p.paymentId,
      termUrl: `${settings().publicBaseUrl}${pagePath(bill, '/3ds-return')}`,
    }
  if (req?.otp) return { kind: 'otp', paymentId: p.paymentId, text: req.otp }
  return { kind: 'wait', paymentId: p.paymentId }
}

async function billOf(invoiceUid: string): Promise<Bill> {
  const bill = await db().bill.findUnique({ where: { invoiceUid } })
  if (!bill) throw notFound('Bill')
  return bill
}

/** the payer's payment on this bill, or 404 */
async function attemptOf(bill: Bill, paymentId: string): Promise<void> {
  const p = await db().payment.findFirst({ where: { billRef: bill.id, paymentId }, select: { id: true } })
  if (!p) throw notFound('Payment')
}

export async function startAttempt(invoiceUid: string, input: unknown): Promise<NextStep> {
  const bill = await billOf(invoiceUid)
  const form = parse(payFormSchema({ openAmount: bill.amountMinor === null }), input)
  if (form.method === 'mobile' && !mobileAllowed(bill)) throw validationError({ method: ['mobile.unavailable'] })
  const amountMinor = bill.amountMinor ?? form.amountMinor
  if (amountMinor === undefined) throw validationError({ amount: ['required'] })
  const customer = bill.customer ? { ...(bill.customer as Record<string, unknown>), ip: undefined } : undefined
  const request = parse(paymentRequestSchema, {
    paymentMethod: form.method === 'card' ? { type: 'CARD', pan: form.pan, expiryDate: form.expiry, cvv2: form.cvv } : { type: 'MOBILE', phone: form.phone },
    amount: { value: formatValue(money(amountMinor, bill.currency)), currency: bill.currency },
    flags: bill.flags,
    customer,
    billId: bill.billId,
    recurrent: bill.recurrent ?? undefined,
    comment: bill.comment ?? undefined,
  })
  return nextStep(bill, await createPayment(bill.siteId, randomUUID(), request))
}

export async function submitCode(invoiceUid: string, paymentId: string, code: string): Promise<NextStep> {
  const bill = await billOf(invoiceUid)
  await attemptOf(bill, paymentId)
  try {
    return nextStep(bill, await completePayment(bill.siteId, paymentId, { otp: { code } }))
  } catch (e) {
    // a wrong code: the field error names the attempts left
    if (e instanceof ApiError && e.cause?.['otp.code']) {
      const left = /(\d+) attempts? left/.exec(e.cause['otp.code'][0])?.[1]
      throw validationError({ code: [left ? `code.wrong:${left}` : 'code.invalid'] })
    }
    if (e instanceof ApiError && e.status === 409) return nextStep(bill, await readPayment(bill.siteId, paymentId))
    throw e
  }
}

export async function attemptStatus(invoiceUid: string, paymentId: string): Promise<NextStep> {
  const bill = await billOf(invoiceUid)
  await attemptOf(bill, paymentId)
  return nextStep(bill, await readPayment(bill.siteId, paymentId))
}

/** TermUrl: the PaRes the access-control page posted back; answers where the payer's browser goes */
export async function threeDSReturn(invoiceUid: string, pares: string, paymentId: string): Promise<string> {
  const bill = await billOf(invoiceUid)
  await attemptOf(bill, paymentId)
  let step: NextStep
  try {
    step = nextStep(bill, await completePayment(bill.siteId, paymentId, { threeDS: { pares } }))
  } catch (e) {
    if (!(e instanceof ApiError) || e.status >= 500) throw e
    step = nextStep(bill, await readPayment(bill.siteId, paymentId))
  }
  if (step.kind === 'redirect') return step.url
  return pagePath(bill, step.kind === 'declined' ? `?declined=${encodeURIComponent(paymentId)}` : '')
}

export interface PageState {
  bill: Bill
  state: 'CREATED' | 'PAID' | 'EXPIRED'
  /** the reason of the payer's declined attempt shown on the page (after a 3-D Secure return) */
  declinedReason?: string
}

export async function pageState(invoiceUid: string, declinedPaymentId?: string): Promise<PageState | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(invoiceUid)) return null
  const { loadBill } = await import('../bills/bill-service')
  const loaded = await loadBill({ invoiceUid: invoiceUid.toLowerCase() })
  if (!loaded) return null
  const declined = declinedPaymentId ? loaded.payments.find((p) => p.paymentId === declinedPaymentId && p.status === 'DECLINED') : undefined
  return { bill: loaded.bill, state: billState(loaded.bill, new Date()), declinedReason: declined?.statusReason ?? undefined }
}
