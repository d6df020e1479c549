// The body of a notification, in the production protocol's format (which differs from the API's answers
// on purpose: existing merchant integrations parse and verify it):
//   {"payment": {…}, "type": "PAYMENT", "version": "1"}   likewise capture/CAPTURE, refund/REFUND
// - status values SUCCESS / DECLINED (payments), SUCCESS / DECLINE (captures, refunds), with
//   reasonCode and reasonMessage on declines;
// - date-times `YYYY-MM-DDThh:mm:ss±hh:mm` (no fraction of a second), in the service time zone;
// - amount.value a JSON number written with two decimals (`60.50`);
// - flags: a payment's SALE (one-step) or AUTH (two-step); a refund's REVERSAL when it was one.
// Pure: rendered from the rows, written into the outbox with the status change it tells of.
import { cardInfoOf } from '../acquirer/card-info'
import type { CardProfile, DeclineReason } from '../acquirer/sandbox-acquirer'
import type { Capture, Payment, Refund } from '../generated/prisma/client'
import { RawNumber, stringifyJson } from '../http/json-text'
import { formatMinor } from '../money/money'
import { isOneStep } from '../payments/payment-rules'
import { issuesToken, paymentTokenOf } from '../payments/payment-tokens'
import { fingerprint } from '../security/keyed-hash'
import { formatLocalMidnight, notificationTime } from '../time/wire-time'

export type NotificationType = 'PAYMENT' | 'CAPTURE' | 'REFUND'

/** the body's key of each type's object, and the object's own id field */
export const OBJECT_KEY: Record<NotificationType, 'payment' | 'capture' | 'refund'> = { PAYMENT: 'payment', CAPTURE: 'capture', REFUND: 'refund' }
export const ID_FIELD: Record<NotificationType, 'paymentId' | 'captureId' | 'refundId'> = { PAYMENT: 'paymentId', CAPTURE: 'captureId', REFUND: 'refundId' }

/** for people reading a declined notification; reasonCode is the contract's code */
const REASON_MESSAGES: Record<DeclineReason, string> = {
  ACQUIRING_DECLINED: 'Declined by the issuer',
  ACQUIRING_INSUFFICIENT_FUNDS: 'Insufficient funds',
  ACQUIRING_EXPIRED_CARD: 'The card has expired',
  ACQUIRING_INCORRECT_CVV: 'Incorrect CVV',
  TRY_AGAIN_LATER: 'Temporary failure, try again later',
  DECLINED_BY_MPI: '3-D Secure authentication failed',
  PAYMENT_EXPIRED_3DS: '3-D Secure authentication was not completed in time',
  INVALID_OTP: 'Too many wrong one-time codes',
  INVALID_STATE: 'The payment does not allow this operation',
  INVALID_AMOUNT: 'The amount exceeds what the payment allows',
  BILL_ALREADY_PAID: 'The bill is already paid',
  BILL_EXPIRED: 'The bill has expired',
  REATTEMPT_NOT_PERMITTED: 'Too early for the next charge of the recurrent series',
  RECURRENT_EXPIRED: 'The recurrent series has expired',
}

/** `60.50`: a JSON number with two decimals */
const amountOf = (minor: bigint, currency: string) => ({ value: new RawNumber(formatMinor(minor)), currency })

function statusOf(status: string, changedAt: Date, reason: string | null, declined: 'DECLINED' | 'DECLINE') {
  const value = status === 'COMPLETED' ? 'SUCCESS' : status === 'DECLINED' ? declined : status
  return {
    value,
    changedDateTime: notificationTime(changedAt),
    ...(status === 'DECLINED' && reason ? { reasonCode: reason, reasonMessage: REASON_MESSAGES[reason as DeclineReason] ?? reason } : {}),
  }
}

/** sandbox retrieval reference number and authorisation code of an approved card payment: derived, so they repeat */
const digitsOf = (purpose: string, paymentRef: string, n: number) => (BigInt(`0x${fingerprint(purpose, paymentRef).slice(0, 15)}`) % 10n ** BigInt(n)).toString().padStart(n, '0')

/** paymentMethod and, for cards, paymentCardInfo: what the payment was paid with */
function instrumentOf(p: Payment) {
  const card = p.methodType !== 'MOBILE' && p.maskedPan ? p.maskedPan : null
  const approved = card !== null && p.status === 'COMPLETED'
  return {
    paymentMethod: {
      type: p.methodType,
      maskedPan: card,
      rrn: approved ? digitsOf('rrn', p.id, 12) : null,
      authCode: approved ? digitsOf('auth-code', p.id, 6) : null,
    },
    ...(card ? { paymentCardInfo: cardInfoOf(card) } : {}),
  }
}

/** what every object tells of its payment besides its own fields */
const aboutPayment = (p: Payment) => ({
  billId: p.billId,
  ...instrumentOf(p),
  customer: p.customer ?? {},
  customFields: p.customFields ?? {},
})

/**
 * The stored body holds this in place of the payment token (at rest the service keeps only a token's
 * hash); withPaymentToken fills it in when the body is sent or shown. No merchant value can write
 * `"tokenData":{` (customFields values are strings, customer keys are fixed), and tokenData is the
 * object's last field.
 */
const TOKEN_PLACEHOLDER = 'pt_(filled in when sent)'
const TOKEN_SLOT = `"tokenData":{"paymentToken":"${TOKEN_PLACEHOLDER}"`

function tokenDataOf(p: Payment) {
  if (!issuesToken(p)) return {}
  const card = p.cardProfile as unknown as CardProfile | null
  // the token lasts as long as its card: through the card's expiry month
  const lastDay = card ? new Date(Date.UTC(card.year, card.month, 0)).getUTCDate() : null
  return { tokenData: { paymentToken: TOKEN_PLACEHOLDER, expiredDate: card && lastDay ? formatLocalMidnight(card.year, card.month, lastDay) : null } }
}

/** the body as posted: a PAYMENT notification's token slot filled in with the token of its payment */
export function withPaymentToken(body: string, type: string, paymentRef: string): string {
  const at = type === 'PAYMENT' ? body.lastIndexOf(TOKEN_SLOT) : -1
  return at < 0 ? body : `${body.slice(0, at)}"tokenData":{"paymentToken":${JSON.stringify(paymentTokenOf(paymentRef))}${body.slice(at + TOKEN_SLOT.length)}`
}

const envelope = (type: NotificationType, object: Record<string, unknown>) => stringifyJson({ [OBJECT_KEY[type]]: object, type, version: '1' })

export function paymentNotificationBody(p: Payment): string {
  return envelope('PAYMENT', {
    type: 'PAYMENT',
    paymentId: p.paymentId,
    createdDateTime: notificationTime(p.createdAt),
    amount: amountOf(p.amountMinor, p.currency),
    status: statusOf(p.status, p.statusChangedAt, p.statusReason, 'DECLINED'),
    ...aboutPayment(p),
    flags: [isOneStep(p) ? 'SALE' : 'AUTH'],
    ...tokenDataOf(p),
  })
}

export function captureNotificationBody(c: Capture, p: Payment): string {
  return envelope('CAPTURE', {
    type: 'CAPTURE',
    captureId: c.captureId,
    paymentId: p.paymentId,
    createdDateTime: notificationTime(c.createdAt),
    amount: amountOf(c.amountMinor, c.currency),
    status: statusOf(c.status, c.statusChangedAt, c.statusReason, 'DECLINE'),
    ...aboutPayment(p),
    flags: [],
  })
}

export function refundNotificationBody(r: Refund, p: Payment): string {
  return envelope('REFUND', {
    type: 'REFUND',
    refundId: r.refundId,
    paymentId: p.paymentId,
    createdDateTime: notificationTime(r.createdAt),
    amount: amountOf(r.amountMinor, r.currency),
    status: statusOf(r.status, r.statusChangedAt, r.statusReason, 'DECLINE'),
    ...aboutPayment(p),
    flags: r.flags,
  })
}
