// MOBILE: a mobile-operator balance, charged at once when approved (always one-step). The emulated operator
// decides by the phone number (lib/acquirer/sandbox-acquirer.ts mobileScenario): it confirms or rejects after a
// delay, or the payer enters the code sent by SMS.
import { z } from 'zod'
import { maskPhone, mobileScenario } from '../../acquirer/sandbox-acquirer'
import { definePaymentMethod, type StoredMethod } from './payment-method'

const mobileMethodSchema = z
  .object({
    type: z.literal('MOBILE'),
    phone: z
      .string({ error: 'is required for MOBILE' })
      .regex(/^\d{10,15}$/, 'must be 10-15 digits with the country code')
      .meta({
        description:
          'digits with the country code (ending 0000: confirmed after a delay; 0001: rejected; else a one-time code)',
        examples: ['79001234567'],
      }),
  })
  .meta({ id: 'MobilePaymentMethod', description: 'a mobile-operator balance' })

export const storedMobile: StoredMethod = {
  methodType: 'MOBILE',
  capturesOnApproval: true,
  issuesTokens: false,
  answersPan: false,
  notifiedPan: () => null,
}

export const mobileMethod = definePaymentMethod({
  position: 40,
  type: 'MOBILE',
  schema: mobileMethodSchema,
  charges: 'a mobile-operator balance',
  storedAs: storedMobile,
  charge: {
    direct(m) {
      const scenario = mobileScenario(m.phone)
      return {
        methodType: storedMobile.methodType,
        answer:
          scenario === 'OTP'
            ? { kind: 'otp', text: `Enter the code sent by SMS to ${maskPhone(m.phone)}` }
            : { kind: 'operator', decision: scenario },
      }
    },
  },
  canBindToken: false,
  canStartRecurrent: false,
  requestExamples: {
    mobile: {
      summary: 'A mobile-balance payment',
      value: { paymentMethod: { type: 'MOBILE', phone: '79001234567' }, amount: { value: '50.00', currency: 'RUB' } },
    },
  },
})

export default mobileMethod
