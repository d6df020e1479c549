// A one-time code: the payer is asked for the code sent to their phone (a card's issuer, or the mobile operator
// by SMS; in the sandbox the code is SANDBOX_OTP_CODE). The merchant completes it with the code: the right one
// approves, each wrong one is a 400 naming the attempts left, and the third declines INVALID_OTP. It never
// changes by itself.
import { z } from 'zod'
import { settings } from '../../config'
import { fieldError } from '../../http/api-error'
import { setOtpAttempts } from '../payment-store'
import { definePaymentFlow } from './payment-flow'

export const MAX_OTP_ATTEMPTS = 3

export const oneTimeCodeFlow = definePaymentFlow({
  position: 20,
  answerKind: 'otp',
  authFlows: ['OTP'],
  requirement: {
    key: 'otp',
    schema: z
      .string()
      .min(1)
      .optional()
      .meta({
        description:
          "what to ask the payer for: the one-time code to send with complete (the sandbox sends no SMS: the code is the instance's SANDBOX_OTP_CODE setting, 1234 by default)",
        examples: ['Enter the code sent by SMS to +*******4567'],
      }),
  },
  // what the payer is asked (the answer's requirements.otp)
  start: (answer: { kind: 'otp'; text: string }) => ({
    authFlow: 'OTP',
    requirements: { otp: answer.text },
    dueAt: null,
  }),
  completion: {
    key: 'otp',
    schema: z.object(
      {
        code: z.string({ error: 'is required' }).min(1, 'is required').max(32, 'is not a code').meta({
          description:
            "the code the payer was sent: in the sandbox always the instance's SANDBOX_OTP_CODE setting (1234 by default)",
        }),
        otpProcessCode: z.string({ error: 'must be a string' }).max(256).optional(),
      },
      { error: 'must be an object with code' },
    ),
    example: { summary: 'A one-time code', value: { otp: { code: '1234' } } },
    async complete(tx, p, body) {
      if (!body) throw fieldError('otp.code', 'is required: the payment awaits a one-time code')
      if (body.code === settings().otpCode) return { kind: 'approve' }
      const attempts = p.otpAttempts + 1
      // the attempt is counted (committed) before the 400 is answered, or the payment declined
      await setOtpAttempts(tx, p.id, attempts)
      if (attempts >= MAX_OTP_ATTEMPTS) return { kind: 'decline', reason: 'INVALID_OTP' }
      const left = MAX_OTP_ATTEMPTS - attempts
      return {
        kind: 'refuse',
        field: 'otp.code',
        message: `is not the code sent; ${left} attempt${left === 1 ? '' : 's'} left`,
      }
    },
  },
  timelineEvent: 'code',
})

export default oneTimeCodeFlow
