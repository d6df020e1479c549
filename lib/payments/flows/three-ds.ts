// 3-D Secure: the card's issuer challenges the payer on its access-control page (the emulated one:
// lib/acquirer/acs-pages.ts). The payment answers WAITING with a PaReq naming it and the page's address; the
// merchant completes it with the PaRes the page posted back (passed: approved; failed: DECLINED_BY_MPI). A
// challenge left unfinished for THREE_DS_TIMEOUT_MS declines PAYMENT_EXPIRED_3DS.
import { z } from 'zod'
import { issuePareq, readPares } from '../../acquirer/three-ds'
import { settings } from '../../config'
import { fieldError } from '../../http/api-error'
import { definePaymentFlow } from './payment-flow'

const timeoutMs = () => settings().threeDSTimeoutMs

export const threeDSFlow = definePaymentFlow({
  position: 10,
  answerKind: 'threeDS',
  authFlows: ['THREE_DS'],
  requirement: {
    key: 'threeDS',
    schema: z
      .strictObject({
        pareq: z.string().min(1).meta({ description: "posted as PaReq to acsUrl by the payer's browser" }),
        acsUrl: z
          .string()
          .meta({ format: 'uri', description: "the service's emulated access-control page ({PUBLIC_BASE_URL}/acs)" }),
      })
      .optional(),
  },
  start: (_answer: { kind: 'threeDS' }, paymentRef, now) => ({
    authFlow: 'THREE_DS',
    // the PaReq names the payment's internal id
    requirements: { threeDS: { pareq: issuePareq(paymentRef), acsUrl: `${settings().publicBaseUrl}/acs` } },
    dueAt: new Date(now.getTime() + timeoutMs()),
  }),
  dueAfterMs: timeoutMs,
  dueChange: () => ({ kind: 'decline', reason: 'PAYMENT_EXPIRED_3DS' }),
  completion: {
    key: 'threeDS',
    schema: z.object(
      {
        pares: z
          .string({
            error:
              'is required: the PaRes that the access-control page (threeDS.acsUrl of the payment) posts to ' +
              'your TermUrl when the payer finishes the challenge',
          })
          .min(
            1,
            'is required: the PaRes that the access-control page (threeDS.acsUrl of the payment) posts to ' +
              'your TermUrl when the payer finishes the challenge',
          )
          .meta({ description: 'the PaRes the access-control page posted to your TermUrl' }),
      },
      { error: 'must be an object with pares' },
    ),
    example: { summary: '3-D Secure', value: { threeDS: { pares: 'eyJwYXltZW50Ijoi…' } } },
    async complete(_tx, p, body) {
      if (!body)
        throw fieldError(
          'threeDS.pares',
          'is required: the payment awaits 3-D Secure; send the PaRes that the access-control page ' +
            '(threeDS.acsUrl of the payment) posted to your TermUrl',
        )
      const pares = readPares(body.pares)
      if (!pares || pares.paymentRef !== p.id) throw fieldError('threeDS.pares', 'was not issued for this payment')
      return pares.passed ? { kind: 'approve' } : { kind: 'decline', reason: 'DECLINED_BY_MPI' }
    },
  },
  timelineEvent: 'threeDS',
})

export default threeDSFlow
