// What the dashboard shows of a site's payments: the list (newest first, by cursor, searchable), and a
// payment with its captures, refunds, notifications and audit entries as one timeline. Reads only; every
// change goes through the services the API uses (lib/dashboard/dashboard-actions.ts).
import { notificationsOfResources } from '../notifications/notification-store'
import { capturesOfPayment } from '../payments/capture-store'
import { flowOf } from '../payments/flows'
import { findPayment } from '../payments/payment-service'
import { paymentAudit } from './audit-store'
import { listPaymentRows, type Payment, type PaymentListRow } from '../payments/payment-store'
import { refundsOfPayment } from '../payments/refund-store'
import { decodeCursor, pageOf } from './dashboard-cursor'
import { sinceFilter } from './list-since'
import { siteClock } from '../sites/site-store'
import { PAYMENT_STATUSES as WIRE_PAYMENT_STATUSES } from '../payments/payment-wire'
import { sbpPaymentDetails as sbpDetailsOf, type SbpPaymentDetails } from '../sbp/qr-code-service'

/** the list's status filter: the statuses a payment has (the API's), no other */
export const PAYMENT_STATUSES = WIRE_PAYMENT_STATUSES
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]
export const PAGE_SIZE = 20

/** the longest search run: an id is at most 200 characters */
export const SEARCH_MAX = 200

/**
 * Characters no payment id, bill id or card digits hold, and that a search box does not send: control
 * characters (C0, DEL, C1; PostgreSQL's text cannot even carry NUL) and lone surrogates.
 */
const UNSEARCHABLE = /[\p{Cc}\p{Cs}]/u
const UNSEARCHABLE_ALL = /[\p{Cc}\p{Cs}]/gu

/**
 * A search as the page got it: the text searched for (trimmed, at most SEARCH_MAX characters, never a
 * pair of surrogates cut in two), or `refused` when it holds a character no search can (the list is then
 * not searched, and the page says so); `shown`: the text to give back in the search box, without those
 * characters.
 */
export function paymentSearch(raw: string): { search: string; refused: boolean; shown: string } {
  const cut = (text: string) => Array.from(text.trim()).slice(0, SEARCH_MAX).join('')
  // a line break or tab around the text (pasted with it) is no part of it
  const text = raw.trim()
  if (UNSEARCHABLE.test(text)) return { search: '', refused: true, shown: cut(text.replace(UNSEARCHABLE_ALL, '')) }
  const search = cut(text)
  return { search, refused: false, shown: search }
}

export interface PaymentListQuery {
  /** a payment id, a bill id, or a card's last four digits (one paymentSearch refuses is not run) */
  search?: string
  status?: PaymentStatus
  /** the cursor of the page's last row, as `nextCursor` gave it */
  after?: string
  /** made on this local day or after (list-since.ts) */
  since?: string
}

export type { PaymentListRow } from '../payments/payment-store'

export async function listPayments(
  siteId: string,
  q: PaymentListQuery,
): Promise<{ rows: PaymentListRow[]; nextCursor: string | null }> {
  const { search } = paymentSearch(q.search ?? '')
  const rows = await listPaymentRows(
    siteId,
    { search, status: q.status, cursor: decodeCursor(q.after), since: sinceFilter(q.since) },
    PAGE_SIZE + 1,
  )
  const { page, nextCursor } = pageOf(rows, PAGE_SIZE)
  return { rows: page, nextCursor }
}

/**
 * an entry of a payment's timeline, in codes and figures (the page puts them into its language): its kind, and for a
 * decline its reason, for a notification attempt what was sent and how it was answered, for a dashboard action who
 * did what and how it ended
 */
export type TimelineEvent = {
  at: Date
  kind: string
  reason?: string
  attempt?: { type: string; status: string; httpStatus: number | null; error: string | null; durationMs: number }
  audit?: { action: string; actor: string; outcome: string }
}

export interface PaymentDetails {
  payment: Payment
  captures: { captureId: string; amountMinor: bigint; status: string; statusReason: string | null; createdAt: Date }[]
  refunds: { refundId: string; amountMinor: bigint; status: string; statusReason: string | null; createdAt: Date }[]
  audit: { at: Date; actor: string; action: string; outcome: string; detail: unknown }[]
  timeline: TimelineEvent[]
  /** an SBP payment's code, the payer's bank and the FPS token its code bound (lib/sbp), if any */
  sbp: SbpPaymentDetails | null
}

/**
 * The site's payment (as the API reads it: due changes applied) with all that happened to it; null when the site has
 * none by that id.
 */
export async function paymentDetails(siteId: string, paymentId: string): Promise<PaymentDetails | null> {
  const payment = await findPayment(siteId, paymentId, await siteClock(siteId)).catch((e) => {
    if ((e as { status?: number }).status === 404) return null
    throw e
  })
  if (!payment) return null
  const [captures, refunds, audit, sbp] = await Promise.all([
    capturesOfPayment(payment.id),
    refundsOfPayment(payment.id),
    paymentAudit(siteId, payment.id),
    payment.methodType === 'SBP' ? sbpDetailsOf(payment) : null,
  ])
  // the payment's notifications, and its captures' and refunds'
  const notifications = await notificationsOfResources(siteId, [
    payment.id,
    ...captures.map((c) => c.id),
    ...refunds.map((r) => r.id),
  ])
  const timeline: TimelineEvent[] = [{ at: payment.createdAt, kind: 'created' }]
  // the payer-authentication flow it entered, if its flow shows one (3-D Secure, a one-time code)
  const entered = flowOf(payment.authFlow)?.timelineEvent
  if (entered) timeline.push({ at: payment.createdAt, kind: entered })
  if (payment.status === 'COMPLETED') timeline.push({ at: payment.statusChangedAt, kind: 'completed' })
  if (payment.status === 'DECLINED')
    timeline.push({ at: payment.statusChangedAt, kind: 'declined', reason: payment.statusReason ?? undefined })
  for (const c of captures)
    timeline.push({
      at: c.createdAt,
      kind: c.status === 'COMPLETED' ? 'captured' : 'captureDeclined',
      reason: c.statusReason ?? undefined,
    })
  for (const r of refunds) {
    // a postponed refund: asked for when made, then processed (or declined) later
    if (r.status === 'WAITING' || r.statusChangedAt.getTime() !== r.createdAt.getTime())
      timeline.push({ at: r.createdAt, kind: 'refundWaiting' })
    if (r.status !== 'WAITING')
      timeline.push({
        at: r.statusChangedAt,
        kind: r.status === 'COMPLETED' ? 'refunded' : 'refundDeclined',
        reason: r.statusReason ?? undefined,
      })
  }
  for (const n of notifications) {
    for (const a of n.attemptLog)
      timeline.push({
        at: a.at,
        kind: 'notification',
        attempt: { type: n.type, status: n.status, httpStatus: a.httpStatus, error: a.error, durationMs: a.durationMs },
      })
  }
  for (const a of audit)
    timeline.push({ at: a.at, kind: 'audit', audit: { action: a.action, actor: a.actor, outcome: a.outcome } })
  timeline.sort((a, b) => a.at.getTime() - b.at.getTime())
  return {
    payment,
    sbp,
    captures: captures.map((c) => ({
      captureId: c.captureId,
      amountMinor: c.amountMinor,
      status: c.status,
      statusReason: c.statusReason,
      createdAt: c.createdAt,
    })),
    refunds: refunds.map((r) => ({
      refundId: r.refundId,
      amountMinor: r.amountMinor,
      status: r.status,
      statusReason: r.statusReason,
      createdAt: r.createdAt,
    })),
    audit: audit.map((a) => ({ at: a.at, actor: a.actor, action: a.action, outcome: a.outcome, detail: a.detail })),
    timeline,
  }
}
