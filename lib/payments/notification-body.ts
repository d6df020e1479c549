// The body of a notification, in the production protocol's format (which differs from the API's answers
// on purpose: existing merchant integrations parse and verify it):
//   {"payment": {…}, "type": "PAYMENT", "version": "1"}   likewise capture/CAPTURE, refund/REFUND
// - status values SUCCESS / DECLINED (payments), SUCCESS / DECLINE (captures, refunds), with
//   reasonCode and reasonMessage on declines;
// - date-times `YYYY-MM-DDThh:mm:ss±hh:mm` (no fraction of a second), in the service time zone;
// - amount.value a JSON number written with two decimals (`60.50`);
// - flags: a payment's SALE (one-step) or AUTH (two-step); a refund's REVERSAL when it was one.
// Payments render their own notifications (lib/notifications/ is the transport: outbox, delivery,
// signing). Pure: rendered from the rows, written into the outbox with the status change it tells of
// (payment-notify.ts). Beside the renderers, the bodies' schemas: the OpenAPI document's webhooks (and
// the `body` of the API's notification list); each renderer writes its schema's type, amount values as
// RawNumbers.
import { z } from 'zod'
import { DECLINE_REASONS, type CardProfile, type DeclineReason } from '../acquirer/sandbox-acquirer'
import type { Capture } from './capture-store'
import type { Payment } from './payment-store'
import type { Refund } from './refund-store'
import { RawNumber } from '../http/json-text'
import { formatMinor } from '../money/money'
import { notificationEnvelope, type NotificationType } from '../notifications/notification-envelope'
import { formatLocalMidnight, notificationTime, notificationTimeSchema } from '../time/wire-time'
import {
  absent,
  alwaysKeeps,
  mayBeAbsent,
  openList,
  openValues,
  ownFormat,
  present,
  whenField,
} from '../wire/wire-form'
import { cardInfoSchema, chargedCardOf } from './charged-card'
import { STORED_METHOD_TYPES, storedMethodOf } from './methods'
import { TOKEN_OF } from './methods/token'
import { isOneStep } from './payment-rules'
import { issuesToken, paymentTokenOf } from './payment-tokens'
import { customerAnswerSchema } from './payment-wire'
import { notifiedSplits, notifiedSplitSchema } from '../splits/split-schema'
import { chequeDataOf, chequeDataSchema } from '../receipts/cheque-rules'

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
  SBP_DECLINED_BY_PAYER: 'The payer declined the payment in their bank app',
  SBP_QR_EXPIRED: 'The QR code expired before the payer paid',
  REFUND_DECLINED_BY_MERCHANT: 'The merchant declined the postponed refund before it was processed',
}

/**
 * `status.errorCode` of a decline the card's issuer answered: its ISO 8583 response code, as a number (production
 * sends a number and names no values). A decline the service decided itself (a paid bill, 3-D Secure, a series'
 * rules, a capture's or a refund's checks) has none.
 */
const ISSUER_RESPONSE_CODES: Partial<Record<DeclineReason, number>> = {
  ACQUIRING_DECLINED: 5,
  ACQUIRING_INSUFFICIENT_FUNDS: 51,
  ACQUIRING_EXPIRED_CARD: 54,
  ACQUIRING_INCORRECT_CVV: 82,
  TRY_AGAIN_LATER: 91,
}

const notificationAmountSchema = z
  .strictObject({
    value: z.number().min(0).meta({
      description: 'a JSON number written with two decimals (60.50): check the signature on the text as written',
    }),
    currency: z.string().regex(/^[A-Z]{3}$/),
  })
  .meta({ id: 'NotificationAmount' })

const notificationStatusSchema = <D extends string>(declined: D, meta: { id: string; description?: string }) =>
  alwaysKeeps(
    z
      .strictObject({
        value: z.enum(['SUCCESS', declined]),
        changedDateTime: notificationTimeSchema,
        reasonCode: openValues(z.enum(DECLINE_REASONS))
          .optional()
          .meta({ description: "a decline's reason: the API's status.reason" }),
        reasonMessage: z.string().optional().meta({ description: "a decline's reason in words for people" }),
        errorCode: z
          .number()
          .int()
          .optional()
          .meta({
            description:
              "a decline the card's issuer answered: its ISO 8583 response code (5 declined, 51 insufficient " +
              'funds, 54 expired card, 82 incorrect CVV, 91 issuer unavailable)',
          }),
      })
      .meta(meta),
    // the contract: reason fields on declines
    whenField(
      'value',
      declined,
      present('reasonCode', 'reasonMessage'),
      absent('reasonCode', 'reasonMessage', 'errorCode'),
    ),
  )
const paymentStatusSchema = notificationStatusSchema('DECLINED', { id: 'PaymentNotificationStatus' })
const operationStatusSchema = notificationStatusSchema('DECLINE', {
  id: 'OperationNotificationStatus',
  description: "a capture's or a refund's",
})

/** what every object tells of its payment besides its own fields */
const aboutPaymentShape = {
  billId: z.string(),
  paymentMethod: z
    .strictObject({
      type: openValues(z.enum(STORED_METHOD_TYPES)),
      maskedPan: z.string().nullable().meta({ description: 'the card a payment charged; null when it charged none' }),
      rrn: ownFormat(z.string().regex(/^\d{12}$/))
        .nullable()
        .meta({ description: "an approved card payment's retrieval reference number (sandbox value)" }),
      authCode: ownFormat(z.string().regex(/^\d{6}$/))
        .nullable()
        .meta({ description: "an approved card payment's authorisation code (sandbox value)" }),
      paymentToken: ownFormat(z.string().regex(/^pt_/))
        .optional()
        .meta({ description: 'a TOKEN payment: the payment token it charged' }),
      cardHolder: z.string().nullable().optional().meta({
        description: "a card-charging payment: the holder's name as the card payment gave it; null when none",
      }),
      cardExpireDate: z
        .string()
        .regex(/^(0[1-9]|1[0-2])\/\d{4}$/)
        .nullable()
        .optional()
        .meta({
          description: "a card-charging payment: the card's expiry, MM/YYYY as production writes it; null when unknown",
        }),
      phone: z.string().optional().meta({ description: "SBP: the payer's phone" }),
    })
    .meta({ id: 'NotificationPaymentMethod' }),
  paymentCardInfo: cardInfoSchema
    .optional()
    .meta({ description: 'of the card a payment charged, when it charged one' }),
  merchantSiteUid: mayBeAbsent(z.string()).meta({ description: "the payment's site (siteId)" }),
  customer: customerAnswerSchema.meta({ description: '{} when none' }),
  gatewayData: z
    .strictObject({
      type: z.literal('ACQUIRING'),
      eci: z.string().meta({
        description:
          'the e-commerce indicator: 5 (Mastercard 2) authenticated by 3-D Secure, 7 (Mastercard 0) not authenticated',
      }),
      authCode: ownFormat(z.string().regex(/^\d{6}$/))
        .nullable()
        .meta({ description: 'as paymentMethod.authCode' }),
      rrn: ownFormat(z.string().regex(/^\d{12}$/))
        .nullable()
        .meta({ description: 'as paymentMethod.rrn' }),
    })
    .optional()
    .meta({ id: 'GatewayData', description: 'a card-charging payment: its authorisation at the acquirer' }),
  customFields: z.record(z.string(), z.string()).meta({
    description: "the bill's customFields with the payment's own over them; {} when none",
  }),
}

export const paymentNotificationSchema = z
  .strictObject({
    payment: z.strictObject({
      type: z.literal('PAYMENT'),
      paymentId: z.string(),
      qrCodeUid: z.string().optional().meta({ description: 'SBP: the QR code the payer paid (or declined)' }),
      createdDateTime: notificationTimeSchema,
      amount: notificationAmountSchema,
      status: paymentStatusSchema,
      ...aboutPaymentShape,
      flags: openList(z.tuple([z.enum(['SALE', 'AUTH'])])).meta({
        description: 'SALE: one-step (also mobile); AUTH: two-step',
      }),
      tokenData: z
        .strictObject({
          paymentToken: ownFormat(z.string().regex(/^pt_/)),
          expiredDate: notificationTimeSchema
            .nullable()
            .meta({ description: "the token lasts through its card's expiry month" }),
        })
        .optional()
        .meta({ description: 'the token the payment issued (BIND_PAYMENT_TOKEN)' }),
      chequeData: chequeDataSchema.optional(),
      paymentSplits: z
        .array(notifiedSplitSchema)
        .optional()
        .meta({ description: "split payments: the merchants' shares" }),
    }),
    type: z.literal('PAYMENT'),
    version: z.literal('1'),
  })
  .meta({ id: 'PaymentNotification', description: 'a payment reached a final status' })

export const captureNotificationSchema = z
  .strictObject({
    capture: z.strictObject({
      type: z.literal('CAPTURE'),
      captureId: z.string(),
      paymentId: z.string(),
      createdDateTime: notificationTimeSchema,
      amount: notificationAmountSchema,
      status: operationStatusSchema,
      ...aboutPaymentShape,
      flags: openList(z.array(z.string()).max(0)).meta({ description: 'always empty from this service' }),
    }),
    type: z.literal('CAPTURE'),
    version: z.literal('1'),
  })
  .meta({ id: 'CaptureNotification', description: 'a capture reached a final status' })

export const refundNotificationSchema = z
  .strictObject({
    refund: z.strictObject({
      type: z.literal('REFUND'),
      refundId: z.string(),
      paymentId: z.string(),
      createdDateTime: notificationTimeSchema,
      amount: notificationAmountSchema,
      status: operationStatusSchema,
      ...aboutPaymentShape,
      flags: z
        .array(openValues(z.literal('REVERSAL')))
        .meta({ description: 'REVERSAL: it released an uncaptured hold' }),
      chequeData: chequeDataSchema.optional(),
      refundSplits: z
        .array(notifiedSplitSchema)
        .optional()
        .meta({ description: "split payments: what the refund takes back of each merchant's share" }),
    }),
    type: z.literal('REFUND'),
    version: z.literal('1'),
  })
  .meta({ id: 'RefundNotification', description: 'a refund reached a final status' })

/** an object as it is written: its amount value a RawNumber (`60.50` keeps its two decimals) */
type Written<T> = T extends { value: number; currency: string }
  ? { value: RawNumber; currency: string }
  : T extends readonly unknown[]
    ? { [K in keyof T]: Written<T[K]> }
    : T extends object
      ? { [K in keyof T]: Written<T[K]> }
      : T
type PaymentObject = Written<z.input<typeof paymentNotificationSchema>['payment']>
type CaptureObject = Written<z.input<typeof captureNotificationSchema>['capture']>
type RefundObject = Written<z.input<typeof refundNotificationSchema>['refund']>
type AboutPayment = Pick<PaymentObject, keyof typeof aboutPaymentShape>

/** `60.50`: a JSON number with two decimals */
const amountOf = (minor: bigint, currency: string) => ({ value: new RawNumber(formatMinor(minor)), currency })

function statusOf<D extends 'DECLINED' | 'DECLINE'>(
  status: string,
  changedAt: Date,
  reason: string | null,
  declined: D,
) {
  const declinedNow = status === 'DECLINED'
  return {
    // notifications are written for final statuses alone: COMPLETED or DECLINED
    value: status === 'COMPLETED' ? ('SUCCESS' as const) : declined,
    changedDateTime: notificationTime(changedAt),
    reasonCode: declinedNow && reason ? (reason as DeclineReason) : undefined,
    reasonMessage: declinedNow && reason ? (REASON_MESSAGES[reason as DeclineReason] ?? reason) : undefined,
    errorCode: declinedNow && reason ? ISSUER_RESPONSE_CODES[reason as DeclineReason] : undefined,
  }
}

/**
 * what every object tells of its payment besides its own fields: its bill, what it was paid with (paymentCardInfo for
 * cards), customer and customFields
 */
function aboutPayment(p: Payment): AboutPayment {
  const card = chargedCardOf(p)
  const rrn = card?.rrn ?? null
  const authCode = card?.authCode ?? null
  return {
    billId: p.billId,
    paymentMethod: {
      type: p.methodType,
      ...tokenSlotOf(p),
      maskedPan: card?.maskedPan ?? null,
      rrn,
      authCode,
      ...(card && { cardHolder: card.cardHolder, cardExpireDate: card.cardExpireDate }),
      ...storedMethodOf(p.methodType)?.methodFields?.(p),
    },
    paymentCardInfo: card?.info,
    merchantSiteUid: p.siteId,
    customer: (p.customer as AboutPayment['customer'] | null) ?? {},
    gatewayData: card ? { type: 'ACQUIRING', eci: card.eci, authCode, rrn } : undefined,
    customFields: (p.customFields as AboutPayment['customFields'] | null) ?? {},
  }
}

/**
 * The stored body holds this in place of the payment token (at rest the service keeps only a token's
 * hash); withPaymentToken fills it in when the body is sent or shown. No merchant value can write
 * `"tokenData":{` (customFields values are strings, customer keys are fixed), and tokenData is the
 * object's last field.
 */
const TOKEN_PLACEHOLDER = 'pt_(filled in when sent)'
const TOKEN_SLOT = `"tokenData":{"paymentToken":"${TOKEN_PLACEHOLDER}"`

/**
 * A TOKEN payment's paymentMethod names the token it charged the same way: in its place the stored body holds the
 * internal id of the payment that issued it (the token is derived from that id with the service's key). The slot
 * opens the object's first `"paymentMethod":{`, which comes before any value a merchant gives but its ids (whose
 * characters cannot write it).
 */
const CHARGED_TOKEN_PREFIX = 'pt_(filled in when sent from '
const CHARGED_TOKEN_SLOT = `"paymentMethod":{"type":"TOKEN","paymentToken":"${CHARGED_TOKEN_PREFIX}`
const CHARGED_TOKEN_SLOT_RE =
  /^"paymentMethod":\{"type":"TOKEN","paymentToken":"pt_\(filled in when sent from ([0-9a-f-]{36})\)"/

function tokenSlotOf(p: Payment): { paymentToken?: string } {
  const issuedBy = p.methodType === 'TOKEN' ? (p.methodData as Record<string, string> | null)?.[TOKEN_OF] : undefined
  return issuedBy ? { paymentToken: `${CHARGED_TOKEN_PREFIX}${issuedBy})` } : {}
}

function tokenDataOf(p: Payment): PaymentObject['tokenData'] {
  if (!issuesToken(p)) return undefined
  const card = p.cardProfile as unknown as CardProfile | null
  // the token lasts as long as its card: through the card's expiry month
  const lastDay = card ? new Date(Date.UTC(card.year, card.month, 0)).getUTCDate() : null
  return {
    paymentToken: TOKEN_PLACEHOLDER,
    expiredDate: card && lastDay ? formatLocalMidnight(card.year, card.month, lastDay) : null,
  }
}

/**
 * the body as posted: a PAYMENT notification's token slot filled in with the token of its payment, and a TOKEN
 * payment's (or its capture's or refund's) paymentMethod with the token it charged
 */
export function withPaymentToken(body: string, type: string, paymentRef: string): string {
  if (type === 'CHECK_CARD') return withCheckToken(body, paymentRef)
  return withChargedToken(withIssuedToken(body, type, paymentRef))
}

/**
 * A CHECK_CARD body (lib/card-checks) holds its createdToken.token the same way: CHECK_TOKEN_SLOT, filled in with the
 * token of its verification (`checkRef`, from which the token is derived as from a payment's id).
 */
export const CHECK_TOKEN_SLOT = `"createdToken":{"token":"${TOKEN_PLACEHOLDER}"`

function withCheckToken(body: string, checkRef: string): string {
  const at = body.indexOf(CHECK_TOKEN_SLOT)
  return at < 0
    ? body
    : `${body.slice(0, at)}"createdToken":{"token":${JSON.stringify(paymentTokenOf(checkRef))}${body.slice(at + CHECK_TOKEN_SLOT.length)}`
}

function withIssuedToken(body: string, type: string, paymentRef: string): string {
  const at = type === 'PAYMENT' ? body.lastIndexOf(TOKEN_SLOT) : -1
  return at < 0
    ? body
    : `${body.slice(0, at)}"tokenData":{"paymentToken":${JSON.stringify(paymentTokenOf(paymentRef))}${body.slice(at + TOKEN_SLOT.length)}`
}

function withChargedToken(body: string): string {
  const at = body.indexOf('"paymentMethod":{')
  if (at < 0 || !body.startsWith(CHARGED_TOKEN_SLOT, at)) return body
  const slot = CHARGED_TOKEN_SLOT_RE.exec(body.slice(at))
  if (!slot) return body
  const filled = `"paymentMethod":{"type":"TOKEN","paymentToken":${JSON.stringify(paymentTokenOf(slot[1]))}`
  return `${body.slice(0, at)}${filled}${body.slice(at + slot[0].length)}`
}

const envelope = (type: NotificationType, object: PaymentObject | CaptureObject | RefundObject) =>
  notificationEnvelope(type, object)

export function paymentNotificationBody(p: Payment): string {
  // the object's own fields, then its payment's (AboutPayment: one object, so nothing undescribed slips in), then
  // tokenData last
  const own: Omit<PaymentObject, keyof AboutPayment | 'flags' | 'tokenData' | 'paymentSplits' | 'chequeData'> = {
    type: 'PAYMENT',
    paymentId: p.paymentId,
    ...storedMethodOf(p.methodType)?.notifiedFields?.(p),
    createdDateTime: notificationTime(p.createdAt),
    amount: amountOf(p.amountMinor, p.currency),
    status: statusOf(p.status, p.statusChangedAt, p.statusReason, 'DECLINED'),
  }
  return envelope('PAYMENT', {
    ...own,
    ...aboutPayment(p),
    flags: [isOneStep(p) ? 'SALE' : 'AUTH'],
    chequeData: chequeDataOf(p.id, p.cheque, p.status, chargedCardOf(p) !== null),
    paymentSplits: notifiedSplits(p.splits),
    tokenData: tokenDataOf(p),
  })
}

export function captureNotificationBody(c: Capture, p: Payment): string {
  const own: Omit<CaptureObject, keyof AboutPayment | 'flags'> = {
    type: 'CAPTURE',
    captureId: c.captureId,
    paymentId: p.paymentId,
    createdDateTime: notificationTime(c.createdAt),
    amount: amountOf(c.amountMinor, c.currency),
    status: statusOf(c.status, c.statusChangedAt, c.statusReason, 'DECLINE'),
  }
  return envelope('CAPTURE', { ...own, ...aboutPayment(p), flags: [] })
}

export function refundNotificationBody(r: Refund, p: Payment): string {
  const own: Omit<RefundObject, keyof AboutPayment | 'flags' | 'refundSplits' | 'chequeData'> = {
    type: 'REFUND',
    refundId: r.refundId,
    paymentId: p.paymentId,
    createdDateTime: notificationTime(r.createdAt),
    amount: amountOf(r.amountMinor, r.currency),
    status: statusOf(r.status, r.statusChangedAt, r.statusReason, 'DECLINE'),
  }
  return envelope('REFUND', {
    ...own,
    ...aboutPayment(p),
    flags: r.flags as RefundObject['flags'],
    chequeData: chequeDataOf(r.id, r.cheque, r.status, true),
    refundSplits: notifiedSplits(r.splits),
  })
}
