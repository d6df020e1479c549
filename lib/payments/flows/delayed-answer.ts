// The issuer's delayed answer: production's test cards of expiry months 03 and 04 are answered 3 s after the
// payment (lib/acquirer/sandbox-acquirer.ts PRODUCTION_TEST_MONTHS decides which answer). The payment waits with
// nothing asked of the payer; nobody completes it (complete is a 409): its due change, on the site's clock, approves
// it (the bill permitting) or declines it (ACQUIRING_DECLINED), applied by the scheduler or by the first read.
import { PRODUCTION_TEST_DELAY_MS, type DelayedAnswer } from '../../acquirer/sandbox-acquirer'
import { definePaymentFlow } from './payment-flow'

export const delayedAnswerFlow = definePaymentFlow({
  position: 50,
  answerKind: 'delayed',
  authFlows: ['DELAYED_APPROVAL', 'DELAYED_DECLINE'],
  // the payment stores the answer to come as its flow
  start: (answer: DelayedAnswer, _paymentRef, now) => ({
    authFlow: answer.approved ? 'DELAYED_APPROVAL' : 'DELAYED_DECLINE',
    requirements: null,
    dueAt: new Date(now.getTime() + PRODUCTION_TEST_DELAY_MS),
  }),
  dueAfterMs: () => PRODUCTION_TEST_DELAY_MS,
  dueChange: (p) =>
    p.authFlow === 'DELAYED_DECLINE' ? { kind: 'decline', reason: 'ACQUIRING_DECLINED' } : { kind: 'approve' },
})

export default delayedAnswerFlow
