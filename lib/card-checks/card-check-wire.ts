// A card verification's JSON, as production answers it (QIWI-API/payments-docs "Card verification" and its status)
// and as its CHECK_CARD notification carries it, beside their schemas (the OpenAPI document's components).
import { z } from 'zod'
import { cardInfoOf } from '../acquirer/card-info'
import type { CardProfile } from '../acquirer/sandbox-acquirer'
import { cardInfoSchema } from '../payments/charged-card'
import { CHECK_TOKEN_SLOT } from '../payments/notification-body'
import { paymentTokenOf, tokenExpiredDate } from '../payments/payment-tokens'
import { notificationEnvelope } from '../notifications/notification-envelope'
import { notificationTime, notificationTimeSchema } from '../time/wire-time'
import { idSchema } from '../wire/common-schemas'
import { openValues } from '../wire/wire-form'
import type { CardCheck } from './card-check-store'

/** production's statuses: INIT (a payment page's, awaiting the payer) and ERROR are never answered by the sandbox */
export const CARD_CHECK_STATUSES = ['SUCCESS', 'WAITING_3DS', 'INIT', 'ERROR'] as const
export const THREE_DS_STATUSES = ['WITHOUT', 'PASSED', 'NOT_PASSED'] as const

const createdTokenSchema = z
  .strictObject({
    token: z.string().meta({ description: 'pays TOKEN payments of this site for account' }),
    name: z.string().meta({ description: 'the masked number of the card' }),
    expiredDate: notificationTimeSchema.meta({ description: "through the card's expiry month" }),
    account: z.string(),
  })
  .meta({ id: 'CardCheckCreatedToken' })

export const cardCheckAnswerSchema = z
  .strictObject({
    requestUid: idSchema,
    status: openValues(z.enum(CARD_CHECK_STATUSES)).meta({
      description:
        'SUCCESS: verified (isValidCard says the outcome); WAITING_3DS: the payer must pass 3-D Secure (requirements), then complete',
    }),
    isValidCard: z.boolean().optional().meta({ description: 'true: the card can be charged' }),
    threeDsStatus: openValues(z.enum(THREE_DS_STATUSES))
      .optional()
      .meta({ description: 'WITHOUT: no 3-D Secure was asked; PASSED, NOT_PASSED: the payer passed it, or not' }),
    checkOperationDate: notificationTimeSchema.optional().meta({ description: 'when the verification ended' }),
    cardInfo: cardInfoSchema.optional(),
    createdToken: createdTokenSchema
      .optional()
      .meta({ description: 'when tokenizationData.account was given and the card is valid' }),
    requirements: z
      .strictObject({
        pareq: z.string().min(1).meta({ description: "posted as PaReq to acsUrl by the payer's browser" }),
        acsUrl: z
          .string()
          .meta({ format: 'uri', description: "the service's emulated access-control page ({PUBLIC_BASE_URL}/acs)" }),
      })
      .optional()
      .meta({ description: 'WAITING_3DS only' }),
  })
  .meta({ id: 'CardCheck', description: 'a card verification; no money moves' })
export type CardCheckAnswer = z.input<typeof cardCheckAnswerSchema>

const profileOf = (c: CardCheck) => c.cardProfile as unknown as CardProfile

/** the token a valid card's verification issued, when an account was given */
export const hasToken = (c: CardCheck) => c.status === 'SUCCESS' && c.isValidCard === true && !!c.account

function createdTokenOf(c: CardCheck, token: string) {
  return { token, name: c.maskedPan, expiredDate: tokenExpiredDate(profileOf(c)), account: c.account! }
}

export function renderCardCheck(c: CardCheck): CardCheckAnswer {
  if (c.status !== 'SUCCESS')
    return {
      requestUid: c.requestUid,
      status: c.status as CardCheckAnswer['status'],
      requirements: (c.requirements as CardCheckAnswer['requirements']) ?? undefined,
    }
  return {
    requestUid: c.requestUid,
    status: 'SUCCESS',
    isValidCard: c.isValidCard ?? false,
    threeDsStatus: (c.threeDsStatus ?? 'WITHOUT') as CardCheckAnswer['threeDsStatus'],
    checkOperationDate: c.checkedAt ? notificationTime(c.checkedAt) : undefined,
    cardInfo: cardInfoOf(c.maskedPan),
    createdToken: hasToken(c) ? createdTokenOf(c, paymentTokenOf(c.id)) : undefined,
  }
}

// ---- the CHECK_CARD notification

export const cardCheckNotificationSchema = z
  .strictObject({
    checkPaymentMethod: z.strictObject({
      status: openValues(z.enum(CARD_CHECK_STATUSES)),
      isValidCard: z.boolean(),
      threeDsStatus: openValues(z.enum(THREE_DS_STATUSES)),
      cardInfo: cardInfoSchema,
      createdToken: createdTokenSchema.optional(),
      requestUid: idSchema,
      paymentMethod: z.strictObject({
        type: z.literal('CARD'),
        maskedPan: z.string(),
        cardHolder: z.string().nullable(),
        cardExpireDate: z.string().meta({ description: 'MM/YYYY' }),
      }),
      checkOperationDate: notificationTimeSchema,
    }),
    type: z.literal('CHECK_CARD'),
    version: z.literal('1'),
  })
  .meta({
    id: 'CardCheckNotification',
    description:
      'the body of a CHECK_CARD notification, as production sends it; `Signature` covers `{requestUid}|{checkOperationDate}`',
  })

const TOKEN_PLACEHOLDER_MARK = '\u2063check-token\u2063'

/**
 * The CHECK_CARD body of a verification that ended. Its token is never at rest: the body holds the payments' token
 * slot (lib/payments/notification-body.ts CHECK_TOKEN_SLOT), filled in when it is sent or shown.
 */
export function cardCheckNotificationBody(c: CardCheck): string {
  const card = profileOf(c)
  const answer = renderCardCheck(c)
  const body = notificationEnvelope('CHECK_CARD', {
    status: answer.status,
    isValidCard: answer.isValidCard,
    threeDsStatus: answer.threeDsStatus,
    cardInfo: answer.cardInfo,
    createdToken: hasToken(c) ? createdTokenOf(c, TOKEN_PLACEHOLDER_MARK) : undefined,
    requestUid: c.requestUid,
    paymentMethod: {
      type: 'CARD',
      maskedPan: c.maskedPan,
      cardHolder: c.cardHolder,
      cardExpireDate: `${String(card.month).padStart(2, '0')}/${card.year}`,
    },
    checkOperationDate: answer.checkOperationDate,
  })
  return body.replace(`"createdToken":{"token":${JSON.stringify(TOKEN_PLACEHOLDER_MARK)}`, CHECK_TOKEN_SLOT)
}
