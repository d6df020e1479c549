// The production protocol's notification envelope, whatever the resource: `{"<object>": {…}, "type": "<TYPE>",
// "version": "1"}`, the object carrying its id under its own name. The resources render their bodies in it
// (lib/payments/notification-body.ts); signing reads the fields `Signature` covers by it.
import { stringifyJson } from '../http/json-text'

export type NotificationType = 'PAYMENT' | 'CAPTURE' | 'REFUND' | 'CHECK_CARD'

/** the body's key of each type's object, and the object's own id field (a card verification's: production's) */
export const OBJECT_KEY: Record<NotificationType, 'payment' | 'capture' | 'refund' | 'checkPaymentMethod'> = {
  PAYMENT: 'payment',
  CAPTURE: 'capture',
  REFUND: 'refund',
  CHECK_CARD: 'checkPaymentMethod',
}
export const ID_FIELD: Record<NotificationType, 'paymentId' | 'captureId' | 'refundId' | 'requestUid'> = {
  PAYMENT: 'paymentId',
  CAPTURE: 'captureId',
  REFUND: 'refundId',
  CHECK_CARD: 'requestUid',
}

/** the body's text: the object under its type's key, then the type and the version */
export const notificationEnvelope = (type: NotificationType, object: object): string =>
  stringifyJson({ [OBJECT_KEY[type]]: object, type, version: '1' })
