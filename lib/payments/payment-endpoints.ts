// The payment API's endpoints: path, body and answer schemas wired to the services, with what the
// OpenAPI document says of each. Route files under app/api re-export these.
import { z } from 'zod'
import { apiRoute, endpoint } from '../api/api-route'
import { amountSchema, idSchema } from '../wire/common-schemas'
import { callbackUrlSchema } from '../notifications/callback-url'
import { capturePayment, readCapture } from './capture-service'
import { completePayment } from './complete-service'
import { completeRequestExamples, completeRequestSchema } from './flows'
import { listed, methodRequestExamples, PAYMENT_METHODS } from './methods'
import { paymentRequestSchema } from './payment-request'
import { createPayment, readPayment } from './payment-service'
import { paymentRowSql, type Payment } from './payment-store'
import { declineRefund, listRefunds, readRefund, refundPayment } from './refund-service'
import { captureSchema, paymentSchema, refundListSchema, refundSchema } from './payment-wire'
import { splitListSchema } from '../splits/split-schema'
import { addSplitIssues, splitSumIssues } from '../splits/split-rules'
import { chequeRequestSchema } from '../receipts/cheque-schema'
import { addChequeIssues, chequeIssues } from '../receipts/cheque-rules'

const paymentPath = z.object({ siteId: idSchema, paymentId: idSchema })
const capturePath = paymentPath.extend({ captureId: idSchema })
const refundPath = paymentPath.extend({ refundId: idSchema })

const T = '2026-11-22T10:15:30.123+00:00'
const rub = (value: string) => ({ value, currency: 'RUB' })
/** what the registered methods charge: a card (`CARD`), … or a mobile-operator balance (`MOBILE`) */
const charges = listed(
  PAYMENT_METHODS.map((m) => `${m.charges} (\`${m.type}\`)`),
  'or',
)
/** a payment's answer for the examples; `over` replaces fields */
const paymentExample = (over: Record<string, unknown> = {}) => ({
  paymentId: 'order-1001',
  billId: '1f0c6a4e-3f7d-4c51-9a57-2d3b1c0e9f11',
  createdDateTime: T,
  amount: rub('100.00'),
  capturedAmount: rub('100.00'),
  refundedAmount: rub('0.00'),
  paymentMethod: { type: 'CARD', maskedPan: '411111******1111' },
  status: { value: 'COMPLETED', changedDateTime: T },
  flags: ['SALE'],
  ...over,
})

export const paymentRoute = apiRoute({
  PUT: endpoint({
    params: paymentPath,
    body: paymentRequestSchema,
    response: paymentSchema,
    doc: {
      operationId: 'createPayment',
      tag: 'Payments',
      summary: 'Create a payment',
      description: [
        `Charges ${charges}.`,
        'With `SALE` the payment is one-step (COMPLETED means captured); without it, COMPLETED means authorised: capture it later.',
        'A declined payment is not an error: it is created and answered 200 with `status.value` DECLINED and `status.reason`.',
        'A payment that needs the payer answers WAITING with `requirements` (3-D Secure or a one-time code): finish it with complete.',
        'Idempotent: the same `paymentId` with the same request answers the payment as it is now; with another request, 409.',
      ].join('\n\n'),
      errors: ['payin.resource.not.found', 'payin.request.conflict'],
      requestExamples: methodRequestExamples(),
      responseExamples: {
        completed: { summary: 'Approved (one-step)', value: paymentExample({ comment: 'Order 1001' }) },
        declined: {
          summary: 'Declined by the sandbox acquirer (card 4000000000009995)',
          value: paymentExample({
            capturedAmount: rub('0.00'),
            paymentMethod: { type: 'CARD', maskedPan: '400000******9995' },
            status: { value: 'DECLINED', changedDateTime: T, reason: 'ACQUIRING_INSUFFICIENT_FUNDS' },
          }),
        },
        threeDS: {
          summary: 'Waiting for 3-D Secure (card 4000000000003220)',
          value: paymentExample({
            capturedAmount: rub('0.00'),
            paymentMethod: { type: 'CARD', maskedPan: '400000******3220' },
            status: { value: 'WAITING', changedDateTime: T },
            requirements: { threeDS: { pareq: 'ZjM5YzJhMGQ1MWU4Yjdj', acsUrl: 'http://localhost:3000/acs' } },
          }),
        },
        otp: {
          summary: 'Waiting for a one-time code (mobile)',
          value: paymentExample({
            capturedAmount: rub('0.00'),
            paymentMethod: { type: 'MOBILE' },
            status: { value: 'WAITING', changedDateTime: T },
            requirements: { otp: 'Enter the code sent by SMS to +*******4567' },
          }),
        },
        token: {
          summary: 'Approved, with the token it issued',
          value: paymentExample({
            paymentMethod: { type: 'CARD', maskedPan: '555555******4444' },
            customer: { account: 'acc-1' },
            flags: ['SALE', 'BIND_PAYMENT_TOKEN'],
            createdToken: { token: 'pt_Xq3…', name: '555555******4444' },
          }),
        },
      },
    },
    // the token is checked in the payment's own statement when it is one (a card or phone payment naming no bill)
    deferredAuth: true,
    handle: ({ siteId, params, body, auth }) => createPayment(siteId, params.paymentId, body, undefined, auth),
  }),
  GET: endpoint({
    params: paymentPath,
    response: paymentSchema,
    doc: {
      operationId: 'readPayment',
      tag: 'Payments',
      summary: 'Read a payment',
      description:
        'The payment as it is now (a change that fell due, such as the mobile operator answering, is applied first).',
      errors: ['payin.resource.not.found'],
    },
    // the payment's row comes with the token check (one statement)
    preload: (params) => paymentRowSql(params.siteId, params.paymentId),
    handle: ({ siteId, params, preloaded, clock }) =>
      readPayment(siteId, params.paymentId, clock, preloaded as Payment | null | undefined),
  }),
})

export const completeRoute = apiRoute({
  POST: endpoint({
    params: paymentPath,
    body: completeRequestSchema,
    response: paymentSchema,
    doc: {
      operationId: 'completePayment',
      tag: 'Payments',
      summary: 'Finish payer authentication',
      description: [
        'A WAITING payment with `requirements.threeDS`: send the PaRes (a passed check completes it, a failed one declines it DECLINED_BY_MPI; a PaRes not issued for this payment is a 400).',
        'With `requirements.otp`: send the code. A wrong code is a 400 naming `otp.code` and the attempts left; the third declines it INVALID_OTP.',
        'Repeating a successful complete answers the payment unchanged; complete on a payment that never waited, or was declined, is a 409.',
      ].join('\n\n'),
      errors: ['payin.resource.not.found', 'payin.incorrect-method-invocation'],
      requestExamples: completeRequestExamples(),
      responseExamples: { completed: { summary: 'Completed', value: paymentExample() } },
    },
    handle: ({ siteId, params, body }) => completePayment(siteId, params.paymentId, body),
  }),
})

const captureRequestSchema = z
  .object(
    {
      amount: amountSchema.optional().meta({ description: 'at most the authorised amount; absent: all of it' }),
      callbackUrl: callbackUrlSchema
        .optional()
        .meta({ description: "where this capture's notification goes instead of the site's notification URL" }),
    },
    { error: 'must be a JSON object' },
  )
  .meta({ id: 'CaptureRequest', description: 'optional: an empty body captures the whole amount' })

const captureExample = {
  captureId: 'cap-1',
  createdDateTime: T,
  amount: rub('100.00'),
  status: { value: 'COMPLETED', changedDateTime: T },
}

export const captureRoute = apiRoute({
  PUT: endpoint({
    params: capturePath,
    body: captureRequestSchema,
    bodyOptional: true,
    response: captureSchema,
    doc: {
      operationId: 'capturePayment',
      tag: 'Captures',
      summary: 'Capture an authorised payment',
      description: [
        'Captures a two-step payment (one without SALE) that is COMPLETED (authorised): all it holds (its amount, less what partial reversals released), or `amount` of that. One successful capture per payment; beyond what it holds is DECLINED INVALID_AMOUNT. A payment with splits or a cheque is captured in full only (they add up to all it holds): less is DECLINED INVALID_AMOUNT too; a partial reversal naming refundSplits takes a part off first.',
        'A hold neither captured nor reversed confirms itself 72 hours after its authorisation (a site setting, 1 hour to 5 days: `npm run site -- holds <siteId> capture|reverse [<hours>]`, or the dashboard): captured in full (a capture `auto-…`, its CAPTURE notification), or reversed when the site says so (a refund `auto-…` with `flags: ["REVERSAL"]`, its REFUND notification), dated then on the site\'s clock.',
        'A capture of a one-step, declined, waiting or reversed payment is created DECLINED INVALID_STATE (200). A new capture of a payment already captured is a 409; an identical replay of the capture answers it.',
      ].join('\n\n'),
      errors: ['payin.resource.not.found', 'payin.request.conflict', 'payin.incorrect-method-invocation'],
      requestExamples: {
        whole: { summary: 'The whole amount', value: {} },
        part: { summary: 'A part of it', value: { amount: rub('60.00') } },
      },
      responseExamples: { completed: { summary: 'Captured', value: captureExample } },
    },
    handle: ({ siteId, params, body }) =>
      capturePayment(siteId, params.paymentId, params.captureId, body.amount, body.callbackUrl),
  }),
  GET: endpoint({
    params: capturePath,
    response: captureSchema,
    doc: {
      operationId: 'readCapture',
      tag: 'Captures',
      summary: 'Read a capture',
      errors: ['payin.resource.not.found'],
      responseExamples: { completed: { summary: 'Captured', value: captureExample } },
    },
    handle: ({ siteId, params }) => readCapture(siteId, params.paymentId, params.captureId),
  }),
})

const refundRequestSchema = z
  .object(
    {
      amount: amountSchema,
      callbackUrl: callbackUrlSchema
        .optional()
        .meta({ description: "where this refund's notification goes instead of the site's notification URL" }),
      refundSplits: splitListSchema.optional().meta({
        description:
          "a split payment's refund (required on one): what it takes back of each of the payment's splits (named by " +
          'siteUid, and by orderId when the payment has several of that siteUid; an orderId given must be its ' +
          "split's), adding up to amount.value in RUB, each at most what remains of its split after the refunds " +
          'before it',
      }),
      cheque: chequeRequestSchema.optional().meta({
        description:
          '54-FZ receipt data of the refund (chequeType COLLECT_RETURN, say), its positions adding up to amount.value; ' +
          'for a payment that charged a card. It tells chequeData once COMPLETED',
      }),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((r, ctx) => {
    addSplitIssues(ctx, splitSumIssues('refundSplits', r.refundSplits, r.amount))
    addChequeIssues(ctx, chequeIssues(r.cheque, r.amount))
  })
  .meta({ id: 'RefundRequest' })

const refundExample = {
  refundId: 'ref-1',
  createdDateTime: T,
  amount: rub('40.00'),
  status: { value: 'COMPLETED', changedDateTime: T },
  flags: [],
}

export const refundRoute = apiRoute({
  PUT: endpoint({
    params: refundPath,
    body: refundRequestSchema,
    response: refundSchema,
    doc: {
      operationId: 'refundPayment',
      tag: 'Refunds',
      summary: 'Refund a payment',
      description: [
        'Refunds a part or all of what was captured; any number of partial refunds. A refund beyond what is left is created DECLINED INVALID_AMOUNT (200).',
        'A refund of an authorised, uncaptured payment is a reversal: COMPLETED with `flags: ["REVERSAL"]`. A part of what it holds is a partial reversal: later captures take at most what remains. All that remains releases the hold, and later captures decline. More than it holds is DECLINED INVALID_AMOUNT.',
        "On a site whose refunds are postponed (`npm run site -- refunds <siteId> postponed`), a refund answers WAITING and completes at the next processing time, 21:00 Moscow time on the site's clock; until then it counts against what can be refunded and can be declined.",
      ].join('\n\n'),
      errors: ['payin.resource.not.found', 'payin.request.conflict'],
      requestExamples: { part: { summary: 'A partial refund', value: { amount: rub('40.00') } } },
      responseExamples: {
        completed: { summary: 'Refunded', value: refundExample },
        reversal: {
          summary: 'A reversal of an uncaptured payment',
          value: { ...refundExample, amount: rub('100.00'), flags: ['REVERSAL'] },
        },
      },
    },
    handle: ({ siteId, params, body }) =>
      refundPayment(siteId, params.paymentId, params.refundId, body.amount, body.callbackUrl, undefined, {
        refundSplits: body.refundSplits,
        cheque: body.cheque,
      }),
  }),
  GET: endpoint({
    params: refundPath,
    response: refundSchema,
    doc: {
      operationId: 'readRefund',
      tag: 'Refunds',
      summary: 'Read a refund',
      errors: ['payin.resource.not.found'],
      responseExamples: { completed: { summary: 'Refunded', value: refundExample } },
    },
    handle: ({ siteId, params }) => readRefund(siteId, params.paymentId, params.refundId),
  }),
})

export const refundDeclineRoute = apiRoute({
  POST: endpoint({
    params: refundPath,
    response: refundSchema,
    doc: {
      operationId: 'declineRefund',
      tag: 'Refunds',
      summary: 'Decline a postponed refund',
      description:
        'A WAITING (postponed) refund not yet processed becomes DECLINED with reason REFUND_DECLINED_BY_MERCHANT, and no longer counts against what can be refunded; its REFUND notification follows. A refund already COMPLETED or DECLINED: 409.',
      errors: ['payin.resource.not.found', 'payin.incorrect-method-invocation'],
      responseExamples: {
        declined: {
          summary: 'Declined',
          value: {
            ...refundExample,
            status: { value: 'DECLINED', changedDateTime: T, reason: 'REFUND_DECLINED_BY_MERCHANT' },
          },
        },
      },
    },
    handle: ({ siteId, params }) => declineRefund(siteId, params.paymentId, params.refundId),
  }),
})

export const refundListRoute = apiRoute({
  GET: endpoint({
    params: paymentPath,
    response: refundListSchema,
    doc: {
      operationId: 'listRefunds',
      tag: 'Refunds',
      summary: "List a payment's refunds",
      description: 'Oldest first; an empty array when it has none.',
      errors: ['payin.resource.not.found'],
      responseExamples: {
        two: {
          summary: 'Two partial refunds',
          value: [refundExample, { ...refundExample, refundId: 'ref-2', amount: rub('10.00') }],
        },
      },
    },
    handle: ({ siteId, params }) => listRefunds(siteId, params.paymentId),
  }),
})
