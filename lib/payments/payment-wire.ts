// The JSON of a payment, a capture and a refund, built in one place each, beside the schema of each
// (the OpenAPI document's components). A render function returns its schema's input type, written as
// one object literal, so it cannot answer a field its schema does not describe; an absent optional
// field is `undefined`, which JSON leaves out.
import { z } from 'zod'
import { DECLINE_REASONS, type DeclineReason } from '../acquirer/sandbox-acquirer'
import type { Capture } from './capture-store'
import type { Payment } from './payment-store'
import type { Refund } from './refund-store'
import { wireAmount, wireAmountSchema } from '../money/money'
import { paymentTime, paymentTimeSchema } from '../time/wire-time'
import { FLAGS, idSchema } from '../wire/common-schemas'
import { absent, alwaysKeeps, openValues, ownFormat, present, whenField } from '../wire/wire-form'
import { cardInfoSchema, chargedCardOf } from './charged-card'
import { deviceDataAnswerSchema } from './device-data'
import { requirementsShape } from './flows'
import { STORED_METHOD_TYPES, STORED_METHODS, storedMethodOf } from './methods'
import { issuesToken, paymentTokenOf } from './payment-tokens'
import { splitAnswers, splitAnswerSchema } from '../splits/split-schema'
import { chequeAnswer, chequeAnswerSchema } from '../receipts/cheque-schema'
import { chequeDataOf, chequeDataSchema, paymentChequeDataOf } from '../receipts/cheque-rules'

export const PAYMENT_STATUSES = ['WAITING', 'DECLINED', 'COMPLETED'] as const
type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

export const statusSchema = alwaysKeeps(
  z
    .strictObject({
      value: z.enum(PAYMENT_STATUSES).meta({
        description:
          'WAITING: awaiting the payer or the operator; COMPLETED: done (a payment without SALE: authorised); DECLINED: final, see reason',
      }),
      changedDateTime: paymentTimeSchema,
      reason: openValues(z.enum(DECLINE_REASONS))
        .optional()
        .meta({ description: 'DECLINED only: why it was declined (a business decline is a resource, answered 200)' }),
    })
    .meta({ id: 'Status' }),
  // the contract: a decline carries its reason
  whenField('value', 'DECLINED', present('reason'), absent('reason')),
)

/** a payment's customer as the request gave it */
export const customerAnswerSchema = z
  .strictObject({
    account: z.string().optional(),
    email: z.string().optional(),
    name: z.string().optional(),
    phone: z.string().optional(),
    // an SBP payment's payer, as their bank tells them
    bankAccountNumber: z.string().optional().meta({ description: "SBP: the payer's account" }),
    bic: z.string().optional().meta({ description: "SBP: the payer's bank's BIC" }),
    lastName: z.string().optional().meta({ description: 'SBP' }),
    firstName: z.string().optional().meta({ description: 'SBP' }),
    middleName: z.string().optional().meta({ description: 'SBP' }),
    bankMemberId: z.string().optional().meta({ description: "SBP: the payer's bank's member id" }),
  })
  .meta({ id: 'Customer' })

const maskedPanSchema = z
  .string()
  .regex(/^\d{6}\*+\d{4}$/)
  .meta({ description: 'the first six and last four digits', examples: ['411111******1111'] })

/** the stored types whose answers carry the masked card */
const PAN_TYPES = STORED_METHODS.filter((s) => s.answersPan).map((s) => s.methodType)

export const paymentMethodAnswerSchema = alwaysKeeps(
  z
    .strictObject({
      type: openValues(z.enum(STORED_METHOD_TYPES)).meta({
        description:
          "a RECURRENT charge answers CARD (with the series' card); production's bill payments may also answer WALLET",
      }),
      maskedPan: maskedPanSchema.optional().meta({ description: `${PAN_TYPES.join(', ')} only` }),
      rrn: ownFormat(z.string().regex(/^\d{12}$/))
        .optional()
        .meta({
          description: 'a card-charging payment, once approved: the retrieval reference number (sandbox value)',
        }),
      authCode: ownFormat(z.string().regex(/^\d{6}$/))
        .optional()
        .meta({ description: 'a card-charging payment, once approved: the authorisation code (sandbox value)' }),
      phone: z.string().optional().meta({ description: "SBP: the payer's phone, once they paid or declined" }),
    })
    .meta({ id: 'PaymentMethod' }),
  whenField(
    'type',
    PAN_TYPES.length === 1 ? PAN_TYPES[0] : { enum: PAN_TYPES },
    present('maskedPan'),
    absent('maskedPan'),
  ),
)

// what each payer-authentication flow asks (lib/payments/flows: threeDS, otp)
export const requirementsSchema = z
  .strictObject(requirementsShape)
  .meta({ id: 'Requirements', description: 'what the payment waits for: send complete with threeDS.pares or otp.code' })

export const paymentSchema = z
  .strictObject({
    paymentId: idSchema,
    billId: idSchema.meta({
      description: 'the bill the payment belongs to (given in the request, or created with the payment)',
    }),
    createdDateTime: paymentTimeSchema,
    amount: wireAmountSchema,
    capturedAmount: wireAmountSchema,
    refundedAmount: wireAmountSchema,
    paymentMethod: paymentMethodAnswerSchema,
    status: statusSchema,
    customer: customerAnswerSchema.optional(),
    deviceData: deviceDataAnswerSchema.optional().meta({ description: "the request's deviceData, when it gave one" }),
    comment: z.string().optional(),
    customFields: z.record(z.string(), z.string()).optional().meta({
      description: "its bill's customFields with the payment's own over them, when either has any",
    }),
    flags: z
      .array(openValues(z.enum(FLAGS)))
      .meta({ description: "the request's flags (production's may add others, e.g. TEST)" }),
    paymentCardInfo: cardInfoSchema
      .optional()
      .meta({ description: 'of the card a payment charged, when it charged one' }),
    createdToken: z
      .strictObject({
        token: ownFormat(z.string().regex(/^pt_/)).meta({
          description: 'pay with it as paymentMethod {type: TOKEN, paymentToken} and the same customer.account',
        }),
        name: z.string().meta({ description: 'the masked card number' }),
      })
      .optional()
      .meta({ description: 'a COMPLETED BIND_PAYMENT_TOKEN payment: the token it issued' }),
    requirements: requirementsSchema.optional().meta({ description: 'WAITING only' }),
    qrCode: z
      .strictObject({
        qrcId: z.string(),
        image: z.strictObject({ mediaType: z.string(), content: z.string() }),
        payload: z.string(),
      })
      .optional()
      .meta({ description: 'a WAITING SBP payment: requirements.sbp again (the contract names it qrCode)' }),
    paymentSplits: z
      .array(splitAnswerSchema)
      .optional()
      .meta({ description: "split payments: the merchants' shares (the request's paymentSplits, else its bill's)" }),
    cheque: chequeAnswerSchema.optional().meta({ description: "the request's cheque, else its bill's" }),
    chequeData: chequeDataSchema.optional(),
  })
  .meta({ id: 'Payment', description: 'the payment as it is now' })
alwaysKeeps(
  paymentSchema,
  whenField(
    'status',
    { type: 'object', properties: { value: { const: 'WAITING' } } },
    undefined,
    absent('requirements', 'qrCode'),
  ),
)
export type PaymentAnswer = z.input<typeof paymentSchema>

export const captureSchema = z
  .strictObject({
    captureId: idSchema,
    createdDateTime: paymentTimeSchema,
    amount: wireAmountSchema,
    status: statusSchema,
  })
  .meta({ id: 'Capture', description: 'the capture' })
export type CaptureAnswer = z.input<typeof captureSchema>

export const refundSchema = z
  .strictObject({
    refundId: idSchema,
    createdDateTime: paymentTimeSchema,
    amount: wireAmountSchema,
    status: statusSchema,
    flags: z
      .array(openValues(z.literal('REVERSAL')))
      .meta({ description: 'REVERSAL: a release of what an authorised, uncaptured payment holds, whole or partial' }),
    refundSplits: z
      .array(splitAnswerSchema)
      .optional()
      .meta({ description: "split payments: what it takes back of each merchant's share, as the request gave it" }),
    cheque: chequeAnswerSchema.optional(),
    chequeData: chequeDataSchema.optional(),
  })
  .meta({ id: 'Refund', description: 'the refund' })
export type RefundAnswer = z.input<typeof refundSchema>

export const refundListSchema = z
  .array(refundSchema)
  .meta({ id: 'RefundList', description: "the payment's refunds, oldest first" })

function status(value: string, changedAt: Date, reason: string | null): z.input<typeof statusSchema> {
  return {
    value: value as PaymentStatus,
    changedDateTime: paymentTime(changedAt),
    reason: (reason as DeclineReason | null) || undefined,
  }
}

export function renderPayment(p: Payment): PaymentAnswer {
  const card = chargedCardOf(p)
  return {
    paymentId: p.paymentId,
    billId: p.billId,
    createdDateTime: paymentTime(p.createdAt),
    amount: wireAmount(p.amountMinor, p.currency),
    capturedAmount: wireAmount(p.capturedMinor, p.currency),
    refundedAmount: wireAmount(p.refundedMinor, p.currency),
    // its stored method says what it shows (a token payment answers its type alone)
    paymentMethod: {
      type: p.methodType,
      maskedPan: storedMethodOf(p.methodType)?.answersPan ? p.maskedPan || undefined : undefined,
      rrn: card?.rrn ?? undefined,
      authCode: card?.authCode ?? undefined,
      ...storedMethodOf(p.methodType)?.methodFields?.(p),
    },
    status: status(p.status, p.statusChangedAt, p.statusReason),
    customer: (p.customer as PaymentAnswer['customer'] | null) || undefined,
    deviceData: (p.deviceData as PaymentAnswer['deviceData'] | null) ?? undefined,
    comment: p.comment || undefined,
    customFields: (p.customFields as PaymentAnswer['customFields'] | null) || undefined,
    flags: p.flags as PaymentAnswer['flags'],
    paymentCardInfo: card?.info,
    createdToken: issuesToken(p) ? { token: paymentTokenOf(p.id), name: p.maskedPan ?? '' } : undefined,
    requirements:
      p.requirements && p.status === 'WAITING' ? (p.requirements as PaymentAnswer['requirements']) : undefined,
    qrCode: p.status === 'WAITING' ? (p.requirements as { sbp?: PaymentAnswer['qrCode'] } | null)?.sbp : undefined,
    paymentSplits: splitAnswers(p.splits),
    cheque: chequeAnswer(p.cheque, p.currency),
    chequeData: paymentChequeDataOf(p, card !== null),
  }
}

export function renderCapture(c: Capture): CaptureAnswer {
  return {
    captureId: c.captureId,
    createdDateTime: paymentTime(c.createdAt),
    amount: wireAmount(c.amountMinor, c.currency),
    status: status(c.status, c.statusChangedAt, c.statusReason),
  }
}

export function renderRefund(r: Refund): RefundAnswer {
  return {
    refundId: r.refundId,
    createdDateTime: paymentTime(r.createdAt),
    amount: wireAmount(r.amountMinor, r.currency),
    status: status(r.status, r.statusChangedAt, r.statusReason),
    flags: r.flags as RefundAnswer['flags'],
    refundSplits: splitAnswers(r.splits),
    cheque: chequeAnswer(r.cheque, r.currency),
    // a refund's cheque is refused unless its payment charged a card
    chequeData: chequeDataOf(r.id, r.cheque, r.status, true),
  }
}
