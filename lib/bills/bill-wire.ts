// The JSON of a bill (create response and details) and of a bill's payment.
import type { Bill, Payment } from '../generated/prisma/client'
import { wireAmount } from '../money/money'
import { billTime } from '../time/wire-time'
import { renderPayment } from '../payments/payment-wire'
import { settings } from '../config'
import { billState } from './bill-for-payment'

export const payUrlOf = (invoiceUid: string) => `${settings().publicBaseUrl}/pay/${invoiceUid}`

export function renderBill(b: Bill, now = new Date()) {
  const state = billState(b, now)
  return {
    siteId: b.siteId,
    billId: b.billId,
    invoiceUid: b.invoiceUid,
    amount: b.amountMinor === null ? { currency: b.currency } : wireAmount(b.amountMinor, b.currency),
    flags: b.flags,
    status: {
      value: state,
      // an expired bill changed when its deadline passed
      changedDateTime: billTime(state === 'EXPIRED' ? b.expiresAt : b.statusChangedAt),
    },
    ...(b.comment ? { comment: b.comment } : {}),
    creationDateTime: billTime(b.createdAt),
    expirationDateTime: billTime(b.expiresAt),
    payUrl: payUrlOf(b.invoiceUid),
    ...(b.customer ? { customer: b.customer } : {}),
    ...(b.recurrent ? { recurrent: b.recurrent } : {}),
    ...(b.successUrl ? { successUrl: b.successUrl } : {}),
    ...(b.failedUrl ? { failedUrl: b.failedUrl } : {}),
    ...(b.customFields ? { customFields: b.customFields } : {}),
  }
}

/** an element of `payments` (details, with siteId) and of the bill payment list (without): the payment's JSON without what only its own answers carry */
export function renderBillPayment(p: Payment, withSite: boolean) {
  const { createdToken: _token, requirements: _requirements, ...payment } = renderPayment(p) as ReturnType<typeof renderPayment> & {
    createdToken?: unknown
    requirements?: unknown
  }
  return { ...(withSite ? { siteId: p.siteId } : {}), ...payment }
}
