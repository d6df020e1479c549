// Writing notifications, in the transaction (or the statement) of the status change they tell of:
// at most once per change (a unique key), to exactly one URL — the operation's callbackUrl, else (for
// a payment) its bill's customFields.invoice_callback_url, else the site's notification URL; none
// when there is none of these. Its times (created, due) are on the site's sandbox clock.
import type { Tx } from '../db/client'
import { Prisma, type Capture, type Payment, type Refund } from '../generated/prisma/client'
import { offsetInterval, siteOffset } from '../sandbox/site-clock'
import { invoiceCallbackUrl } from './callback-url'
import {
  captureNotificationBody,
  paymentNotificationBody,
  refundNotificationBody,
  type NotificationType,
} from './notification-body'

const FINAL = new Set(['COMPLETED', 'DECLINED'])

interface NewNotification {
  type: NotificationType
  siteId: string
  resourceRef: string
  resourceId: string
  status: string
  /** where it goes instead of the site's URL, if anywhere */
  target: string | null
  body: string
}

/**
 * The INSERT of a change's notification (none when no URL is known), alone or in a larger statement;
 * with `gated`, a part that writes only through the CTE `gate` (see DeferredAuth in lib/http/api-route.ts).
 */
function notificationInsert(n: NewNotification, gated = false): Prisma.Sql {
  // dated on the site's clock: in a write of the site (lib/sandbox/site-write.ts siteWrite) the site's row
  // holds the clock the write has, kept still by the site's gate; through the gate of a statement, on the
  // offset that gate was judged on (the CTE `gate`: lib/sites/site-tokens.ts writeWithTokenCheck)
  const at = gated ? Prisma.sql`now() + ${offsetInterval('gate.off')}` : Prisma.sql`u.at`
  return Prisma.sql`
    INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt", "createdAt")
    SELECT gen_random_uuid(), ${n.siteId}, ${n.type}, ${n.resourceRef}::uuid, ${n.resourceId}, ${n.status}, u.url, ${n.body}, 'PENDING', ${at}, ${at}
    FROM (SELECT coalesce(${n.target}::text, s."notifyUrl") AS url, now() + ${siteOffset('s')} AS at
          FROM (SELECT 1) one LEFT JOIN "Site" s ON s.id = ${n.siteId}) u${gated ? Prisma.sql`, gate` : Prisma.empty}
    WHERE u.url IS NOT NULL
    ON CONFLICT ("resourceRef", status, url) DO NOTHING`
}

/** The INSERT of a payment's notification, or null while its status is not final. */
export function paymentNotificationInsert(p: Payment, gated = false): Prisma.Sql | null {
  if (!FINAL.has(p.status)) return null
  return notificationInsert(
    {
      type: 'PAYMENT',
      siteId: p.siteId,
      resourceRef: p.id,
      resourceId: p.paymentId,
      status: p.status,
      target: p.callbackUrl ?? invoiceCallbackUrl(p.customFields),
      body: paymentNotificationBody(p),
    },
    gated,
  )
}

export async function notifyPayment(tx: Tx, p: Payment): Promise<void> {
  const insert = paymentNotificationInsert(p)
  if (insert) await tx.$executeRaw(insert)
}

export async function notifyCapture(tx: Tx, c: Capture, p: Payment): Promise<void> {
  await tx.$executeRaw(
    notificationInsert({
      type: 'CAPTURE',
      siteId: c.siteId,
      resourceRef: c.id,
      resourceId: c.captureId,
      status: c.status,
      target: c.callbackUrl,
      body: captureNotificationBody(c, p),
    }),
  )
}

/** The INSERT of a refund's notification (a refund is final when written), alone or in a larger statement. */
export function refundNotificationInsert(r: Refund, p: Payment): Prisma.Sql {
  return notificationInsert({
    type: 'REFUND',
    siteId: r.siteId,
    resourceRef: r.id,
    resourceId: r.refundId,
    status: r.status,
    target: r.callbackUrl,
    body: refundNotificationBody(r, p),
  })
}
