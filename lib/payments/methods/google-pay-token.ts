// GOOGLE_PAY_TOKEN: a Google Pay payment token in `paymentToken`, as the Go client sendtips/qiwi sends it (the
// token's base64, zlib-compressed). The sandbox cannot decrypt a real token: it takes its test tokens
// (lib/acquirer/wallet-tokens.ts), plain, in base64 or compressed, and refuses anything else.
import { z } from 'zod'
import { walletTestToken } from '../../acquirer/wallet-tokens'
import { definePaymentMethod } from './payment-method'
import { NOT_A_TEST_TOKEN, storedWallet, walletCharge } from './wallet-token'

const TYPE = 'GOOGLE_PAY_TOKEN'

const googlePayTokenSchema = z
  .object({
    type: z.literal(TYPE),
    paymentToken: z
      .string({ error: `is required for ${TYPE}` })
      .max(16384, 'is too long')
      .refine((t) => walletTestToken(t) !== undefined, NOT_A_TEST_TOKEN)
      .meta({
        description: 'the token: base64 of its zlib stream (as the Go client sends it), its base64, or its text',
        examples: ['sandbox-approved'],
      }),
  })
  .meta({
    id: 'GooglePayTokenPaymentMethod',
    description: 'a Google Pay token (in the sandbox, a test token: approved, declined or 3-D Secure by its text)',
  })

const googlePayTokenMethod = definePaymentMethod({
  position: 60,
  type: TYPE,
  schema: googlePayTokenSchema,
  charges: 'a Google Pay token',
  storedAs: storedWallet(TYPE),
  charge: {
    direct: (m) => walletCharge(TYPE, walletTestToken(m.paymentToken)!),
  },
  canBindToken: false,
  canStartRecurrent: false,
  requestExamples: {
    googlePay: {
      summary: 'A Google Pay token (the sandbox test token sandbox-3ds, compressed as the Go client sends it)',
      value: {
        paymentMethod: { type: TYPE, paymentToken: 'eJwrTsxLScqv0DVOKQYAGewEJw==' },
        amount: { value: '5.00', currency: 'RUB' },
        flags: ['SALE'],
      },
    },
  },
})

export default googlePayTokenMethod
