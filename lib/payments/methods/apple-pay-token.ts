// APPLE_PAY_TOKEN: an Apple Pay payment token, as the Go client sendtips/qiwi sends it (`paymentData`: Apple's
// PKPaymentToken object) or as one string (`paymentToken`). The sandbox cannot decrypt a real token: it takes its
// test tokens (lib/acquirer/wallet-tokens.ts) in `paymentData.data` or `paymentToken`, and refuses anything else.
import { z } from 'zod'
import { applePayTestToken, walletTestToken } from '../../acquirer/wallet-tokens'
import { present } from '../../wire/wire-form'
import { definePaymentMethod } from './payment-method'
import { NOT_A_TEST_TOKEN, storedWallet, walletCharge } from './wallet-token'

const TYPE = 'APPLE_PAY_TOKEN'

const applePayTokenSchema = z
  .object({
    type: z.literal(TYPE),
    paymentData: z
      .object(
        {
          version: z.string().max(16).nullish(),
          data: z
            .string({ error: 'is required in paymentData' })
            .max(8192, 'is too long')
            .meta({
              description: 'the encrypted payment data; in the sandbox, a test token',
              examples: ['sandbox-approved'],
            }),
          header: z.record(z.string(), z.string().max(1024).nullable()).nullish(),
          signature: z.string().max(8192).nullish(),
        },
        { error: 'must be a JSON object (a PKPaymentToken)' },
      )
      .optional()
      .meta({ description: "Apple's PKPaymentToken, as the Go client sends it" }),
    paymentToken: z
      .string()
      .max(16384, 'is too long')
      .optional()
      .meta({
        description:
          "the token as one string: a test token, its base64, or the base64 of Apple's PKPaymentToken JSON " +
          '(what the Go client takes)',
      }),
  })
  .superRefine((m, ctx) => {
    if (m.paymentData && m.paymentToken !== undefined)
      ctx.addIssue({ code: 'custom', path: ['paymentToken'], message: 'must not be given with paymentData' })
    else if (!m.paymentData && m.paymentToken === undefined)
      ctx.addIssue({ code: 'custom', path: ['paymentData'], message: `or paymentToken is required for ${TYPE}` })
    else if (m.paymentData && !walletTestToken(m.paymentData.data))
      ctx.addIssue({ code: 'custom', path: ['paymentData', 'data'], message: NOT_A_TEST_TOKEN })
    else if (m.paymentToken !== undefined && !applePayTestToken(m.paymentToken))
      ctx.addIssue({ code: 'custom', path: ['paymentToken'], message: NOT_A_TEST_TOKEN })
  })
  .meta({
    id: 'ApplePayTokenPaymentMethod',
    description: 'an Apple Pay token (in the sandbox, a test token: approved, declined or 3-D Secure by its text)',
    // the refinement above, for the document: one of the two forms
    oneOf: [
      { type: 'object', ...present('paymentData') },
      { type: 'object', ...present('paymentToken') },
    ],
  })

const applePayTokenMethod = definePaymentMethod({
  position: 50,
  type: TYPE,
  schema: applePayTokenSchema,
  charges: 'an Apple Pay token',
  storedAs: storedWallet(TYPE),
  charge: {
    direct: (m) =>
      walletCharge(TYPE, (m.paymentData ? walletTestToken(m.paymentData.data) : applePayTestToken(m.paymentToken!))!),
  },
  canBindToken: false,
  canStartRecurrent: false,
  requestExamples: {
    applePay: {
      summary: 'An Apple Pay token (the sandbox test token sandbox-approved, as the Go client sends it)',
      value: {
        paymentMethod: {
          type: TYPE,
          paymentData: {
            version: 'EC_v1',
            data: 'sandbox-approved',
            header: {
              publicKeyHash: 'OrWgjRGkqEWjdkRdUrXfiLGD0he/zpEu512FJWrGYFo=',
              transactionId: '1234567890ABCDEF',
            },
            signature: 'ZmFrZSBzaWduYXR1cmU=',
          },
        },
        amount: { value: '5.00', currency: 'RUB' },
        flags: ['SALE'],
      },
    },
  },
})

export default applePayTokenMethod
