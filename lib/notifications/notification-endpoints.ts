// The merchant's view of its notifications: GET /api/sites/{siteId}/notifications (the latest 100, with
// every attempt) and POST …/notifications/{notificationId}/resend.
import { z } from 'zod'
import { db } from '../db/client'
import type { Notification, NotificationAttempt } from '../generated/prisma/client'
import { incorrectInvocation, notFound } from '../http/api-error'
import { apiRoute, endpoint } from '../http/api-route'
import { paymentTime } from '../time/wire-time'
import { withPaymentToken } from './notification-body'
import { idSchema } from '../wire/common-schemas'

function render(n: Notification & { attemptLog: NotificationAttempt[] }) {
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
      // not while a delivery of it is under way (its lease holds, by the clock the workers claim by): that one's answer is coming.
      // The answer is read under the row lock the update took: a worker cannot deliver it in between, so it
      // says what the re-send did (PENDING), not how far a worker got since.
      const queued = await db().$transaction(async (tx) => {
        const count = await tx.$executeRaw`
          UPDATE "Notification" SET state = 'PENDING', "nextAttemptAt" = now(), "leaseUntil" = NULL
          WHERE id = ${params.notificationId}::uuid AND "siteId" = ${siteId} AND ("leaseUntil" IS NULL OR "leaseUntil" < now())`
        return count ? tx.notification.findUniqueOrThrow({ where: { id: params.notificationId }, include: withAttempts }) : null
      })
      if (!queued) {
        const exists = await db().notification.count({ where: { id: params.notificationId, siteId } })
        throw exists ? incorrectInvocation('A delivery of this notification is under way') : notFound('Notification')
      }
      return render(queued)
    },
  }),
})
