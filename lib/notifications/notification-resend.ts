// Re-sending a notification: the one implementation behind the API's
// POST /api/sites/{siteId}/notifications/{notificationId}/resend and the dashboard's "Resend"
// (lib/dashboard/dashboard-notifications.ts). The row is queued again (PENDING, due now), whatever its
// state, unless a delivery of it is under way (its lease holds, by the clock the workers claim by):
// that one's answer is coming, and a second POST of it would only add to it.
// Plain database code: no framework imports.
import { db } from '../db/client'
import { siteWrite } from '../sandbox/site-write'
import type { Notification, NotificationAttempt } from '../generated/prisma/client'
import { incorrectInvocation, notFound } from '../http/api-error'

export type NotificationWithAttempts = Notification & { attemptLog: NotificationAttempt[] }

/** a notification's attempts, oldest first */
export const withAttempts = { attemptLog: { orderBy: { at: 'asc' as const } } }

/**
 * Queues the site's notification again and answers its row as the re-send left it. Throws the API's
 * errors: 404 when the site has no such notification, 409 (payin.incorrect-method-invocation) while a
 * delivery of it is under way.
 */
export async function resendNotification(siteId: string, notificationId: string): Promise<NotificationWithAttempts> {
  // The answer is read under the row lock the update took: a worker cannot deliver it in between, so it
  // says what the re-send did (PENDING), not how far a worker got since.
  // A write of the site (siteWrite): due now on its clock, a sandbox reset under way waited for.
  const queued = await siteWrite(siteId, async (tx, clock) => {
    const count = await tx.$executeRaw`
      UPDATE "Notification" n SET state = 'PENDING', "leaseUntil" = NULL,
        "nextAttemptAt" = now() + ${clock.offsetMs}::bigint * interval '1 millisecond'
      WHERE n.id = ${notificationId}::uuid AND n."siteId" = ${siteId} AND (n."leaseUntil" IS NULL OR n."leaseUntil" < now())`
    return count ? tx.notification.findUniqueOrThrow({ where: { id: notificationId }, include: withAttempts }) : null
  })
  if (!queued) {
    const exists = await db().notification.count({ where: { id: notificationId, siteId } })
    throw exists ? incorrectInvocation('A delivery of this notification is under way') : notFound('Notification')
  }
  return queued
}
