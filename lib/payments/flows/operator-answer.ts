// The mobile operator's answer: the emulated operator confirms or rejects a mobile-balance payment
// MOBILE_OPERATOR_DELAY_MS after it was made (lib/acquirer/sandbox-acquirer.ts mobileScenario decides which, by the
// phone number). Nobody completes it: it is its due change, confirmed (approved, the bill permitting) or rejected
// (ACQUIRING_INSUFFICIENT_FUNDS).
import { settings } from '../../config'
import { definePaymentFlow } from './payment-flow'

/** the first answer of a payment the operator answers later: what it will answer */
export interface OperatorAnswer {
  kind: 'operator'
  decision: 'OPERATOR_CONFIRM' | 'OPERATOR_REJECT'
}

const delayMs = () => settings().mobileOperatorDelayMs

export const operatorAnswerFlow = definePaymentFlow({
  position: 30,
  answerKind: 'operator',
  authFlows: ['OPERATOR_CONFIRM', 'OPERATOR_REJECT'],
  // the payment stores the operator's decision as its flow, applied when it falls due
  start: (answer: OperatorAnswer, _paymentRef, now) => ({
    authFlow: answer.decision,
    requirements: null,
    dueAt: new Date(now.getTime() + delayMs()),
  }),
  dueAfterMs: delayMs,
  dueChange: (p) =>
    p.authFlow === 'OPERATOR_REJECT'
      ? { kind: 'decline', reason: 'ACQUIRING_INSUFFICIENT_FUNDS' }
      : { kind: 'approve' },
})

export default operatorAnswerFlow
