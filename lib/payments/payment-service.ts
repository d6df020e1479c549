// Payments: create (idempotent per site and paymentId) and read. One transaction per operation.
import { randomUUID } from 'node:crypto'
import { createImplicitBill, lockNamedBill, markBillPaid } from '../bills/bill-for-payment'
import { issuePareq } from '../acquirer/three-ds'
import { settings } from '../config'
import { db, isUniqueViolation, withRetry, type Tx } from '../db/client'
import type { Payment, Prisma } from '../generated/prisma/client'
import { notFound, requestConflict } from '../http/api-error'
import { notifyPayment } from '../notifications/outbox'
import { fingerprint } from '../security/keyed-hash'
import { capturedOnApproval, isDue, lockPayment } from './payment-lifecycle'
import { resolveInstrument, type FirstAnswer } from './payment-instrument'
import type { PaymentRequest } from './payment-request'
import { recordToken } from './payment-tokens'
import { renderPayment } from './payment-wire'

/** Payment create (endpoint 1). An identical replay answers the payment as it is now; another request under the same id is a 409. */
export async function createPayment(siteId: string, paymentId: string, req: PaymentRequest) {
  const print = fingerprint('payment', req)
  const payment = await withRetry(async () => {
    try {
      // the common case first: a new payment, in one transaction
      return await db().$transaction((tx) => insertPayment(tx, siteId, paymentId, req, print))
    } catch (e) {
      if (!isUniqueViolation(e)) throw e
      // the id exists (a replay, or a concurrent twin that committed first)
      const existing = await db().payment.findUnique({ where: { siteId_paymentId: { siteId, paymentId } }, select: { fingerprint: true } })
      if (!existing) throw e // another key collided (a bill named by two new payments at once): try again
      if (existing.fingerprint !== print) throw requestConflict(`Payment ${paymentId}`)
      return findPayment(siteId, paymentId)
    }
  })
  return renderPayment(payment)
}

async function insertPayment(tx: Tx, siteId: string, paymentId: string, req: PaymentRequest, print: string): Promise<Payment> {
  const now = new Date()
  const currency = req.amount.currency
  const amountMinor = req.amount.value
  const onBill = { billId: req.billId, amountMinor, currency, flags: req.flags, comment: req.comment, customer: req.customer }
  const named = await lockNamedBill(tx, siteId, onBill, now)
  const instrument = await resolveInstrument(tx, siteId, req, now)
  let answer: FirstAnswer = instrument.answer
  if (named?.state === 'PAID') answer = { kind: 'declined', reason: 'BILL_ALREADY_PAID' }
  else if (named?.state === 'EXPIRED') answer = { kind: 'declined', reason: 'BILL_EXPIRED' }
  const approved = answer.kind === 'approved'
  const bill = named ?? (await createImplicitBill(tx, siteId, onBill, approved, now))

  const id = randomUUID()
  const data: Prisma.PaymentUncheckedCreateInput = {
    id,
    siteId,
    paymentId,
    billRef: bill.id,
    billId: bill.billId,
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
    callbackUrl: req.callbackUrl,
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
      // the PaReq names the payment's internal id
      Object.assign(data, { authFlow: 'THREE_DS', requirements: { threeDS: { pareq: issuePareq(id), acsUrl: `${settings().publicBaseUrl}/acs` } } })
      break
  }
  const payment = await tx.payment.create({ data })
  if (approved) {
    if (named) await markBillPaid(tx, named.id, now)
    await recordToken(tx, payment)
  }
  await notifyPayment(tx, payment)
  return payment
}

/** The payment as it is now: a change that fell due (3-D Secure timeout, operator answer) is applied first. */
export async function findPayment(siteId: string, paymentId: string): Promise<Payment> {
  // a plain statement: the hot read path, half the cost of the query builder's findUnique
  const [p] = await db().$queryRaw<Payment[]>`SELECT * FROM "Payment" WHERE "siteId" = ${siteId} AND "paymentId" = ${paymentId}`
  if (!p) throw notFound('Payment')
  if (!isDue(p, new Date())) return p
  return withRetry(() =>
    db().$transaction((tx) => lockPayment(tx, siteId, paymentId)),
  )
}

export async function readPayment(siteId: string, paymentId: string) {
  return renderPayment(await findPayment(siteId, paymentId))
}
