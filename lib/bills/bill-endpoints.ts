// The bill API's endpoints (7, 8, 9). Route files under app/api re-export these.
import { z } from 'zod'
import { apiRoute, endpoint } from '../http/api-route'
import { idSchema } from '../wire/common-schemas'
import { billRequestSchema } from './bill-request'
import { createBill, listBillPayments, readBillDetails } from './bill-service'

const billPath = z.object({ siteId: idSchema, billId: idSchema })

export const billRoute = apiRoute({
  PUT: endpoint({ params: billPath, body: billRequestSchema, handle: ({ siteId, params, body }) => createBill(siteId, params.billId, body) }),
  GET: endpoint({ params: billPath, handle: ({ siteId, params }) => listBillPayments(siteId, params.billId) }),
})

export const billDetailsRoute = apiRoute({
  GET: endpoint({ params: billPath, handle: ({ siteId, params }) => readBillDetails(siteId, params.billId) }),
})
