// Payments: create (idempotent per site and paymentId) and read. One statement or one transaction per operation.
import { randomUUID } from 'node:crypto'
import {
  createImplicitBill,
  implicitBill,
  implicitBillInsert,
  lockNamedBill,
  markBillPaid,
  type BillState,
  type PaymentOnBill,
} from '../settlement/bill-for-payment'
import { ApiError, fieldError, notFound, requestConflict } from '../http/api-error'
import { ClockMoved, type DeferredAuth } from '../http/api-route'
import { notifyPayment, paymentNotificationInsert } from './payment-notify'
import { REAL_TIME, type SiteClock } from '../sandbox/site-clock'
import { siteClock } from '../sites/site-store'
import { siteWrite } from '../sandbox/site-write'
import { fingerprint } from '../security/keyed-hash'
import { recurrentExpiryProblem } from '../wire/common-schemas'
import { startFlow } from './flows'
import { capturedOnApproval, isDue, lockPayment, settleDueOnBill } from './payment-lifecycle'
import { directInstrument, resolveInstrument, type FirstAnswer, type Instrument } from './payment-instrument'
import type { PaymentRequest } from './payment-request'
import { issuesToken, recordToken } from './payment-tokens'
import {
  directPaymentCtes,
  insertPaymentRow,
  isUniqueViolation,
  paymentFingerprint,
  readPaymentRow,
  type JsonValue,
  type Payment,
  type Tx,
  withRetry,
} from './payment-store'
import { renderPayment } from './payment-wire'

/** A payment made on the payment page rather than through the API. */
export interface PageOrigin {
  /** SHA-256 of the attempt key the page is given: stored with the payment */
  attemptKeyHash: string
  /** the bill's site's sandbox clock */
  clock: SiteClock
  /** the payment page's URL, where a method that leaves the page (an SBP bank app) sends the payer back */
  payerReturnUrl?: string
  /**
   * called in the payment's transaction with its bill locked, before anything is written: throws to refuse the attempt
   */
  admit: (tx: Tx, bill: { id: string; state: BillState }, now: Date) => Promise<void>
}

/**
 * Payment create (endpoint 1). An identical replay answers the payment as it is now; another request under the same id
 * is a 409.
 * `auth`: the API's token check, left to this function (Endpoint.deferredAuth): made inside the one
 * statement of a direct payment, else first of all.
 */
export async function createPayment(
  siteId: string,
  paymentId: string,
  req: PaymentRequest,
  page?: PageOrigin,
  auth?: DeferredAuth,
) {
  const print = fingerprint('payment', req)
  // a series that has ended (on the site's clock, known once the token is checked) cannot start; an
  // identical replay of one started before still answers it
  if (req.recurrent) await auth?.check()
  const late = req.recurrent ? recurrentExpiryProblem(req.recurrent, await knownClock(siteId, page, auth)) : null
  if (late) {
    const existing = await paymentFingerprint(siteId, paymentId)
    if (existing?.fingerprint !== print) throw fieldError('recurrent.expiryDate', late)
    return readPayment(siteId, paymentId, await knownClock(siteId, page, auth))
  }
  const payment = await withRetry(async () => {
    try {
      // the common case first: a new payment
      return await insertPayment(siteId, paymentId, req, print, page, auth)
    } catch (e) {
      if (!isUniqueViolation(e)) throw e
      // the id exists (a replay, or a concurrent twin that committed first)
      const existing = await paymentFingerprint(siteId, paymentId)
      if (!existing) throw e // another key collided (a bill named by two new payments at once): try again
      if (existing.fingerprint !== print) throw requestConflict(`Payment ${paymentId}`)
      return findPayment(siteId, paymentId, await knownClock(siteId, page, auth))
    }
  })
  return renderPayment(payment)
}

/** the site's clock as far as it is known: the page's, the token check's once settled, else read */
async function knownClock(siteId: string, page?: PageOrigin, auth?: DeferredAuth): Promise<SiteClock> {
  if (page) return page.clock
  if (auth?.settled) return auth.clock
  return siteClock(siteId)
}

/**
 * A card or phone payment that names no bill needs nothing read or locked first: its implicit bill, the
 * payment and its notifications are written by one statement with the token check (atomic, one round
 * trip). Any other payment (a named bill, a token, a recurrent charge, a token to issue, one from the
 * payment page) is written in a transaction.
 */
async function insertPayment(
  siteId: string,
  paymentId: string,
  req: PaymentRequest,
  print: string,
  page?: PageOrigin,
  auth?: DeferredAuth,
): Promise<Payment> {
  if (auth && !auth.settled && !req.billId && !page) {
    // made on real time, the clock of nearly every site: the statement's gate holds it to that, and takes
    // the site's gate as every write of the site does (lib/sandbox/site-write.ts statementGate); ClockMoved
    // otherwise (another clock, or a reset or an advance under way), and it is made again with siteWrite
    const clock = REAL_TIME
    const now = clock.now()
    const direct = directInstrument(req, now)
    if (direct) {
      const onBill = paymentOnBill(req)
      const approved = direct.answer.kind === 'approved'
      const bill = implicitBill(onBill, now)
      const row = paymentRow(siteId, paymentId, req, print, direct, direct.answer, bill, now)
      if (!(approved && issuesToken(row))) {
        const notification = paymentNotificationInsert(row, true)
        const ctes = directPaymentCtes(implicitBillInsert(siteId, onBill, bill, approved, now, true), row, notification)
        try {
          const [payment] = await auth.write<Payment>(ctes, 'payment', clock)
          return payment
        } catch (e) {
          if (e instanceof ApiError) throw e
          // the site's clock runs ahead (or a sandbox reset or an advance is under way): the token is
          // checked, the payment is made on the site's clock below, once the reset or advance is done
          if (e instanceof ClockMoved) return insertPaymentBehindGate(siteId, paymentId, req, print, page)
          // the statement failed (most often: the id is taken, a replay) and wrote nothing: the token is
          // checked on its own, then the failure is handled as below
          await auth.check()
          throw e
        }
      }
    }
  }
  await auth?.check()
  return insertPaymentBehindGate(siteId, paymentId, req, print, page)
}

/**
 * the payment written in a transaction, as a write of the site (once: createPayment retries it), on the
 * site's clock, a sandbox reset of the site waiting for this write (or this write for it)
 */
const insertPaymentBehindGate = (
  siteId: string,
  paymentId: string,
  req: PaymentRequest,
  print: string,
  page?: PageOrigin,
): Promise<Payment> =>
  siteWrite(siteId, (tx, clock) => insertPaymentInTransaction(tx, siteId, paymentId, req, print, clock.now(), page), {
    attempts: 1,
  })

async function insertPaymentInTransaction(
  tx: Tx,
  siteId: string,
  paymentId: string,
  req: PaymentRequest,
  print: string,
  now: Date,
  page?: PageOrigin,
): Promise<Payment> {
  const onBill = paymentOnBill(req)
  if (onBill.billId) await settleDueOnBill(tx, { siteId, billId: onBill.billId }, now)
  const named = await lockNamedBill(tx, siteId, onBill, now)
  if (page) {
    if (!named) throw notFound('Bill')
    await page.admit(tx, named, now)
  }
  const instrument = await resolveInstrument(tx, siteId, req, now, page?.payerReturnUrl)
  let answer: FirstAnswer = instrument.answer
  if (named?.state === 'PAID') answer = { kind: 'declined', reason: 'BILL_ALREADY_PAID' }
  else if (named?.state === 'EXPIRED') answer = { kind: 'declined', reason: 'BILL_EXPIRED' }
  const approved = answer.kind === 'approved'
  const bill = named ?? (await createImplicitBill(tx, siteId, onBill, approved, now))
  const row = {
    ...paymentRow(siteId, paymentId, req, print, instrument, answer, bill, now),
    pageAttemptKey: page?.attemptKeyHash ?? null,
  }
  const payment = await insertPaymentRow(tx, row)
  if (approved) {
    if (named) await markBillPaid(tx, named.id, now)
    await recordToken(tx, payment)
  }
  await notifyPayment(tx, payment)
  return payment
}

const paymentOnBill = (req: PaymentRequest): PaymentOnBill => ({
  billId: req.billId,
  amountMinor: req.amount.value,
  currency: req.amount.currency,
  flags: req.flags,
  comment: req.comment,
  customer: req.customer,
})

/** a payment's customFields: its bill's, with the payment's own over them (its value wins for the same key) */
function mergedCustomFields(ofBill: JsonValue | undefined, own: Record<string, string> | undefined): JsonValue {
  if (!own) return ofBill ?? null
  return { ...((ofBill as Record<string, string> | null | undefined) ?? {}), ...own }
}

/** The new payment's row, every column, as the sandbox's first answer leaves it. */
export function paymentRow(
  siteId: string,
  paymentId: string,
  req: PaymentRequest,
  print: string,
  instrument: Instrument,
  answer: FirstAnswer,
  bill: { id: string; billId: string; customFields?: JsonValue; splits?: JsonValue; cheque?: JsonValue },
  now: Date,
): Payment {
  const id = instrument.paymentRef ?? randomUUID()
  const amountMinor = BigInt(req.amount.value)
  const firstOfSeries = req.flags.includes('RECURRENT_FIRST')
  const row: Payment = {
    id,
    siteId,
    paymentId,
    billRef: bill.id,
    billId: bill.billId,
    fingerprint: print,
    methodType: instrument.methodType,
    maskedPan: instrument.maskedPan ?? null,
    flags: req.flags,
    currency: req.amount.currency,
    amountMinor,
    capturedMinor: 0n,
    refundedMinor: 0n,
    pendingRefundMinor: 0n,
    reversed: false,
    reversedMinor: 0n,
    status: 'WAITING',
    statusReason: null,
    statusChangedAt: now,
    createdAt: now,
    comment: req.comment ?? null,
    customer: req.customer ?? null,
    receipt: req.receipt ?? null,
    requirements: null,
    authFlow: null,
    otpAttempts: 0,
    dueAt: null,
    holdDueAt: null,
    customFields: mergedCustomFields(bill.customFields, req.customFields),
    cardProfile: instrument.profile ? { ...instrument.profile } : null,
    recurrentMinAuthDay: firstOfSeries ? req.recurrent!.minAuthDay : null,
    recurrentExpiry: firstOfSeries ? req.recurrent!.expiryDate : null,
    seriesRef: instrument.seriesRef ?? null,
    callbackUrl: req.callbackUrl ?? null,
    pageAttemptKey: null,
    methodData: instrument.methodData ?? null,
    cardHolder: instrument.cardHolder ?? null,
    deviceData: req.deviceData ?? null,
    // its own shares, else its bill's (a payment on a bill pays the bill's amount: the same total)
    splits: req.paymentSplits ?? bill.splits ?? null,
    // its own receipt data, else its bill's
    cheque: req.cheque ?? bill.cheque ?? null,
  }
  switch (answer.kind) {
    case 'approved':
      return {
        ...row,
        status: 'COMPLETED',
        capturedMinor: capturedOnApproval({ flags: req.flags, methodType: instrument.methodType, amountMinor }),
      }
    case 'declined':
      return { ...row, status: 'DECLINED', statusReason: answer.reason }
    default:
      // the payer (or the operator) answers first: its flow says what the payment stores (lib/payments/flows)
      return { ...row, ...startFlow(answer, id, now) }
  }
}

/**
 * The payment as it is now on its site's `clock`: a change that fell due (3-D Secure timeout, operator
 * answer) is applied first. `preloaded`: its row as already read by paymentRowSql (null: none), else it is read here.
 */
export async function findPayment(
  siteId: string,
  paymentId: string,
  clock: SiteClock,
  preloaded?: Payment | null,
): Promise<Payment> {
  const p = preloaded !== undefined ? preloaded : await readPaymentRow(siteId, paymentId)
  if (!p) throw notFound('Payment')
  if (!isDue(p, clock.now())) return p
  // the due change applied as a write of the site, on its clock
  return siteWrite(siteId, (tx, clock) => lockPayment(tx, siteId, paymentId, clock.now()))
}

export async function readPayment(siteId: string, paymentId: string, clock: SiteClock, preloaded?: Payment | null) {
  return renderPayment(await findPayment(siteId, paymentId, clock, preloaded))
}
