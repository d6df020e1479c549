// The JSON of a bill (the create response; the details add its payments: lib/billing/bill-details-wire.ts),
// beside its schema (the OpenAPI document's component): the render function returns its schema's input type.
import { z } from 'zod'
import type { Bill } from '../settlement/bill-store'
import { wireAmount } from '../money/money'
import { billState, type BillState } from '../settlement/bill-for-payment'
import { billTime, billTimeSchema } from '../time/wire-time'
import { settings } from '../config'
import { idSchema } from '../wire/common-schemas'
import { BILL_FLAGS } from './bill-request'
import { mayBeAbsent, openValues } from '../wire/wire-form'
import { splitAnswers, splitAnswerSchema } from '../splits/split-schema'
import { chequeAnswer, chequeAnswerSchema } from '../receipts/cheque-schema'

export const payUrlOf = (invoiceUid: string) => `${settings().publicBaseUrl}/pay/${invoiceUid}`

export const BILL_STATES = ['CREATED', 'PAID', 'EXPIRED'] as const satisfies readonly BillState[]

export const billSchema = z
  .strictObject({
    siteId: mayBeAbsent(idSchema),
    billId: idSchema,
    invoiceUid: z.uuid().meta({ description: "the service's id of the bill, in payUrl" }),
    amount: z
      .strictObject({
        value: z
          .string()
          .regex(/^\d+\.\d{2}$/)
          .optional()
          .meta({ description: 'absent: the payer enters the amount on the payment page' }),
        currency: z.string().regex(/^[A-Z]{3}$/),
      })
      .meta({ id: 'BillAmount' }),
    flags: mayBeAbsent(z.array(openValues(z.enum(BILL_FLAGS)))).meta({
      description: "the request's flags (production's may add others, e.g. TEST, or leave the field out)",
    }),
    status: z.strictObject({
      value: z.enum(BILL_STATES).meta({
        description:
          'CREATED: payable; PAID: one of its payments COMPLETED; EXPIRED: its deadline passed unpaid (both final)',
      }),
      changedDateTime: billTimeSchema,
    }),
    comment: z.string().optional(),
    creationDateTime: mayBeAbsent(billTimeSchema),
    expirationDateTime: billTimeSchema,
    payUrl: z
      .string()
      .meta({ format: 'uri', description: "the bill's payment page: {PUBLIC_BASE_URL}/pay/{invoiceUid}" }),
    customer: z
      .strictObject({
        account: z.string().optional(),
        email: z.string().optional(),
        name: z.string().optional(),
        phone: z.string().optional(),
        ip: z.string().optional(),
      })
      .optional(),
    recurrent: z.strictObject({ minAuthDay: z.int(), expiryDate: z.string() }).optional(),
    successUrl: z.string().optional().meta({ description: 'as the request gave it' }),
    failedUrl: z.string().optional().meta({ description: 'as the request gave it' }),
    customFields: z.record(z.string(), z.string()).optional(),
    splits: z.array(splitAnswerSchema).optional().meta({ description: "split payments: the merchants' shares" }),
    cheque: chequeAnswerSchema.optional(),
  })
  .meta({ id: 'Bill', description: 'the bill as it is now' })
export type BillAnswer = z.input<typeof billSchema>

/**
 * the bill as answered at `now`, its site's time; without its billPaymentMethodsType, as production's answer to a
 * request with it (its documented bill PUT) leaves it out
 */
export function renderBill(b: Bill, now: Date): BillAnswer {
  const state = billState(b, now)
  return {
    siteId: b.siteId,
    billId: b.billId,
    invoiceUid: b.invoiceUid,
    amount: b.amountMinor === null ? { currency: b.currency } : wireAmount(b.amountMinor, b.currency),
    flags: b.flags as BillAnswer['flags'],
    status: {
      value: state,
      // an expired bill changed when its deadline passed
      changedDateTime: billTime(state === 'EXPIRED' ? b.expiresAt : b.statusChangedAt),
    },
    comment: b.comment || undefined,
    creationDateTime: billTime(b.createdAt),
    expirationDateTime: billTime(b.expiresAt),
    payUrl: payUrlOf(b.invoiceUid),
    customer: (b.customer as BillAnswer['customer'] | null) || undefined,
    recurrent: (b.recurrent as BillAnswer['recurrent'] | null) || undefined,
    successUrl: b.successUrl || undefined,
    failedUrl: b.failedUrl || undefined,
    customFields: (b.customFields as BillAnswer['customFields'] | null) || undefined,
    splits: splitAnswers(b.splits),
    cheque: chequeAnswer(b.cheque, b.currency),
  }
}
