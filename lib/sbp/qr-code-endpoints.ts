// The SBP QR code API's endpoints (production's paths: …/sbp/qrCodes, …/sbp/qrCodes/{qrCodeUid}, its payments by
// FPS token) and the sandbox's bank-app endpoints for tests without a browser (…/sandbox/sbp/{qrCodeUid}/pay and
// /decline, off with SANDBOX_CLOCK=off). Route files under app/api re-export these.
import { z } from 'zod'
import { apiRoute, endpoint } from '../api/api-route'
import { unlessSwitchedOff } from '../sandbox/sandbox-endpoints'
import { idSchema } from '../wire/common-schemas'
import { qrCodeRequestSchema, tokenPaymentRequestSchema } from './qr-code-request'
import { actInBankApp, chosenBank, createQrCode, payByToken, readQrCodeAnswer } from './qr-code-service'
import { qrCodeAnswerSchema } from './qr-code-wire'
import { SANDBOX_BANKS } from './sandbox-banks'

const sitePath = z.object({ siteId: idSchema })
const qrCodePath = sitePath.extend({ qrCodeUid: idSchema })

const ON = '2026-11-27T12:00:00+03:00'
const PAYLOAD = 'http://localhost:3000/sbp/hD3k9Qw2xV7mN1pL5sT8yA'
const created = {
  qrCodeUid: 'qr-1001',
  amount: { value: '200.00', currency: 'RUB' },
  qrCode: {
    type: 'DYNAMIC',
    ttl: 60,
    image: { mediaType: 'image/png', width: 300, height: 300, content: 'iVBORw0KGgoAAAANSUhEUgAAASwAAAEsCAAAAAB…' },
    payload: PAYLOAD,
    status: 'CREATED',
  },
  paymentPurpose: 'Order 1001',
  redirectUrl: 'https://shop.example/thanks',
  createdOn: ON,
}
const request = {
  amount: { value: '200.00', currency: 'RUB' },
  qrCode: { type: 'DYNAMIC', ttl: 60, image: { mediaType: 'image/png', width: 300, height: 300 } },
  paymentPurpose: 'Order 1001',
  redirectUrl: 'https://shop.example/thanks',
}
const paid = {
  ...created,
  qrCode: { type: 'DYNAMIC', ttl: 60, payload: PAYLOAD, status: 'PAYED' },
  payment: { paymentUid: 'A22231710446971300200933E625FCB3', paymentStatus: 'COMPLETED' },
}

const CREATE_DESCRIPTION = [
  'A QR code of the Faster Payments System: `DYNAMIC` (one payment of `amount`, in RUB) or `TOKEN` (binds an FPS token to `tokenizationAccount`, no amount).',
  '`payload` opens the sandbox bank app (standing for the national QR link), where the payer pays or declines it; `image`, when asked for, is a PNG or SVG of that size that decodes to `payload`.',
  "A payment made from it is told in PAYMENT notifications with `qrCodeUid`. It expires `ttl` minutes after `createdOn` (on the site's clock) unpaid.",
]
const ERRORS: ('payin.resource.not.found' | 'payin.request.conflict')[] = [
  'payin.resource.not.found',
  'payin.request.conflict',
]

export const qrCodesRoute = apiRoute({
  POST: endpoint({
    params: sitePath,
    body: qrCodeRequestSchema,
    response: qrCodeAnswerSchema,
    doc: {
      operationId: 'createSbpQrCode',
      tag: 'SBP',
      summary: 'Create an SBP QR code',
      description: [
        ...CREATE_DESCRIPTION,
        "Under the body's `qrCodeUid` (idempotent as the PUT) or a generated one.",
      ].join('\n\n'),
      errors: ERRORS,
      requestExamples: {
        dynamic: { summary: 'A QR code for 200 roubles', value: { qrCodeUid: 'qr-1001', ...request } },
      },
      responseExamples: { created: { summary: 'Created', value: created } },
    },
    handle: ({ siteId, body }) => createQrCode(siteId, undefined, body),
  }),
})

export const qrCodeRoute = apiRoute({
  PUT: endpoint({
    params: qrCodePath,
    body: qrCodeRequestSchema,
    response: qrCodeAnswerSchema,
    doc: {
      operationId: 'putSbpQrCode',
      tag: 'SBP',
      summary: 'Create an SBP QR code under its id',
      description: [
        ...CREATE_DESCRIPTION,
        'Idempotent: the same request again answers the code as it is now; another request under the same id is a 409.',
      ].join('\n\n'),
      errors: ERRORS,
      requestExamples: {
        dynamic: { summary: 'A QR code for 200 roubles', value: request },
        token: {
          summary: 'A QR code that binds an FPS token',
          value: {
            qrCode: { type: 'TOKEN', image: { mediaType: 'image/svg+xml', width: 300, height: 300 } },
            tokenizationAccount: 'customer-42',
            tokenizationPurpose: 'Pay for your orders in one tap',
            flags: ['CREATE_TOKEN'],
          },
        },
      },
      responseExamples: { created: { summary: 'Created', value: created } },
    },
    handle: ({ siteId, params, body }) => createQrCode(siteId, params.qrCodeUid, body),
  }),
  GET: endpoint({
    params: qrCodePath,
    response: qrCodeAnswerSchema,
    doc: {
      operationId: 'readSbpQrCode',
      tag: 'SBP',
      summary: 'Read an SBP QR code',
      description:
        'Its status now (CREATED, INIT_PAYMENT_BY_TOKEN, PAYED, DECLINED, EXPIRED), its payment once it has one, and its FPS token once bound; without the image, as production answers.',
      errors: ['payin.resource.not.found'],
      responseExamples: { paid: { summary: 'Paid', value: paid } },
    },
    handle: ({ siteId, params, clock }) => readQrCodeAnswer(siteId, params.qrCodeUid, clock),
  }),
})

export const qrCodePaymentsRoute = apiRoute({
  POST: endpoint({
    params: qrCodePath,
    body: tokenPaymentRequestSchema,
    response: qrCodeAnswerSchema,
    doc: {
      operationId: 'paySbpQrCodeByToken',
      tag: 'SBP',
      summary: 'Pay a QR code with an FPS token',
      description: [
        "Pays the site's CREATED `DYNAMIC` code with an FPS token bound to `tokenizationAccount` on this site (another site's or account's token is a 400).",
        'Answers `INIT_PAYMENT_BY_TOKEN`; the emulated bank pays it after MOBILE_OPERATOR_DELAY_MS (PAYED, with its PAYMENT notification); no bank app is involved.',
      ].join('\n\n'),
      errors: ['payin.resource.not.found', 'payin.incorrect-method-invocation'],
      requestExamples: {
        token: {
          summary: 'By token',
          value: { tokenizationAccount: 'customer-42', token: 'c5ba4a05-21c9-4a36-…' },
        },
      },
      responseExamples: {
        started: {
          summary: 'Under way',
          value: {
            ...paid,
            qrCode: { ...paid.qrCode, status: 'INIT_PAYMENT_BY_TOKEN' },
            payment: { paymentUid: paid.payment.paymentUid, paymentStatus: 'WAITING' },
          },
        },
      },
    },
    handle: ({ siteId, params, body }) => payByToken(siteId, params.qrCodeUid, body),
  }),
})

const bankAppRequestSchema = z
  .object(
    {
      bankMemberId: z
        .enum(SANDBOX_BANKS.map((b) => b.memberId) as [string, ...string[]], {
          error: `must be one of ${SANDBOX_BANKS.map((b) => b.memberId).join(', ')}`,
        })
        .optional()
        .meta({ description: "the payer's bank (absent: the first sandbox bank)" }),
    },
    { error: 'must be a JSON object' },
  )
  .meta({ id: 'SandboxSbpAction' })

const bankAppEndpoint = (action: 'pay' | 'decline') =>
  apiRoute({
    POST: endpoint({
      params: qrCodePath,
      body: bankAppRequestSchema,
      bodyOptional: true,
      response: qrCodeAnswerSchema,
      doc: {
        operationId: action === 'pay' ? 'payInSandboxBankApp' : 'declineInSandboxBankApp',
        tag: 'Sandbox',
        summary: action === 'pay' ? 'Pay a QR code as the payer would' : 'Decline a QR code as the payer would',
        description: [
          action === 'pay'
            ? "What the bank app's Pay does, without a browser: a DYNAMIC code's payment is created COMPLETED (an SBP payment's code completes it), a TOKEN code binds its FPS token."
            : "What the bank app's Decline does, without a browser: the code's payment is DECLINED SBP_DECLINED_BY_PAYER.",
          'A code no longer CREATED is a 409. Off with SANDBOX_CLOCK=off (404).',
        ].join(' '),
        errors: ['payin.resource.not.found', 'payin.incorrect-method-invocation'],
        requestExamples: { bank: { summary: 'From the second sandbox bank', value: { bankMemberId: '100000000902' } } },
      },
      handle: async ({ siteId, params, body }) =>
        (await actInBankApp(siteId, params.qrCodeUid, action, chosenBank(body.bankMemberId, 'bankMemberId'))).answer,
    }),
  })

export const sandboxSbpPayRoute = unlessSwitchedOff(bankAppEndpoint('pay'))
export const sandboxSbpDeclineRoute = unlessSwitchedOff(bankAppEndpoint('decline'))
