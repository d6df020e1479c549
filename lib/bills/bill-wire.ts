// The JSON of a bill (create response and details) and of a bill's payment.
import type { Bill, Payment } from '../generated/prisma/client'
import { wireAmount } from '../money/money'
import { billTime, paymentTime } from '../time/wire-time'
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
  }
}

/** an element of `payments` (details, with siteId) and of the bill payment list (without) */
export function renderBillPayment(p: Payment, withSite: boolean) {
  return {
    ...(withSite ? { siteId: p.siteId } : {}),
    paymentId: p.paymentId,
    billId: p.billId,
    createdDateTime: paymentTime(p.createdAt),
    amount: wireAmount(p.amountMinor, p.currency),
    capturedAmount: wireAmount(p.capturedMinor, p.currency),
    refundedAmount: wireAmount(p.refundedMinor, p.currency),
    paymentMethod: { type: p.methodType, ...(p.maskedPan && p.methodType === 'CARD' ? { maskedPan: p.maskedPan } : {}) },
    status: { value: p.status, changedDateTime: paymentTime(p.statusChangedAt), ...(p.statusReason ? { reason: p.statusReason } : {}) },
    ...(p.customer ? { customer: p.customer } : {}),
    ...(p.comment ? { comment: p.comment } : {}),
    flags: p.flags,
  }
}
