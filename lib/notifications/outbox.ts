// Writing notifications, in the transaction of the status change they tell of: one row per target
// (the resource's callbackUrl and the site's URL), at most once per change (a unique key).
import type { Tx } from '../db/client'
import { Prisma, type Capture, type Payment, type Refund } from '../generated/prisma/client'
import { renderCapture, renderPayment, renderRefund } from '../payments/payment-wire'
import { notificationBody, type NotificationType } from './signing'

const FINAL = new Set(['COMPLETED', 'DECLINED'])

interface NewNotification {
  type: NotificationType
  siteId: string
  resourceRef: string
  resourceId: string
  status: string
  callbackUrl: string | null
  body: string
}

/** The INSERT of a change's notifications (none when neither target exists), alone or in a larger statement. */
function notificationInsert(n: NewNotification): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt")
    SELECT gen_random_uuid(), ${n.siteId}, ${n.type}, ${n.resourceRef}::uuid, ${n.resourceId}, ${n.status}, u.url, ${n.body}, 'PENDING', now()
    FROM (SELECT ${n.callbackUrl}::text AS url WHERE ${n.callbackUrl}::text IS NOT NULL
          UNION SELECT "notifyUrl" FROM "Site" WHERE id = ${n.siteId} AND "notifyUrl" IS NOT NULL) u
    ON CONFLICT ("resourceRef", status, url) DO NOTHING`
}

async function enqueue(tx: Tx, n: NewNotification) {
  await tx.$executeRaw(notificationInsert(n))
}

/** The INSERT of a payment's notifications, or null while its status is not final. */
export function paymentNotificationInsert(p: Payment): Prisma.Sql | null {
  if (!FINAL.has(p.status)) return null
  return notificationInsert({ type: 'PAYMENT', siteId: p.siteId, resourceRef: p.id, resourceId: p.paymentId, status: p.status, callbackUrl: p.callbackUrl, body: notificationBody('PAYMENT', renderPayment(p)) })
}

export async function notifyPayment(tx: Tx, p: Payment): Promise<void> {
  const insert = paymentNotificationInsert(p)
  if (insert) await tx.$executeRaw(insert)
}

export async function notifyCapture(tx: Tx, c: Capture): Promise<void> {
  await enqueue(tx, { type: 'CAPTURE', siteId: c.siteId, resourceRef: c.id, resourceId: c.captureId, status: c.status, callbackUrl: c.callbackUrl, body: notificationBody('CAPTURE', renderCapture(c)) })
}

/** The INSERT of a refund's notifications (a refund is final when written), alone or in a larger statement. */
export function refundNotificationInsert(r: Refund): Prisma.Sql {
  return notificationInsert({ type: 'REFUND', siteId: r.siteId, resourceRef: r.id, resourceId: r.refundId, status: r.status, callbackUrl: r.callbackUrl, body: notificationBody('REFUND', renderRefund(r)) })
}
