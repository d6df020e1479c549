// Notification signatures, as the production protocol signs them: header `Signature`, lowercase hex
// HMAC-SHA256 with the site's notification secret over `id|createdDateTime|amount.value`, the values
// exactly as in the body. The secret is derived from the service key and the site's secret version,
// so it is never stored; setting a new URL with the site command makes (and shows) a new one.
import { createHmac } from 'node:crypto'
import { sign } from '../security/keyed-hash'

export const siteSecret = (siteId: string, version: number) => `whsec_${sign('notify-secret', `${siteId}:${version}`)}`

export type NotificationType = 'PAYMENT' | 'CAPTURE' | 'REFUND'

const ID_FIELD: Record<NotificationType, string> = { PAYMENT: 'paymentId', CAPTURE: 'captureId', REFUND: 'refundId' }
const KEY: Record<NotificationType, string> = { PAYMENT: 'payment', CAPTURE: 'capture', REFUND: 'refund' }

/** `{"payment": {…}, "type": "PAYMENT", "version": "1"}` */
export function notificationBody(type: NotificationType, resource: Record<string, unknown>): string {
  return JSON.stringify({ [KEY[type]]: resource, type, version: '1' })
}

/** the signed text of a notification body */
export function signedText(body: string): string {
  const parsed = JSON.parse(body) as { type: NotificationType } & Record<string, any>
  const r = parsed[KEY[parsed.type]]
  return `${r[ID_FIELD[parsed.type]]}|${r.createdDateTime}|${r.amount.value}`
}

export const signatureOf = (secret: string, body: string) => createHmac('sha256', secret).update(signedText(body)).digest('hex')
