// The production protocol's notification envelope, whatever the resource: `{"<object>": {…}, "type": "<TYPE>",
// "version": "1"}`, the object carrying its id under its own name. The resources render their bodies in it
// (lib/payments/notification-body.ts); signing reads the fields `Signature` covers by it.
import { stringifyJson } from '../http/json-text'

export type NotificationType = 'PAYMENT' | 'CAPTURE' | 'REFUND'

/** the body's key of each type's object, and the object's own id field */
export const OBJECT_KEY: Record<NotificationType, 'payment' | 'capture' | 'refund'> = {
  PAYMENT: 'payment',
  CAPTURE: 'capture',
  REFUND: 'refund',
}
export const ID_FIELD: Record<NotificationType, 'paymentId' | 'captureId' | 'refundId'> = {
  PAYMENT: 'paymentId',
  CAPTURE: 'captureId',
  REFUND: 'refundId',
}

/** the body's text: the object under its type's key, then the type and the version */
export const notificationEnvelope = (type: NotificationType, object: object): string =>
  stringifyJson({ [OBJECT_KEY[type]]: object, type, version: '1' })
