// Payments: create (idempotent per site and paymentId) and read. One transaction per operation.
import { billForPayment, markBillPaid } from '../bills/bill-for-payment'
import { issuePareq } from '../acquirer/three-ds'
import { settings } from '../config'
import { db, withRetry, type Tx } from '../db/client'
import type { Prisma } from '../generated/prisma/client'
import { notFound, requestConflict } from '../http/api-error'
import { fingerprint } from '../security/keyed-hash'
import { capturedOnApproval, isDue, lockPayment } from './payment-lifecycle'
import { resolveInstrument, type FirstAnswer } from './payment-instrument'
import type { PaymentRequest } from './payment-request'
import { recordToken } from './payment-tokens'
import { renderPayment, type PaymentWithBill } from './payment-wire'

export const withBill = { bill: { select: { billId: true } } } as const

/** Payment create (endpoint 1). An identical replay answers the payment as it is now; another request under the same id is a 409. */
export async function createPayment(siteId: string, paymentId: string, req: PaymentRequest) {
  const print = fingerprint('payment', req)
  const payment = await withRetry(async () => {
    const existing = await db().payment.findUnique({ where: { siteId_paymentId: { siteId, paymentId } }, select: { fingerprint: true } })
    if (existing) {
      if (existing.fingerprint !== print) throw requestConflict(`Payment ${paymentId}`)
      return findPayment(siteId, paymentId)
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
  const instrument = await resolveInstrument(tx, siteId, req, now)
  let answer: FirstAnswer = instrument.answer
  if (bill.state === 'PAID') answer = { kind: 'declined', reason: 'BILL_ALREADY_PAID' }
  else if (bill.state === 'EXPIRED') answer = { kind: 'declined', reason: 'BILL_EXPIRED' }

  const data: Prisma.PaymentUncheckedCreateInput = {
    siteId,
    paymentId,
    billRef: bill.id,
    fingerprint: print,
    methodType: instrument.methodType,
    maskedPan: instrument.maskedPan,
    flags: req.flags,
    currency,
    amountMinor,
    status: 'WAITING',
    statusChangedAt: now,
    createdAt: now,
    comment: req.comment,
    customer: req.customer,
    receipt: req.receipt,
    cardProfile: instrument.profile ? { ...instrument.profile } : undefined,
    recurrentMinAuthDay: req.flags.includes('RECURRENT_FIRST') ? req.recurrent!.minAuthDay : undefined,
    recurrentExpiry: req.flags.includes('RECURRENT_FIRST') ? req.recurrent!.expiryDate : undefined,
    seriesRef: instrument.seriesRef,
  }
  switch (answer.kind) {
    case 'approved':
      Object.assign(data, { status: 'COMPLETED', capturedMinor: capturedOnApproval({ flags: req.flags, methodType: instrument.methodType, amountMinor: BigInt(amountMinor) }) })
      break
    case 'declined':
      Object.assign(data, { status: 'DECLINED', statusReason: answer.reason })
      break
    case 'otp':
      Object.assign(data, { authFlow: 'OTP', requirements: { otp: answer.text } })
      break
    case 'operator':
      Object.assign(data, { authFlow: answer.decision, mobileDecisionAt: new Date(now.getTime() + settings().mobileOperatorDelayMs) })
      break
    case 'threeDS':
      data.authFlow = 'THREE_DS'
      break
  }
  let payment = await tx.payment.create({ data, include: withBill })
  if (answer.kind === 'threeDS')
    // the PaReq names the payment's internal id, known once the row exists
    payment = await tx.payment.update({
      where: { id: payment.id },
      data: { requirements: { threeDS: { pareq: issuePareq(payment.id), acsUrl: `${settings().publicBaseUrl}/acs` } } },
      include: withBill,
    })
  if (payment.status === 'COMPLETED') {
    await markBillPaid(tx, bill.id, now)
    await recordToken(tx, payment)
  }
  return payment
}

/** The payment as it is now: a change that fell due (3-D Secure timeout, operator answer) is applied first. */
export async function findPayment(siteId: string, paymentId: string): Promise<PaymentWithBill> {
  const p = await db().payment.findUnique({ where: { siteId_paymentId: { siteId, paymentId } }, include: withBill })
  if (!p) throw notFound('Payment')
  if (!isDue(p, new Date())) return p
  return withRetry(() =>
    db().$transaction(async (tx) => {
      const settled = await lockPayment(tx, siteId, paymentId)
      return { ...settled, bill: p.bill }
    }),
  )
}

export async function readPayment(siteId: string, paymentId: string) {
  return renderPayment(await findPayment(siteId, paymentId))
}
