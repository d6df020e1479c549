// What a payer-authentication flow is: what a WAITING payment waits for after the sandbox's first answer (a 3-D
// Secure challenge, a one-time code, the mobile operator's answer). One module per flow in this folder, listed by
// the registry (index.ts). A flow says how it starts (what the payment stores: authFlow, requirements, dueAt), how
// the payer completes it through the merchant's POST complete, and what its due change is: what the payment
// becomes when its dueAt comes, applied by the scheduler (lib/scheduler) or by the first request that reads it.
// A flow decides; payment-lifecycle.ts applies what it decides (an approval still needs the bill unpaid).
import type { z } from 'zod'
import type { DeclineReason } from '../../acquirer/sandbox-acquirer'
import type { JsonValue, Payment, Tx } from '../payment-store'

/** what a new WAITING payment stores of its flow */
export interface FlowStart {
  /** the payment's `authFlow`: one of the flow's authFlows */
  authFlow: string
  /** the answer's `requirements`: what the payer is asked for (none while the operator answers) */
  requirements: JsonValue | null
  /** when its due change comes, on the site's clock (null: never by itself) */
  dueAt: Date | null
}

/** what the payment becomes */
export type FlowOutcome = { kind: 'approve' } | { kind: 'decline'; reason: DeclineReason }

/** a completion refused while the flow goes on: what it wrote is committed (an attempt counted), then a 400 */
export interface Refusal {
  kind: 'refuse'
  field: string
  message: string
}

/** how the payer finishes a flow: the complete request's property of the flow and what it decides */
export interface PayerCompletion<S extends z.ZodType = z.ZodType> {
  /** the complete request's property (`threeDS`, `otp`) */
  key: string
  /** that property's schema, with its errors and the OpenAPI document's descriptions */
  schema: S
  /** the complete endpoint's request example of it */
  example: { summary: string; value: Record<string, unknown> }
  /** the payment is locked, WAITING in this flow; `body`: the request's property, absent when it sent another */
  complete(tx: Tx, p: Payment, body: z.output<S> | undefined, now: Date): Promise<FlowOutcome | Refusal>
}

export interface PaymentFlow<A extends { kind: string } = { kind: string }, S extends z.ZodType = z.ZodType> {
  /** its place in the registry's list (the complete request's properties and message): ascending */
  position: number
  /** the kind of the sandbox's first answer (lib/payments/methods FirstAnswer) that starts it */
  answerKind: A['kind']
  /** the `authFlow` values it stores */
  authFlows: readonly string[]
  /**
   * what the payer is asked for: the answer's `requirements.<key>`, its schema (optional, with its OpenAPI
   * descriptions); absent while nobody is asked (an operator's answer)
   */
  requirement?: { key: string; schema: z.ZodType }
  /** what the new payment (its internal id: `paymentRef`) stores, from the first answer, at `now` */
  start(answer: A, paymentRef: string, now: Date): FlowStart
  /** how long after its start its due change comes; absent: it waits for the payer alone */
  dueAfterMs?(): number
  /** its due change, when the payment's dueAt has come */
  dueChange?(p: Payment): FlowOutcome
  /** how the payer finishes it; absent: complete is refused (409), as for an operator's answer */
  completion?: PayerCompletion<S>
  /**
   * the payment waits on its bill being open: once another payment pays the bill, or the bill expires, the scheduler
   * declines it (BILL_ALREADY_PAID, BILL_EXPIRED) instead of leaving the payer something that cannot succeed
   */
  endsWithBill?: boolean
  /** the merchant dashboard's timeline event of a payment that entered it */
  timelineEvent?: string
}

/** a flow module's object, its types inferred */
export const definePaymentFlow = <A extends { kind: string }, S extends z.ZodType = z.ZodType>(
  flow: PaymentFlow<A, S>,
): PaymentFlow<A, S> => flow
