// Endpoint 2: the merchant finishes payer authentication — a 3-D Secure PaRes, or a one-time code.
import type { Payment } from '../generated/prisma/client'
import { fieldError, incorrectInvocation } from '../http/api-error'
import { siteWrite } from '../sandbox/site-write'
import { flowOf, type CompleteRequest } from './flows'
import type { Refusal } from './flows/payment-flow'
import { approve, decline, lockPayment } from './payment-lifecycle'
import { renderPayment } from './payment-wire'

export type { CompleteRequest } from './flows'

export async function completePayment(siteId: string, paymentId: string, req: CompleteRequest) {
  const result = await siteWrite(siteId, async (tx, clock): Promise<Payment | Refusal> => {
    const now = clock.now()
    const p = await lockPayment(tx, siteId, paymentId, now)
    // how the payer finishes the payment's flow (3-D Secure, a one-time code; nobody finishes an operator's answer)
    const completion = flowOf(p.authFlow)?.completion
    // authentication already succeeded: answer the payment as it is
    if (completion && p.status === 'COMPLETED') return p
    if (!completion || p.status !== 'WAITING')
      throw incorrectInvocation(
        p.status === 'DECLINED' ? 'The payment was declined' : 'The payment does not await payer authentication',
      )
    const outcome = await completion.complete(tx, p, req[completion.key], now)
    if (outcome.kind === 'approve') return approve(tx, p, now)
    if (outcome.kind === 'decline') return decline(tx, p, outcome.reason, now)
    // refused (a wrong code): what the flow wrote (the attempt counted) is committed before the 400 is answered
    return outcome
  })
  // a refusal (a payment row has no `kind`)
  if ('kind' in result) throw fieldError(result.field, result.message)
  return renderPayment(result)
}
