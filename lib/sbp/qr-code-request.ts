// The QR code create request (POST …/sbp/qrCodes, PUT …/sbp/qrCodes/{qrCodeUid}), validated and normalised, as
// production's shapes are (QIWI-API/payments-docs "Faster Payment System QR Code") with the contract's rules:
// RUB only, a DYNAMIC code needs an amount and a TOKEN one has none, ttl in minutes 1–43200 (72 h by default).
import { z } from 'zod'
import { amountValueSchema, httpUrlSchema, idSchema } from '../wire/common-schemas'
import { QR_IMAGE_MEDIA_TYPES, QR_IMAGE_SIZE } from './qr-image'

export const QR_CODE_TYPES = ['DYNAMIC', 'TOKEN'] as const
export const QR_CODE_FLAGS = ['CREATE_TOKEN'] as const
/** ttl's bounds in minutes, and its default (72 hours) */
export const QR_TTL = { min: 1, max: 43200, default: 4320 }

const side = (name: string) =>
  z
    .int(`must be a whole number of pixels`)
    .min(QR_IMAGE_SIZE.min, `must be at least ${QR_IMAGE_SIZE.min}`)
    .max(QR_IMAGE_SIZE.max, `must be at most ${QR_IMAGE_SIZE.max}`)
    .meta({ description: `the image's ${name} in pixels` })

export const qrImageRequestSchema = z
  .object(
    {
      mediaType: z.enum(QR_IMAGE_MEDIA_TYPES, { error: `must be one of ${QR_IMAGE_MEDIA_TYPES.join(', ')}` }),
      width: side('width'),
      height: side('height'),
    },
    { error: 'must be an object with mediaType, width and height' },
  )
  .meta({ id: 'SbpQrImageRequest', description: "the image to draw: the answer's image.content" })

const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .max(max, `must be at most ${max} characters`)

export const qrCodeRequestSchema = z
  .object(
    {
      qrCodeUid: idSchema.optional().meta({ description: 'POST only: the id to create it under (absent: generated)' }),
      amount: z
        .object(
          {
            value: amountValueSchema,
            currency: z.literal('RUB', { error: 'must be RUB: the Faster Payments System pays in roubles' }),
          },
          { error: 'must be an object with value and currency' },
        )
        .optional()
        .meta({ description: 'DYNAMIC only: what the payer pays' }),
      qrCode: z.object(
        {
          type: z.enum(QR_CODE_TYPES, { error: `must be one of ${QR_CODE_TYPES.join(', ')}` }).meta({
            description: 'DYNAMIC: one payment of the amount; TOKEN: binds an FPS token, no amount',
          }),
          ttl: z
            .int('must be a whole number of minutes')
            .min(QR_TTL.min, `must be at least ${QR_TTL.min}`)
            .max(QR_TTL.max, `must be at most ${QR_TTL.max}`)
            .optional()
            .meta({ description: `how long it can be paid, in minutes (default ${QR_TTL.default}: 72 hours)` }),
          image: qrImageRequestSchema.optional(),
        },
        { error: 'must be an object with type' },
      ),
      paymentPurpose: text(140).optional().meta({ description: 'what the bank app shows the payer' }),
      redirectUrl: httpUrlSchema
        .optional()
        .meta({ description: 'where the bank app sends the payer after paying or declining' }),
      flags: z
        .array(z.enum(QR_CODE_FLAGS, { error: `must be one of ${QR_CODE_FLAGS.join(', ')}` }), {
          error: 'must be an array',
        })
        .max(8, 'must have at most 8 items')
        .optional()
        .transform((f) => (f?.length ? ['CREATE_TOKEN' as const] : [])),
      tokenizationAccount: text(256)
        .min(1, 'must not be empty')
        .optional()
        .meta({ description: "the merchant's id of its customer the FPS token is bound to" }),
      tokenizationPurpose: text(140).optional().meta({ description: 'what the bank app shows about the binding' }),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((r, ctx) => {
    const problem = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message })
    if (r.qrCode.type === 'DYNAMIC' && !r.amount) problem(['amount'], 'is required for a DYNAMIC QR code')
    if (r.qrCode.type === 'TOKEN' && r.amount) problem(['amount'], 'must be absent for a TOKEN QR code')
    const binds = r.qrCode.type === 'TOKEN' || r.flags.includes('CREATE_TOKEN')
    if (binds && !r.tokenizationAccount)
      problem(['tokenizationAccount'], 'is required to issue an FPS token (a TOKEN QR code or flag CREATE_TOKEN)')
    if (!binds && r.tokenizationAccount)
      problem(['tokenizationAccount'], 'is only for a TOKEN QR code or a DYNAMIC one with flag CREATE_TOKEN')
  })
  .meta({ id: 'SbpQrCodeRequest' })
export type QrCodeRequest = z.output<typeof qrCodeRequestSchema>

/** a payment by FPS token (POST …/sbp/qrCodes/{qrCodeUid}/payments) */
export const tokenPaymentRequestSchema = z
  .object(
    {
      tokenizationAccount: text(256).min(1, 'must not be empty').meta({ description: 'whose token it is' }),
      token: text(64),
    },
    { error: 'must be a JSON object' },
  )
  .meta({ id: 'SbpTokenPaymentRequest' })
