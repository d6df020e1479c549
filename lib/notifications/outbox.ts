// Writing notifications, in the transaction of the status change they tell of: one row per target
// (the resource's callbackUrl and the site's URL), at most once per change (a unique key).
import type { Tx } from '../db/client'
import type { Capture, Payment, Refund } from '../generated/prisma/client'
import { renderCapture, renderPayment, renderRefund } from '../payments/payment-wire'
import { notificationBody, type NotificationType } from './signing'

const FINAL = new Set(['COMPLETED', 'DECLINED'])

async function enqueue(tx: Tx, n: { type: NotificationType; siteId: string; resourceRef: string; resourceId: string; status: string; callbackUrl: string | null; body: string }) {
  await tx.$executeRaw`
    INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt")
    SELECT gen_random_uuid(), ${n.siteId}, ${n.type}, ${n.resourceRef}::uuid, ${n.resourceId}, ${n.status}, u.url, ${n.body}, 'PENDING', now()
    FROM (SELECT ${n.callbackUrl}::text AS url WHERE ${n.callbackUrl}::text IS NOT NULL
          UNION SELECT "notifyUrl" FROM "Site" WHERE id = ${n.siteId} AND "notifyUrl" IS NOT NULL) u
    ON CONFLICT ("resourceRef", status, url) DO NOTHING`
}

export async function notifyPayment(tx: Tx, p: Payment): Promise<void> {
  if (!FINAL.has(p.status)) return
  await enqueue(tx, { type: 'PAYMENT', siteId: p.siteId, resourceRef: p.id, resourceId: p.paymentId, status: p.status, callbackUrl: p.callbackUrl, body: notificationBody('PAYMENT', renderPayment(p)) })
}

export async function notifyCapture(tx: Tx, c: Capture): Promise<void> {
  await enqueue(tx, { type: 'CAPTURE', siteId: c.siteId, resourceRef: c.id, resourceId: c.captureId, status: c.status, callbackUrl: c.callbackUrl, body: notificationBody('CAPTURE', renderCapture(c)) })
}

export async function notifyRefund(tx: Tx, r: Refund): Promise<void> {
  await enqueue(tx, { type: 'REFUND', siteId: r.siteId, resourceRef: r.id, resourceId: r.refundId, status: r.status, callbackUrl: r.callbackUrl, body: notificationBody('REFUND', renderRefund(r)) })
}
