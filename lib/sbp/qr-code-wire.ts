// The JSON of an SBP QR code, as production answers it (QIWI-API/payments-docs "Faster Payment System QR Code"
// and "… Status"), beside its schema (the OpenAPI document's component). The create answers carry the image; the
// status read does not, as production's. A code's status follows its payment once it has one.
import { z } from 'zod'
import { settings } from '../config'
import { wireAmount, wireAmountSchema } from '../money/money'
import type { Payment } from '../payments/payment-store'
import { notificationTime, notificationTimeSchema } from '../time/wire-time'
import { idSchema } from '../wire/common-schemas'
import { openValues } from '../wire/wire-form'
import { QR_CODE_FLAGS, QR_CODE_TYPES } from './qr-code-request'
import { QR_IMAGE_MEDIA_TYPES } from './qr-image'
import type { SbpQrCode } from './qr-code-store'

export const QR_CODE_STATUSES = ['CREATED', 'INIT_PAYMENT_BY_TOKEN', 'PAYED', 'DECLINED', 'EXPIRED'] as const
export type QrCodeStatus = (typeof QR_CODE_STATUSES)[number]

/** the decline of an SBP payment whose QR code's time ran out before the payer paid */
export const QR_EXPIRED_REASON = 'SBP_QR_EXPIRED'

export const qrCodeAnswerSchema = z
  .strictObject({
    qrCodeUid: idSchema,
    amount: wireAmountSchema.optional().meta({ description: 'DYNAMIC only' }),
    qrCode: z.strictObject({
      type: openValues(z.enum(QR_CODE_TYPES)),
      ttl: z.int().meta({ description: 'minutes' }),
      image: z
        .strictObject({
          mediaType: z.enum(QR_IMAGE_MEDIA_TYPES),
          width: z.int(),
          height: z.int(),
          content: z.string().meta({ description: 'base64 of the image; a QR reader decodes it to payload' }),
        })
        .optional()
        .meta({ description: 'when the request asked for one; answers of the create requests only' }),
      payload: z.string().meta({ description: "the code's link: the sandbox bank app (standing for qr.nspk.ru)" }),
      status: openValues(z.enum(QR_CODE_STATUSES)).meta({
        description:
          'CREATED: payable; INIT_PAYMENT_BY_TOKEN: a payment by FPS token under way; PAYED; DECLINED (by the payer); EXPIRED (its ttl ran out unpaid). Final statuses never change.',
      }),
    }),
    paymentPurpose: z.string().optional(),
    redirectUrl: z.string().optional(),
    flags: z.array(openValues(z.enum(QR_CODE_FLAGS))).optional(),
    tokenizationPurpose: z.string().optional(),
    token: z
      .strictObject({
        status: openValues(z.enum(['CREATED'])),
        value: z.string().meta({ description: 'pay with it: POST …/sbp/qrCodes/{qrCodeUid}/payments' }),
        expiredDate: notificationTimeSchema,
      })
      .optional()
      .meta({ description: 'the FPS token, once the payer bound it in the bank app' }),
    payment: z
      .strictObject({
        paymentUid: z.string().meta({ description: "the payment's paymentId (read it with GET …/payments/{id})" }),
        paymentStatus: openValues(z.enum(['WAITING', 'COMPLETED', 'DECLINED'])),
      })
      .optional()
      .meta({ description: 'once paid (or declined, or being paid by token)' }),
    createdOn: notificationTimeSchema,
  })
  .meta({ id: 'SbpQrCode', description: 'the QR code as it is now' })
export type QrCodeAnswer = z.input<typeof qrCodeAnswerSchema>

/** the bank app's link of a QR code: this service's page, standing for the national QR link */
export const payloadOf = (publicId: string) => `${settings().publicBaseUrl}/sbp/${publicId}`

/** a code that belongs to an SBP payment (made by PUT …/payments/{id}), not created through the QR API */
export const belongsToPayment = (qr: Pick<SbpQrCode, 'fingerprint'>) => qr.fingerprint === null

/** the code's status now: its own until it has a payment, then its payment's */
export function qrCodeStatus(qr: SbpQrCode, payment: Payment | null, now: Date): QrCodeStatus {
  if (!payment || payment.status === 'WAITING') {
    if (payment && !belongsToPayment(qr)) return 'INIT_PAYMENT_BY_TOKEN'
    // past its time: EXPIRED as the scheduler will write it (or the payment's flow decline it)
    if (qr.status === 'CREATED' && qr.expiresAt.getTime() <= now.getTime()) return 'EXPIRED'
    return qr.status as QrCodeStatus
  }
  if (payment.status === 'COMPLETED') return 'PAYED'
  return payment.statusReason === QR_EXPIRED_REASON ? 'EXPIRED' : 'DECLINED'
}

export interface QrCodeView {
  qr: SbpQrCode
  payment: Payment | null
  token: { value: string; expiresAt: Date } | null
}

export function renderQrCode(v: QrCodeView, now: Date, withImage: boolean): QrCodeAnswer {
  const { qr, payment, token } = v
  const image = qr.image as { mediaType: (typeof QR_IMAGE_MEDIA_TYPES)[number]; width: number; height: number } | null
  return {
    qrCodeUid: qr.qrCodeUid,
    amount: qr.amountMinor === null ? undefined : wireAmount(qr.amountMinor, qr.currency),
    qrCode: {
      type: qr.type as QrCodeAnswer['qrCode']['type'],
      ttl: qr.ttlMinutes,
      image: withImage && image && qr.imageContent ? { ...image, content: qr.imageContent } : undefined,
      payload: payloadOf(qr.publicId),
      status: qrCodeStatus(qr, payment, now),
    },
    paymentPurpose: qr.paymentPurpose ?? undefined,
    redirectUrl: qr.redirectUrl ?? undefined,
    flags: qr.flags.length ? (qr.flags as QrCodeAnswer['flags']) : undefined,
    tokenizationPurpose: qr.tokenizationPurpose ?? undefined,
    token: token
      ? { status: 'CREATED', value: token.value, expiredDate: notificationTime(token.expiresAt) }
      : undefined,
    payment: payment
      ? { paymentUid: payment.paymentId, paymentStatus: payment.status as 'WAITING' | 'COMPLETED' | 'DECLINED' }
      : undefined,
    createdOn: notificationTime(qr.createdAt),
  }
}
