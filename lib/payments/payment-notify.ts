// A payment's, a capture's and a refund's notification written into the outbox (lib/notifications/outbox.ts)
// with the status change it tells of: its body rendered here (notification-body.ts), its URL the operation's
// callbackUrl, else (for a payment) its bill's customFields.invoice_callback_url.
import type { Capture } from './capture-store'
import type { Payment, Sql, Tx } from './payment-store'
import type { Refund } from './refund-store'
import { invoiceCallbackUrl } from '../notifications/callback-url'
import {
  insertNotification,
  notificationInsert,
  notificationsInsert,
  type NewNotification,
} from '../notifications/outbox'
import { captureNotificationBody, paymentNotificationBody, refundNotificationBody } from './notification-body'

const FINAL = new Set(['COMPLETED', 'DECLINED'])

/** A payment's notification, or null while its status is not final. */
function paymentNotification(p: Payment): NewNotification | null {
  if (!FINAL.has(p.status)) return null
  return {
    type: 'PAYMENT',
    siteId: p.siteId,
    resourceRef: p.id,
    resourceId: p.paymentId,
    status: p.status,
    target: p.callbackUrl ?? invoiceCallbackUrl(p.customFields),
    body: paymentNotificationBody(p),
  }
}

/** The INSERT of a payment's notification, or null while its status is not final. */
export function paymentNotificationInsert(p: Payment, gated = false): Sql | null {
  const n = paymentNotification(p)
  return n && notificationInsert(n, gated)
}

export async function notifyPayment(tx: Tx, p: Payment): Promise<void> {
  const insert = paymentNotificationInsert(p)
  if (insert) await insertNotification(tx, insert)
}

/** the notifications of several payments, in one statement */
export async function notifyPayments(tx: Tx, ps: Payment[]): Promise<void> {
  const list = ps.flatMap((p) => paymentNotification(p) ?? [])
  if (list.length) await insertNotification(tx, notificationsInsert(list))
}

export async function notifyCapture(tx: Tx, c: Capture, p: Payment): Promise<void> {
  await insertNotification(
    tx,
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

/** writes a refund's notification, once it is final (a postponed refund's when it is processed or declined) */
export async function notifyRefund(tx: Tx, r: Refund, p: Payment): Promise<void> {
  await insertNotification(tx, refundNotificationInsert(r, p))
}

/** The INSERT of a final refund's notification, alone or in a larger statement. */
export function refundNotificationInsert(r: Refund, p: Payment): Sql {
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
