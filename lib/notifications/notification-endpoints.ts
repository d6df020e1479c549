// The merchant's view of its notifications: GET /api/sites/{siteId}/notifications (the latest 100, with
// every attempt) and POST …/notifications/{notificationId}/resend.
import { z } from 'zod'
import { db } from '../db/client'
import type { Notification, NotificationAttempt } from '../generated/prisma/client'
import { notFound } from '../http/api-error'
import { apiRoute, endpoint } from '../http/api-route'
import { paymentTime } from '../time/wire-time'
import { idSchema } from '../wire/common-schemas'

function render(n: Notification & { attemptLog: NotificationAttempt[] }) {
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
    body: JSON.parse(n.body),
    attemptLog: n.attemptLog.map((a) => ({
      dateTime: paymentTime(a.at),
      ...(a.httpStatus !== null ? { httpStatus: a.httpStatus } : {}),
      durationMs: a.durationMs,
      ...(a.error ? { error: a.error } : {}),
    })),
  }
}

const withAttempts = { attemptLog: { orderBy: { at: 'asc' as const } } }

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
    handle: async ({ siteId, params }) => {
      const { count } = await db().notification.updateMany({
        where: { id: params.notificationId, siteId },
        data: { state: 'PENDING', nextAttemptAt: new Date(), leaseUntil: null },
      })
      if (!count) throw notFound('Notification')
      return render(await db().notification.findUniqueOrThrow({ where: { id: params.notificationId }, include: withAttempts }))
    },
  }),
})
