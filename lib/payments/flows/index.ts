// The registry of payer-authentication flows: a flow is a module beside this file (listed in registered.generated.ts,
// which every npm script writes from the folder). The payment's first answer starts one (startFlow), the complete
// request is built of the flows the payer completes, and the lifecycle asks here for a payment's due change
// (dueChangeOf), which the scheduler applies when it comes.
import { z } from 'zod'
import { inPositionOrder } from '../../registered'
import type { Payment } from '../payment-store'
import type { FlowOutcome, FlowStart, PayerCompletion, PaymentFlow } from './payment-flow'
import { modules } from './registered.generated'

/** the flows, in the order the complete request lists what the payer sends */
export const PAYMENT_FLOWS: readonly (typeof modules)[number][] = inPositionOrder('payment flows', modules)

/** the sandbox's first answers that start a flow (the others are final: approved, declined) */
export type FlowAnswer = Parameters<(typeof PAYMENT_FLOWS)[number]['start']>[0]

// each flow as any flow: it is looked up by its answer kind or authFlow, and given what it declared it takes
const flows = PAYMENT_FLOWS as unknown as readonly PaymentFlow[]
const byAnswer = new Map(flows.map((f) => [f.answerKind, f]))
const byAuthFlow = new Map(flows.flatMap((f) => f.authFlows.map((authFlow) => [authFlow, f] as const)))
if (byAnswer.size !== flows.length) throw new Error('payment flows: an answer kind starts two flows')
if (byAuthFlow.size !== flows.reduce((n, f) => n + f.authFlows.length, 0))
  throw new Error('payment flows: an authFlow belongs to two flows')

/** the flow of a payment's `authFlow`, or undefined (none: a payment that never waited) */
export const flowOf = (authFlow: string | null): PaymentFlow | undefined =>
  authFlow === null ? undefined : byAuthFlow.get(authFlow)

/** what a new payment whose first answer starts a flow stores */
export function startFlow(answer: FlowAnswer, paymentRef: string, now: Date): FlowStart {
  const flow = byAnswer.get(answer.kind)
  if (!flow) throw new Error(`payment flows: none starts from ${answer.kind}`)
  return flow.start(answer, paymentRef, now)
}

/** how long after its start a payment of this authFlow changes by itself, or null (never) */
export const dueAfterMs = (authFlow: string | null): number | null => flowOf(authFlow)?.dueAfterMs?.() ?? null

/**
 * the change of a payment whose dueAt has come: its flow's; one whose flow names none is approved, as a due payment
 * always was before flows were modules (no flow sets a due time without a change today)
 */
export function dueChangeOf(p: Payment): FlowOutcome {
  return flowOf(p.authFlow)?.dueChange?.(p) ?? { kind: 'approve' }
}

/** the authFlows of the flows that end with their bill (endsWithBill) */
export const AUTH_FLOWS_ENDING_WITH_BILL: readonly string[] = flows.flatMap((f) => (f.endsWithBill ? f.authFlows : []))

/** the answer's `requirements`: what each flow that asks the payer something asks, by its key */
export const requirementsShape: Record<string, z.ZodType> = Object.fromEntries(
  flows.flatMap((f) => (f.requirement ? [[f.requirement.key, f.requirement.schema]] : [])),
)

/** the flows the payer completes, each by its property of the complete request */
export const PAYER_COMPLETIONS: readonly PayerCompletion[] = flows.flatMap((f) => (f.completion ? [f.completion] : []))
const keys = PAYER_COMPLETIONS.map((c) => c.key)

/** the complete request: one flow's property (threeDS, otp), as the payment requires */
export const completeRequestSchema = z
  .object(Object.fromEntries(PAYER_COMPLETIONS.map((c) => [c.key, c.schema.optional()])), {
    error: 'must be a JSON object',
  })
  .refine((r) => keys.some((key) => r[key]), { message: `${keys.join(' or ')} is required`, path: [keys.at(-1)!] })
  // the refine above, for the document: at least one of them (each branch names its property, as strict validators
  // want)
  .meta({
    id: 'CompleteRequest',
    description: `${keys.join(' or ')}, as the payment requires`,
    anyOf: keys.map((key) => ({
      type: 'object',
      properties: { [key]: { type: 'object' } },
      required: [key],
    })),
  })
export type CompleteRequest = z.output<typeof completeRequestSchema>

/** the complete endpoint's request examples, one per flow the payer completes */
export const completeRequestExamples = () => Object.fromEntries(PAYER_COMPLETIONS.map((c) => [c.key, c.example]))
