// The payer's bank app, for Faster Payments (SBP): an SBP payment waits for the payer to pay or decline its QR
// code in their bank app (the sandbox's: lib/sbp), which completes or declines the payment itself. The answer
// carries the code where production's clients read it (`requirements.sbp`: qrcId, image, payload). Nobody
// completes it through the API (complete is a 409); its due change is the code's time running out: declined
// SBP_QR_EXPIRED; its bill paid by another payment, or expired, declines it too (the scheduler). A payment by FPS
// token waits for the emulated bank instead, which pays it after MOBILE_OPERATOR_DELAY_MS (its due change: approved).
import { z } from 'zod'
import { settings } from '../../config'
import { definePaymentFlow } from './payment-flow'

/** what an SBP payment's answer shows of its QR code */
export interface SbpQrRequirement {
  qrcId: string
  image: { mediaType: string; content: string }
  payload: string
}

/** the first answer of an SBP payment: its code, to be paid until `expiresAt`; or a payment by an FPS token */
export type SbpAnswer = { kind: 'sbp'; qr: SbpQrRequirement; expiresAt: Date } | { kind: 'sbp'; byToken: true }

export const sbpBankAppFlow = definePaymentFlow({
  position: 40,
  answerKind: 'sbp',
  authFlows: ['SBP_QR', 'SBP_TOKEN'],
  requirement: {
    key: 'sbp',
    schema: z
      .strictObject({
        qrcId: z.string().meta({ description: "the QR code's qrCodeUid (GET …/sbp/qrCodes/{qrCodeUid})" }),
        image: z.strictObject({
          mediaType: z.string(),
          content: z.string().meta({ description: 'base64 of the image; a QR reader decodes it to payload' }),
        }),
        payload: z.string().meta({ description: "the code's link: the sandbox bank app" }),
      })
      .optional()
      .meta({ description: 'SBP: pay or decline the code in the bank app (payload)' }),
  },
  start: (answer: SbpAnswer, _paymentRef, now) =>
    'byToken' in answer
      ? {
          authFlow: 'SBP_TOKEN',
          requirements: null,
          dueAt: new Date(now.getTime() + settings().mobileOperatorDelayMs),
        }
      : { authFlow: 'SBP_QR', requirements: { sbp: { ...answer.qr } }, dueAt: answer.expiresAt },
  // a code whose bill another payment paid (or which expired) is withdrawn, not left payable
  endsWithBill: true,
  dueChange: (p) => (p.authFlow === 'SBP_TOKEN' ? { kind: 'approve' } : { kind: 'decline', reason: 'SBP_QR_EXPIRED' }),
})

export default sbpBankAppFlow
