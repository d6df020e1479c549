// TOKEN: a payment token, issued by a COMPLETED BIND_PAYMENT_TOKEN card payment of the site (payment-tokens.ts), or
// by a valid card's verification (lib/card-checks), and bound to its customer account. It charges the binding
// payment's (or verification's) card profile; the card's number was never kept, so the answer names the type alone
// (notifications carry the masked number).
import { createHash } from 'node:crypto'
import { z } from 'zod'
import type { CardProfile } from '../../acquirer/sandbox-acquirer'
import { fieldError } from '../../http/api-error'
import type { Payment, Tx } from '../payment-store'
import { tokenWithPayment } from '../payment-token-store'
import { cardAnswer } from './card'
import { definePaymentMethod, type StoredMethod } from './payment-method'

const tokenMethodSchema = z
  .object({
    type: z.literal('TOKEN'),
    paymentToken: z
      .string({ error: 'is required for TOKEN' })
      .min(1, 'is required for TOKEN')
      .max(256, 'is not a payment token')
      .meta({
        description:
          'a token issued by a BIND_PAYMENT_TOKEN payment or a card verification of this site, for the same customer.account',
      }),
  })
  .meta({ id: 'TokenPaymentMethod' })

/** what the database keeps of a token: its SHA-256 */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex')

/** what issued a token and the card it charges: a payment's, or a card verification's (lib/card-checks) */
type TokenBinding = Pick<Payment, 'id' | 'cardProfile' | 'maskedPan' | 'cardHolder'>

/** What issued a token of this site and account, or null (unknown, other site, other account). */
export async function bindingOfToken(
  tx: Tx,
  siteId: string,
  account: string,
  token: string,
): Promise<TokenBinding | null> {
  const row = await tokenWithPayment(tx, tokenHash(token))
  if (!row || row.siteId !== siteId || row.account !== account) return null
  if (row.payment) return row.payment
  // a card verification's token keeps its card on its own row
  return row.checkRef
    ? { id: row.checkRef, cardProfile: row.cardProfile, maskedPan: row.maskedPan, cardHolder: row.cardHolder }
    : null
}

/** the key of a TOKEN payment's methodData that names the payment that issued its token (never the token itself) */
export const TOKEN_OF = 'tokenOf'

export const storedToken: StoredMethod = {
  methodType: 'TOKEN',
  capturesOnApproval: false,
  issuesTokens: false,
  // a token payment answers its type alone
  answersPan: false,
  notifiedPan: (p) => p.maskedPan || null,
}

export const tokenMethod = definePaymentMethod({
  position: 20,
  type: 'TOKEN',
  schema: tokenMethodSchema,
  charges: 'a payment token',
  storedAs: storedToken,
  charge: {
    async lookup(tx, m, { siteId, account, now }) {
      const binding = await bindingOfToken(tx, siteId, account!, m.paymentToken)
      if (!binding?.cardProfile)
        throw fieldError('paymentMethod.paymentToken', 'is not a payment token of this site and customer account')
      const profile = binding.cardProfile as unknown as CardProfile
      return {
        methodType: storedToken.methodType,
        maskedPan: binding.maskedPan ?? undefined,
        profile,
        cardHolder: binding.cardHolder ?? undefined,
        // the binding payment (or verification) names the token (payment-tokens.ts): its notifications tell it again
        methodData: { [TOKEN_OF]: binding.id },
        answer: cardAnswer(profile, now),
      }
    },
  },
  canBindToken: false,
  canStartRecurrent: true,
  needsCustomerAccount: 'a token is bound to its account',
  requestExamples: {
    token: {
      summary: 'A payment with a token',
      value: {
        paymentMethod: { type: 'TOKEN', paymentToken: 'pt_Xq3…' },
        amount: { value: '25.00', currency: 'RUB' },
        flags: ['SALE'],
        customer: { account: 'acc-1' },
      },
    },
  },
})

export default tokenMethod
