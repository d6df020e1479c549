// The bill API's endpoints (7, 8, 9), with what the OpenAPI document says of each. Route files under
// app/api re-export these.
import { z } from 'zod'
import { apiRoute, endpoint } from '../api/api-route'
import { idSchema } from '../wire/common-schemas'
import { billRequestSchema } from '../bills/bill-request'
import { billSchema } from '../bills/bill-wire'
import { billDetailsSchema, billPaymentListSchema } from './bill-details-wire'
import { createBill, listBillPayments, readBillDetails } from './bill-service'

const billPath = z.object({ siteId: idSchema, billId: idSchema })

const T = '2026-11-22T10:15:30+00:00'
const billExample = {
  siteId: 'demo',
  billId: 'bill-42',
  invoiceUid: 'c2286a4f-4ff2-4836-971e-b6afce51a049',
  amount: { value: '3.00', currency: 'RUB' },
  flags: ['SALE'],
  status: { value: 'CREATED', changedDateTime: T },
  comment: 'Text comment',
  creationDateTime: T,
  expirationDateTime: '2026-11-29T10:15:30+00:00',
  payUrl: 'http://localhost:3000/pay/c2286a4f-4ff2-4836-971e-b6afce51a049',
}
const billPaymentExample = {
  paymentId: '0b7f2c1e-5d7a-4c8e-9a3b-2f1d6e8c4a90',
  billId: 'bill-42',
  createdDateTime: '2026-11-22T10:20:01.512+00:00',
  amount: { value: '3.00', currency: 'RUB' },
  capturedAmount: { value: '3.00', currency: 'RUB' },
  refundedAmount: { value: '0.00', currency: 'RUB' },
  paymentMethod: { type: 'CARD', maskedPan: '411111******1111' },
  status: { value: 'COMPLETED', changedDateTime: '2026-11-22T10:20:01.512+00:00' },
  comment: 'Text comment',
  flags: ['SALE'],
}

export const billRoute = apiRoute({
  PUT: endpoint({
    params: billPath,
    body: billRequestSchema,
    response: billSchema,
    doc: {
      operationId: 'createBill',
      tag: 'Bills',
      summary: 'Create a bill',
      description: [
        'A bill with its payment page (`payUrl`), payable until `expirationDateTime`. Its payments follow its flags (SALE one-step, else two-step).',
        'CREATED → PAID when one of its payments completes; CREATED → EXPIRED once its deadline passes unpaid. An identical replay answers the bill as it is now (also after its deadline); another request with the same `billId` is a 409.',
      ].join('\n\n'),
      errors: ['payin.request.conflict'],
      requestExamples: {
        fixed: {
          summary: 'A bill of a fixed amount',
          value: {
            amount: { value: '3.00', currency: 'RUB' },
            expirationDateTime: '2026-11-29T10:15:30Z',
            comment: 'Text comment',
            flags: ['SALE'],
          },
        },
        open: {
          summary: 'The payer enters the amount; back to the shop after paying',
          value: {
            amount: { currency: 'RUB' },
            expirationDateTime: '2026-11-29T13:15:30+03:00',
            successUrl: 'https://shop.example/thanks',
            failedUrl: 'https://shop.example/sorry',
          },
        },
        methods: {
          summary: 'Its page offers the mobile balance only',
          value: {
            amount: { value: '3.00', currency: 'RUB' },
            expirationDateTime: '2026-11-29T10:15:30Z',
            flags: ['SALE'],
            billPaymentMethodsType: ['MOBILE'],
          },
        },
      },
      responseExamples: { created: { summary: 'Created', value: billExample } },
    },
    handle: ({ siteId, params, body, clock }) => createBill(siteId, params.billId, body, clock),
  }),
  GET: endpoint({
    params: billPath,
    response: billPaymentListSchema,
    doc: {
      operationId: 'listBillPayments',
      tag: 'Bills',
      summary: "List a bill's payments",
      description:
        'Oldest first (the payments of its payment page and those that named it as `billId`); without `siteId`, `createdToken` and `requirements`.',
      errors: ['payin.resource.not.found'],
      responseExamples: { paid: { summary: 'A paid bill', value: [billPaymentExample] } },
    },
    handle: ({ siteId, params }) => listBillPayments(siteId, params.billId),
  }),
})

export const billDetailsRoute = apiRoute({
  GET: endpoint({
    params: billPath,
    response: billDetailsSchema,
    doc: {
      operationId: 'readBill',
      tag: 'Bills',
      summary: 'Read a bill and its payments',
      errors: ['payin.resource.not.found'],
      responseExamples: {
        paid: {
          summary: 'A paid bill',
          value: {
            ...billExample,
            status: { value: 'PAID', changedDateTime: '2026-11-22T10:20:01+00:00' },
            payments: [{ siteId: 'demo', ...billPaymentExample }],
          },
        },
      },
    },
    handle: ({ siteId, params }) => readBillDetails(siteId, params.billId),
  }),
})
