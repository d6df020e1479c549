// The merchant's view of its notifications: GET /api/sites/{siteId}/notifications (the latest 100, with
// every attempt; the next 100 by the cursor its Payin-Next-Cursor header gives) and
// POST …/notifications/{notificationId}/resend (lib/notifications/notification-resend.ts, which the dashboard's
// "Resend" runs too). Here, above the transport (lib/notifications/) and the resources whose bodies it shows as
// posted (lib/payments/notification-body.ts).
import { z } from 'zod'
import { apiRoute, endpoint } from './api-route'
import { Reply } from '../http/api-route'
import { fieldError } from '../http/api-error'
import { decodeCursor, encodeCursor } from '../dashboard/dashboard-cursor'
import { paymentTime, paymentTimeSchema } from '../time/wire-time'
import {
  captureNotificationSchema,
  paymentNotificationSchema,
  refundNotificationSchema,
  withPaymentToken,
} from '../payments/notification-body'
import { resendNotification, type NotificationWithAttempts } from '../notifications/notification-resend'
import { latestNotifications } from '../notifications/notification-store'
import { idSchema } from '../wire/common-schemas'
import { cardCheckNotificationSchema } from '../card-checks/card-check-wire'

export const notificationSchema = z
  .strictObject({
    notificationId: z.uuid(),
    type: z.enum(['PAYMENT', 'CAPTURE', 'REFUND', 'CHECK_CARD']),
    resourceId: z
      .string()
      .meta({ description: "the paymentId, captureId or refundId it tells of (a CHECK_CARD's: the requestUid)" }),
    status: z
      .enum(['COMPLETED', 'DECLINED'])
      .meta({ description: "the final status it tells of (a CHECK_CARD's: COMPLETED, whatever the card)" }),
    url: z.string().meta({ description: 'where it is posted (a callbackUrl as the request gave it)' }),
    state: z.enum(['PENDING', 'DELIVERED', 'FAILED']).meta({
      description:
        'PENDING: an attempt is due (nextAttemptDateTime); DELIVERED: a 2xx came back; FAILED: every retry failed',
    }),
    attempts: z.int().min(0),
    createdDateTime: paymentTimeSchema,
    deliveredDateTime: paymentTimeSchema.optional(),
    nextAttemptDateTime: paymentTimeSchema.optional(),
    body: z
      .union([
        paymentNotificationSchema,
        captureNotificationSchema,
        refundNotificationSchema,
        cardCheckNotificationSchema,
      ])
      .meta({ description: 'the body as posted, parsed' }),
    rawBody: z.string().meta({
      description: 'the exact text posted, which the signatures cover (`body` re-serialises its numbers: 60.50 → 60.5)',
    }),
    attemptLog: z
      .array(
        z.strictObject({
          dateTime: paymentTimeSchema,
          httpStatus: z.int().optional().meta({ description: "the receiver's answer; absent when none came" }),
          durationMs: z.int().min(0),
          error: z.string().optional().meta({
            description: 'why the attempt failed, when it did without an answer (a timeout, a refused address, …)',
          }),
        }),
      )
      .meta({ description: 'every attempt, oldest first' }),
  })
  .meta({ id: 'Notification', description: 'a notification of the site and its deliveries' })
type NotificationAnswer = z.input<typeof notificationSchema>

export const notificationListSchema = z
  .array(notificationSchema)
  .meta({ id: 'NotificationList', description: 'the latest 100, newest first (or the 100 after `cursor`)' })

/** a page of the list: as many as the first page has always held */
const PAGE = 100
/** the header that carries the next page's cursor, when there are more: the body stays the array it always was */
export const NEXT_CURSOR_HEADER = 'Payin-Next-Cursor'
const cursorSchema = z.string().max(200)

function render(n: NotificationWithAttempts): NotificationAnswer {
  const posted = withPaymentToken(n.body, n.type, n.resourceRef)
  return {
    notificationId: n.id,
    type: n.type as NotificationAnswer['type'],
    resourceId: n.resourceId,
    status: n.status as NotificationAnswer['status'],
    url: n.url,
    state: n.state as NotificationAnswer['state'],
    attempts: n.attempts,
    createdDateTime: paymentTime(n.createdAt),
    deliveredDateTime: n.deliveredAt ? paymentTime(n.deliveredAt) : undefined,
    nextAttemptDateTime: n.state === 'PENDING' ? paymentTime(n.nextAttemptAt) : undefined,
    body: JSON.parse(posted),
    rawBody: posted,
    attemptLog: n.attemptLog.map((a) => ({
      dateTime: paymentTime(a.at),
      httpStatus: a.httpStatus ?? undefined,
      durationMs: a.durationMs,
      error: a.error || undefined,
    })),
  }
}

const T = '2026-11-23T12:04:05.120+00:00'
const notificationExample = {
  notificationId: '6a1f0c2e-8b3d-4e5f-9a7b-1c2d3e4f5a6b',
  type: 'PAYMENT',
  resourceId: 'order-1001',
  status: 'COMPLETED',
  url: 'https://shop.example/payin-hook',
  state: 'DELIVERED',
  attempts: 2,
  createdDateTime: T,
  deliveredDateTime: '2026-11-23T12:04:10.311+00:00',
  body: {
    payment: {
      type: 'PAYMENT',
      paymentId: 'order-1001',
      createdDateTime: '2026-11-23T12:04:05+00:00',
      amount: { value: 60.5, currency: 'RUB' },
      status: { value: 'SUCCESS', changedDateTime: '2026-11-23T12:04:05+00:00' },
      billId: '6b0c2d1e-3f4a-4b5c-8d6e-7f8091a2b3c4',
      paymentMethod: {
        type: 'CARD',
        maskedPan: '411111******1111',
        rrn: '482913750164',
        authCode: '305918',
        cardHolder: null,
        cardExpireDate: '12/2030',
      },
      paymentCardInfo: {
        issuingCountry: '643',
        issuingBank: 'Payin Sandbox Bank',
        paymentSystem: 'VISA',
        fundingSource: 'CREDIT',
        paymentSystemProduct: 'F|Visa Classic',
      },
      merchantSiteUid: 'demo',
      customer: {},
      gatewayData: { type: 'ACQUIRING', eci: '7', authCode: '305918', rrn: '482913750164' },
      customFields: {},
      flags: ['SALE'],
    },
    type: 'PAYMENT',
    version: '1',
  },
  rawBody: '{"payment":{"type":"PAYMENT","paymentId":"order-1001",…},"type":"PAYMENT","version":"1"}',
  attemptLog: [
    { dateTime: '2026-11-23T12:04:05.160+00:00', httpStatus: 500, durationMs: 12 },
    { dateTime: '2026-11-23T12:04:10.311+00:00', httpStatus: 200, durationMs: 9 },
  ],
}

export const notificationsRoute = apiRoute({
  GET: endpoint({
    params: z.object({ siteId: idSchema }),
    response: notificationListSchema,
    doc: {
      operationId: 'listNotifications',
      tag: 'Notifications',
      summary: "List the site's notifications",
      description:
        'The latest 100, newest first, each with its body as posted and every delivery attempt. The bodies are those of the webhooks below. ' +
        'When there are more, the `Payin-Next-Cursor` header holds the cursor of the next 100: `?cursor=` with it answers those, ' +
        'older than every one listed so far (none is listed twice; one written while a page was read, in a transaction ' +
        'that began before that page, may be dated before its cursor and then is not on a later page; paging again from ' +
        'the first page finds it). A cursor that is not well-formed is a 400.',
      query: {
        cursor: { description: 'the `Payin-Next-Cursor` of the previous page (opaque)', schema: cursorSchema },
      },
      responseHeaders: {
        [NEXT_CURSOR_HEADER]: {
          description: 'the cursor of the next page (`?cursor=`), when there are more',
          schema: cursorSchema,
        },
      },
      responseExamples: { delivered: { summary: 'Delivered at the second attempt', value: [notificationExample] } },
    },
    handle: async ({ siteId, req }) => {
      const given = new URL(req.url).searchParams.get('cursor')
      const cursor = given === null ? null : decodeCursor(given)
      if (given !== null && !cursor) throw fieldError('cursor', 'must be a Payin-Next-Cursor this service gave')
      // one past the page: whether there are more
      const rows = await latestNotifications(siteId, PAGE + 1, cursor)
      const page = rows.slice(0, PAGE).map(render)
      if (rows.length <= PAGE) return page
      const last = rows[PAGE - 1]
      return new Reply(page, { [NEXT_CURSOR_HEADER]: encodeCursor({ createdAt: last.createdAt, id: last.id }) })
    },
  }),
})

export const resendRoute = apiRoute({
  POST: endpoint({
    params: z.object({ siteId: idSchema, notificationId: z.uuid('must be a notification id') }),
    response: notificationSchema,
    doc: {
      operationId: 'resendNotification',
      tag: 'Notifications',
      summary: 'Post a notification again',
      description: 'Queues it again (PENDING, due now) whatever its state; 409 while a delivery of it is under way.',
      errors: ['payin.resource.not.found', 'payin.incorrect-method-invocation'],
      responseExamples: {
        queued: {
          summary: 'Queued',
          value: {
            ...notificationExample,
            state: 'PENDING',
            deliveredDateTime: undefined,
            nextAttemptDateTime: '2026-11-23T12:10:00.000+00:00',
          },
        },
      },
    },
    handle: async ({ siteId, params }) => render(await resendNotification(siteId, params.notificationId)),
  }),
})
