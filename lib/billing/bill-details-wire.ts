// The JSON of a bill's payments and of a bill with its payments (details), beside their schemas (the
// OpenAPI document's components): a bill's own JSON (lib/bills/bill-wire.ts) joined with its payments'
// (lib/payments/payment-wire.ts), above both. Each render function returns its schema's input type.
import { z } from 'zod'
import { billSchema, renderBill } from '../bills/bill-wire'
import type { Bill, Payment } from '../settlement/bill-store'
import { paymentSchema, renderPayment } from '../payments/payment-wire'
import { idSchema } from '../wire/common-schemas'
import { mayBeAbsent } from '../wire/wire-form'

/** an element of the bill payment list: the payment's JSON without what only its own answers carry */
export const billPaymentSchema = paymentSchema
  .omit({ createdToken: true, requirements: true })
  .meta({ id: 'BillPayment' })
export type BillPaymentAnswer = z.input<typeof billPaymentSchema>
export const billPaymentListSchema = z
  .array(billPaymentSchema)
  .meta({ id: 'BillPaymentList', description: "the bill's payments, oldest first" })

/** an element of a bill's details' `payments`: with its siteId */
export const billDetailsPaymentSchema = billPaymentSchema
  .extend({ siteId: mayBeAbsent(idSchema) })
  .meta({ id: 'BillDetailsPayment' })

export const billDetailsSchema = billSchema
  .extend({ payments: z.array(billDetailsPaymentSchema).meta({ description: 'oldest first' }) })
  .meta({ id: 'BillDetails', description: 'the bill and its payments' })
export type BillDetailsAnswer = z.input<typeof billDetailsSchema>

export function renderBillPayment(p: Payment): BillPaymentAnswer {
  const { createdToken: _token, requirements: _requirements, ...payment } = renderPayment(p)
  return payment
}

/** the bill and its payments (payUrl before payments, as production answers) */
export function renderBillDetails(b: Bill, payments: Payment[], now: Date): BillDetailsAnswer {
  const { payUrl, ...bill } = renderBill(b, now)
  return { ...bill, payUrl, payments: payments.map((p) => ({ siteId: p.siteId, ...renderBillPayment(p) })) }
}
