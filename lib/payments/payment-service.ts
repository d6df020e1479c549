// Payments: create (idempotent per site and paymentId), read. One transaction per operation.
import { randomBytes } from 'node:crypto'
import { cardOutcome, maskPan, type CardOutcome } from '../acquirer/sandbox-acquirer'
import { billForPayment, markBillPaid } from '../bills/bill-for-payment'
import { settings } from '../config'
import { db, withRetry, type Tx } from '../db/client'
import { notFound, requestConflict } from '../http/api-error'
import { fingerprint } from '../security/fingerprint'
import type { PaymentRequest } from './payment-request'
import { renderPayment, type PaymentWithBill } from './payment-wire'

const withBill = { bill: { select: { billId: true } } } as const

/** Payment create (endpoint 1). An identical replay answers the payment as it is now; another request under the same id is a 409. */
export async function createPayment(siteId: string, paymentId: string, req: PaymentRequest) {
  const print = fingerprint('payment', req)
  const payment = await withRetry(async () => {
    const existing = await db().payment.findUnique({ where: { siteId_paymentId: { siteId, paymentId } }, include: withBill })
    if (existing) {
      if (existing.fingerprint !== print) throw requestConflict(`Payment ${paymentId}`)
      return existing
    }
    return db().$transaction((tx) => insertPayment(tx, siteId, paymentId, req, print))
  })
  return renderPayment(payment)
}

async function insertPayment(tx: Tx, siteId: string, paymentId: string, req: PaymentRequest, print: string): Promise<PaymentWithBill> {
  const now = new Date()
  const currency = req.amount.currency
  const amountMinor = req.amount.value
  const bill = await billForPayment(tx, siteId, { billId: req.billId, amountMinor, currency, flags: req.flags, comment: req.comment, customer: req.customer }, now)
  const method = req.paymentMethod
  let outcome: CardOutcome
  if (bill.state === 'PAID') outcome = { kind: 'declined', reason: 'BILL_ALREADY_PAID' }
  else if (bill.state === 'EXPIRED') outcome = { kind: 'declined', reason: 'BILL_EXPIRED' }
  else outcome = cardOutcome(method.pan, method.expiryDate, now)

  const completed = outcome.kind === 'approved'
  const payment = await tx.payment.create({
    data: {
      siteId,
      paymentId,
      billRef: bill.id,
      fingerprint: print,
      methodType: 'CARD',
      maskedPan: maskPan(method.pan),
      flags: req.flags,
      currency,
      amountMinor,
      capturedMinor: completed && req.flags.includes('SALE') ? amountMinor : 0,
      status: completed ? 'COMPLETED' : outcome.kind === 'declined' ? 'DECLINED' : 'WAITING',
      statusReason: outcome.kind === 'declined' ? outcome.reason : null,
      statusChangedAt: now,
      createdAt: now,
      comment: req.comment,
      customer: req.customer,
      receipt: req.receipt,
      requirements: requirementsFor(outcome),
    },
    include: withBill,
  })
  if (completed) await markBillPaid(tx, bill.id, now)
  return payment
}

function requirementsFor(outcome: CardOutcome) {
  if (outcome.kind === 'threeDS')
    return { threeDS: { pareq: randomBytes(24).toString('base64url'), acsUrl: `${settings().publicBaseUrl}/acs` } }
  if (outcome.kind === 'otp') return { otp: 'Enter the one-time code sent to the cardholder' }
  return undefined
}

export async function findPayment(siteId: string, paymentId: string): Promise<PaymentWithBill> {
  const p = await db().payment.findUnique({ where: { siteId_paymentId: { siteId, paymentId } }, include: withBill })
  if (!p) throw notFound('Payment')
  return p
}

export async function readPayment(siteId: string, paymentId: string) {
  return renderPayment(await findPayment(siteId, paymentId))
}
