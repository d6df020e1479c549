// The wire fields of a card as a request carries it (a CARD payment's paymentMethod, a card verification's cardData):
// one rule for the number and one for the expiry, each request naming what is required and describing the outcome
// in its own words.
import { z } from 'zod'
import { writtenAs } from '../wire/wire-form'
import { luhnValid, parseExpiry, type CardExpiry } from './sandbox-acquirer'

/** a card number: 13–19 digits, Luhn-valid */
export const panField = (required: string, description: string) =>
  z
    .string({ error: required })
    .regex(/^\d{13,19}$/, 'must be 13-19 digits')
    .refine(luhnValid, 'is not a valid card number')
    .meta({ description, examples: ['4111111111111111'] })

/** an expiry, MM/YY, read as its month and year */
export const expiryField = (required: string, description: string) =>
  writtenAs(
    z.string({ error: required }).transform((s, ctx): CardExpiry => {
      const e = parseExpiry(s)
      if (!e) {
        ctx.addIssue({ code: 'custom', message: 'must be MM/YY' })
        return z.NEVER
      }
      return e
    }),
    { type: 'string', pattern: '^(0[1-9]|1[0-2])/\\d{2}$', description, examples: ['12/30'] },
  )
