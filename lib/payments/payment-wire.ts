// The JSON of a payment, a capture and a refund, built in one place each.
import type { Capture, Payment, Refund } from '../generated/prisma/client'
import { wireAmount } from '../money/money'
import { paymentTime } from '../time/wire-time'
import { issuesToken, paymentTokenOf } from './payment-tokens'

function status(value: string, changedAt: Date, reason: string | null) {
  return { value, changedDateTime: paymentTime(changedAt), ...(reason ? { reason } : {}) }
}

export function renderPayment(p: Payment) {
  return {
    paymentId: p.paymentId,
    billId: p.billId,
    createdDateTime: paymentTime(p.createdAt),
    amount: wireAmount(p.amountMinor, p.currency),
    capturedAmount: wireAmount(p.capturedMinor, p.currency),
    refundedAmount: wireAmount(p.refundedMinor, p.currency),
    // a token payment answers its type alone
    paymentMethod: { type: p.methodType, ...(p.maskedPan && p.methodType === 'CARD' ? { maskedPan: p.maskedPan } : {}) },
    status: status(p.status, p.statusChangedAt, p.statusReason),
    ...(p.customer ? { customer: p.customer } : {}),
    ...(p.comment ? { comment: p.comment } : {}),
    flags: p.flags,
    ...(issuesToken(p) ? { createdToken: { token: paymentTokenOf(p.id), name: p.maskedPan } } : {}),
    ...(p.requirements && p.status === 'WAITING' ? { requirements: p.requirements } : {}),
  }
}

export function renderCapture(c: Capture) {
  return {
    captureId: c.captureId,
    createdDateTime: paymentTime(c.createdAt),
    amount: wireAmount(c.amountMinor, c.currency),
    status: status(c.status, c.statusChangedAt, c.statusReason),
  }
}

export function renderRefund(r: Refund) {
  return {
    refundId: r.refundId,
    createdDateTime: paymentTime(r.createdAt),
    amount: wireAmount(r.amountMinor, r.currency),
    status: status(r.status, r.statusChangedAt, r.statusReason),
    flags: r.flags,
  }
}
