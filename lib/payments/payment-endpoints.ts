// The payment API's endpoints: path and body schemas wired to the services. Route files under
// app/api re-export these.
import { z } from 'zod'
import { apiRoute, endpoint } from '../http/api-route'
import { amountSchema, idSchema } from '../wire/common-schemas'
import { capturePayment, readCapture } from './capture-service'
import { paymentRequestSchema } from './payment-request'
import { createPayment, readPayment } from './payment-service'
import { listRefunds, readRefund, refundPayment } from './refund-service'

const paymentPath = z.object({ siteId: idSchema, paymentId: idSchema })
const capturePath = paymentPath.extend({ captureId: idSchema })
const refundPath = paymentPath.extend({ refundId: idSchema })

export const paymentRoute = apiRoute({
  PUT: endpoint({
    params: paymentPath,
    body: paymentRequestSchema,
    handle: ({ siteId, params, body }) => createPayment(siteId, params.paymentId, body),
  }),
  GET: endpoint({ params: paymentPath, handle: ({ siteId, params }) => readPayment(siteId, params.paymentId) }),
})

export const captureRoute = apiRoute({
  PUT: endpoint({
    params: capturePath,
    body: z.object({ amount: amountSchema.optional() }, { error: 'must be a JSON object' }),
    bodyOptional: true,
    handle: ({ siteId, params, body }) => capturePayment(siteId, params.paymentId, params.captureId, body.amount),
  }),
  GET: endpoint({ params: capturePath, handle: ({ siteId, params }) => readCapture(siteId, params.paymentId, params.captureId) }),
})

export const refundRoute = apiRoute({
  PUT: endpoint({
    params: refundPath,
    body: z.object({ amount: amountSchema }, { error: 'must be a JSON object' }),
    handle: ({ siteId, params, body }) => refundPayment(siteId, params.paymentId, params.refundId, body.amount),
  }),
  GET: endpoint({ params: refundPath, handle: ({ siteId, params }) => readRefund(siteId, params.paymentId, params.refundId) }),
})

export const refundListRoute = apiRoute({
  GET: endpoint({ params: paymentPath, handle: ({ siteId, params }) => listRefunds(siteId, params.paymentId) }),
})
