// What the dashboard shows of a site's notifications: the deliveries, newest first, a page at a time (by
// cursor), and one delivery with every attempt and the body exactly as posted; and "Resend", through the
// very function the API's re-send runs (lib/notifications/notification-resend.ts), recorded in the audit
// log. A notification's resourceId is its own object's id: a payment's paymentId, a capture's captureId, a
// refund's refundId; the payment it belongs to (for the link to the payment's page) is read by its row.
import { notificationSchema } from '../api/notification-endpoints'
import { ApiError } from '../http/api-error'
import { withPaymentToken } from '../payments/notification-body'
import { resendNotification } from '../notifications/notification-resend'
import {
  listSiteNotifications,
  notificationPayment,
  siteNotification,
  type NotificationListSqlRow,
} from '../notifications/notification-store'
import { auditOf } from './audit-store'
import { paymentTime } from '../time/wire-time'
import { auditableUrl, recordAudit } from './dashboard-audit'
import type { DashboardSession } from './dashboard-session'
import { decodeCursor, pageOf, UUID } from './dashboard-cursor'
import { sinceFilter } from './list-since'

export const NOTIFICATIONS_PAGE_SIZE = 20

/** a row of the list: the store's, its last attempt's columns as one object */
export type NotificationListRow = Omit<
  NotificationListSqlRow,
  'lastAt' | 'lastHttpStatus' | 'lastDurationMs' | 'lastError'
> & { lastAttempt: NotificationAttemptRow | null }

/** one delivery attempt: its time, the receiver's status (none when it did not answer), how long, why it failed */
export interface NotificationAttemptRow {
  at: Date
  httpStatus: number | null
  durationMs: number
  error: string | null
}

/** the list's state filter: the states a notification has (the API's), no other */
export const NOTIFICATION_STATES = notificationSchema.shape.state.options
export type NotificationState = (typeof NOTIFICATION_STATES)[number]

/** The site's notifications, newest first, after the cursor `after` (as `nextCursor` gave it); of a state, if given. */
export async function listNotifications(
  siteId: string,
  after?: string,
  state?: NotificationState,
  since?: string,
): Promise<{ rows: NotificationListRow[]; nextCursor: string | null }> {
  const rows = await listSiteNotifications(
    siteId,
    decodeCursor(after),
    NOTIFICATIONS_PAGE_SIZE + 1,
    state,
    sinceFilter(since),
  )
  const { page, nextCursor } = pageOf(rows, NOTIFICATIONS_PAGE_SIZE)
  return {
    rows: page.map(({ lastAt, lastHttpStatus, lastDurationMs, lastError, ...n }) => ({
      ...n,
      lastAttempt: lastAt
        ? { at: lastAt, httpStatus: lastHttpStatus, durationMs: lastDurationMs ?? 0, error: lastError }
        : null,
    })),
    nextCursor,
  }
}

/**
 * JSON text indented for reading, every token kept as written (a number stays `60.50`, where
 * JSON.parse and JSON.stringify would make it `60.5`): only whitespace is added, outside strings.
 */
export function indentJson(text: string, indent = '  '): string {
  let out = ''
  let depth = 0
  let inString = false
  const newline = () => `\n${indent.repeat(depth)}`
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      out += ch
      if (ch === '\\') out += text[++i] ?? ''
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '"') {
      inString = true
      out += ch
    } else if (ch === '{' || ch === '[') {
      // an empty object or array stays on its line
      const close = ch === '{' ? '}' : ']'
      if (text[i + 1] === close) {
        out += ch + close
        i++
      } else {
        depth++
        out += ch + newline()
      }
    } else if (ch === '}' || ch === ']') {
      depth = Math.max(0, depth - 1)
      out += newline() + ch
    } else if (ch === ',') out += `,${newline()}`
    else if (ch === ':') out += ': '
    else if (!/\s/.test(ch)) out += ch
  }
  return out
}

export interface NotificationDetails extends Omit<NotificationListRow, 'lastAttempt'> {
  deliveredAt: Date | null
  /** when the next attempt is due (PENDING only) */
  nextAttemptAt: Date | null
  attemptLog: NotificationAttemptRow[]
  /** the exact text posted (the payment token filled in, as the worker sends it), indented */
  body: string
  audit: { at: Date; actor: string; action: string; outcome: string }[]
}

/** One of the site's notifications with all that happened to it; null when the site has none by that id. */
export async function notificationDetails(siteId: string, notificationId: string): Promise<NotificationDetails | null> {
  if (!UUID.test(notificationId)) return null
  const n = await siteNotification(siteId, notificationId)
  if (!n) return null
  const [payment, audit] = await Promise.all([notificationPayment(n.id), auditOf(siteId, 'resend', n.id)])
  return {
    id: n.id,
    type: n.type,
    resourceId: n.resourceId,
    paymentId: payment?.paymentId ?? null,
    status: n.status,
    url: n.url,
    state: n.state,
    attempts: n.attempts,
    createdAt: n.createdAt,
    deliveredAt: n.deliveredAt,
    nextAttemptAt: n.state === 'PENDING' ? n.nextAttemptAt : null,
    attemptLog: n.attemptLog.map((a) => ({
      at: a.at,
      httpStatus: a.httpStatus,
      durationMs: a.durationMs,
      error: a.error,
    })),
    body: indentJson(withPaymentToken(n.body, n.type, n.resourceRef)),
    audit: audit.map((a) => ({ at: a.at, actor: a.actor, action: a.action, outcome: a.outcome })),
  }
}

export interface ResendAnswer {
  notificationId: string
  state: string
  attempts: number
  nextAttemptDateTime: string
}

/**
 * "Resend": the API's re-send (the same refusals: 404 for a notification the site does not have, 409
 * while a delivery of it is under way), recorded in the audit log — a refusal too — under the
 * notification's id, and on its payment's page.
 */
export async function resendFromDashboard(session: DashboardSession, notificationId: string): Promise<ResendAnswer> {
  const audit = async (outcome: string, detail?: Record<string, string>) => {
    const payment = await notificationPayment(notificationId)
    await recordAudit(session, {
      action: 'resend',
      subject: notificationId,
      paymentRef: payment?.paymentRef ?? null,
      outcome,
      detail,
    })
  }
  let n
  try {
    n = await resendNotification(session.siteId, notificationId)
  } catch (e) {
    // a notification of another site (or none) is not the session's to log anything about
    if (e instanceof ApiError && e.status !== 404) await audit(`refused: ${e.description}`)
    throw e
  }
  await audit(n.state, { type: n.type, resourceId: n.resourceId, url: auditableUrl(n.url) })
  return {
    notificationId: n.id,
    state: n.state,
    attempts: n.attempts,
    nextAttemptDateTime: paymentTime(n.nextAttemptAt),
  }
}
