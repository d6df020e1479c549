// The merchant's view of its notifications: GET /api/sites/{siteId}/notifications (the latest 100, with
// every attempt) and POST …/notifications/{notificationId}/resend (lib/notifications/notification-resend.ts,
// which the dashboard's "Resend" runs too).
import { z } from 'zod'
import { db } from '../db/client'
import { apiRoute, endpoint } from '../http/api-route'
import { paymentTime } from '../time/wire-time'
import { withPaymentToken } from './notification-body'
import { resendNotification, withAttempts, type NotificationWithAttempts } from './notification-resend'
import { idSchema } from '../wire/common-schemas'

function render(n: NotificationWithAttempts) {
  const posted = withPaymentToken(n.body, n.type, n.resourceRef)
  return {
    notificationId: n.id,
    type: n.type,
    resourceId: n.resourceId,
    status: n.status,
    url: n.url,
    state: n.state,
    attempts: n.attempts,
    createdDateTime: paymentTime(n.createdAt),
    ...(n.deliveredAt ? { deliveredDateTime: paymentTime(n.deliveredAt) } : {}),
    ...(n.state === 'PENDING' ? { nextAttemptDateTime: paymentTime(n.nextAttemptAt) } : {}),
    body: JSON.parse(posted),
    // the exact text posted, which the signatures cover (`body` re-serialises its numbers: 60.50 → 60.5)
    rawBody: posted,
    attemptLog: n.attemptLog.map((a) => ({
      dateTime: paymentTime(a.at),
      ...(a.httpStatus !== null ? { httpStatus: a.httpStatus } : {}),
      durationMs: a.durationMs,
      ...(a.error ? { error: a.error } : {}),
    })),
  }
}

export const notificationsRoute = apiRoute({
  GET: endpoint({
    params: z.object({ siteId: idSchema }),
    handle: async ({ siteId }) => {
      const rows = await db().notification.findMany({ where: { siteId }, orderBy: { createdAt: 'desc' }, take: 100, include: withAttempts })
      return rows.map(render)
    },
  }),
})

export const resendRoute = apiRoute({
  POST: endpoint({
    params: z.object({ siteId: idSchema, notificationId: z.uuid('must be a notification id') }),
    handle: async ({ siteId, params }) => render(await resendNotification(siteId, params.notificationId)),
  }),
})
