// The dashboard's "Resend" of a notification: POST /dashboard/actions/notifications/<id>/resend, through the
// API's wrapper (lib/http/api-route.ts: the service's own origin and the session required, errors in the
// contract's shape) and the API's own re-send (lib/dashboard/dashboard-notifications.ts).
import { z } from 'zod'
import { apiRoute, endpoint } from '../api/api-route'
import { resendFromDashboard } from './dashboard-notifications'

export const resendNotificationActionRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard',
    params: z.object({ notificationId: z.uuid('must be a notification id') }),
    handle: async ({ session, params }) => resendFromDashboard(session!, params.notificationId),
  }),
})
