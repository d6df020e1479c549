// The payment API's endpoints: path and body schemas wired to the services. Route files under
// app/api re-export these.
import { z } from 'zod'
import { apiRoute, endpoint } from '../http/api-route'
import { amountSchema, idSchema } from '../wire/common-schemas'
import { callbackUrlSchema } from '../notifications/callback-url'
import { capturePayment, readCapture } from './capture-service'
import { completePayment } from './complete-service'
import { paymentRequestSchema } from './payment-request'
import type { Payment } from '../generated/prisma/client'
import { createPayment, paymentRowSql, readPayment } from './payment-service'
import { listRefunds, readRefund, refundPayment } from './refund-service'

const paymentPath = z.object({ siteId: idSchema, paymentId: idSchema })
const capturePath = paymentPath.extend({ captureId: idSchema })
const refundPath = paymentPath.extend({ refundId: idSchema })

export const paymentRoute = apiRoute({
  PUT: endpoint({
    params: paymentPath,
    body: paymentRequestSchema,
    // the token is checked in the payment's own statement when it is one (a card or phone payment naming no bill)
    deferredAuth: true,
    handle: ({ siteId, params, body, auth }) => createPayment(siteId, params.paymentId, body, undefined, auth),
  }),
  GET: endpoint({
    params: paymentPath,
    // the payment's row comes with the token check (one statement)
    preload: (params) => paymentRowSql(params.siteId, params.paymentId),
    handle: ({ siteId, params, preloaded }) => readPayment(siteId, params.paymentId, preloaded as Payment | null | undefined),
  }),
})

const completeRequestSchema = z
  .object(
    {
      threeDS: z.object({ pares: z.string({ error: 'is required' }).min(1, 'is required') }, { error: 'must be an object with pares' }).optional(),
      otp: z
        .object(
          {
            code: z.string({ error: 'is required' }).min(1, 'is required').max(32, 'is not a code'),
            otpProcessCode: z.string({ error: 'must be a string' }).max(256).optional(),
          },
          { error: 'must be an object with code' },
        )
        .optional(),
    },
    { error: 'must be a JSON object' },
  )
  .refine((r) => r.threeDS || r.otp, { message: 'threeDS or otp is required', path: ['otp'] })

export const completeRoute = apiRoute({
  POST: endpoint({
    params: paymentPath,
    body: completeRequestSchema,
    handle: ({ siteId, params, body }) => completePayment(siteId, params.paymentId, body),
  }),
})

export const captureRoute = apiRoute({
  PUT: endpoint({
    params: capturePath,
    body: z.object({ amount: amountSchema.optional(), callbackUrl: callbackUrlSchema.optional() }, { error: 'must be a JSON object' }),
    bodyOptional: true,
    handle: ({ siteId, params, body }) => capturePayment(siteId, params.paymentId, params.captureId, body.amount, body.callbackUrl),
  }),
  GET: endpoint({ params: capturePath, handle: ({ siteId, params }) => readCapture(siteId, params.paymentId, params.captureId) }),
})

export const refundRoute = apiRoute({
  PUT: endpoint({
    params: refundPath,
    body: z.object({ amount: amountSchema, callbackUrl: callbackUrlSchema.optional() }, { error: 'must be a JSON object' }),
    handle: ({ siteId, params, body }) => refundPayment(siteId, params.paymentId, params.refundId, body.amount, body.callbackUrl),
  }),
  GET: endpoint({ params: refundPath, handle: ({ siteId, params }) => readRefund(siteId, params.paymentId, params.refundId) }),
})

export const refundListRoute = apiRoute({
  GET: endpoint({ params: paymentPath, handle: ({ siteId, params }) => listRefunds(siteId, params.paymentId) }),
})
