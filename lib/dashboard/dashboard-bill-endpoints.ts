// "Create bill" in the dashboard: POST /dashboard/actions/bills/{billId}, the body the API's
// PUT .../bills/{billId} takes, parsed by the same schema (the same causes), run by the same service.
// Through the API's wrapper: the service's own origin and the session are required; the session's site
// is the only site it reaches. The bill id is the form's key: a form sent twice creates one bill.
import { z } from 'zod'
import { billRequestSchema } from '../bills/bill-request'
import { apiRoute, endpoint } from '../api/api-route'
import { idSchema } from '../wire/common-schemas'
import { createBillFromDashboard } from './dashboard-bills'

export const newBillRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard',
    params: z.object({ billId: idSchema }),
    body: billRequestSchema,
    handle: ({ session, params, body }) => createBillFromDashboard(session!, params.billId, body),
  }),
})
