// Re-sending a notification: the one implementation behind the API's
// POST /api/sites/{siteId}/notifications/{notificationId}/resend and the dashboard's "Resend"
// (lib/dashboard/dashboard-notifications.ts). The row is queued again (PENDING, due now), whatever its
// state, unless a delivery of it is under way (its lease holds, by the clock the workers claim by):
// that one's answer is coming, and a second POST of it would only add to it.
// No framework imports; the statements are the notification store's.
import { siteWrite } from '../sandbox/site-write'
import { incorrectInvocation, notFound } from '../http/api-error'
import { requeue, siteHasNotification, type NotificationWithAttempts } from './notification-store'

export type { NotificationWithAttempts }

/**
 * Queues the site's notification again and answers its row as the re-send left it. Throws the API's
 * errors: 404 when the site has no such notification, 409 (payin.incorrect-method-invocation) while a
 * delivery of it is under way.
 */
export async function resendNotification(siteId: string, notificationId: string): Promise<NotificationWithAttempts> {
  // The answer is read under the row lock the update took: a worker cannot deliver it in between, so it
  // says what the re-send did (PENDING), not how far a worker got since.
  // A write of the site (siteWrite): due now on its clock, a sandbox reset under way waited for.
  const queued = await siteWrite(siteId, (tx, clock) => requeue(tx, siteId, notificationId, clock.offsetMs))
  if (!queued) {
    const exists = await siteHasNotification(siteId, notificationId)
    throw exists ? incorrectInvocation('A delivery of this notification is under way') : notFound('Notification')
  }
  return queued
}
