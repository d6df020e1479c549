// The API's routes as plain data, for the code that must know them without loading the handlers (the
// front door's 405, the metrics' route templates): each path template (relative to a prefix) and its
// methods, in the order its handlers name them in their own 405's Allow. lib/openapi/api-document.ts's
// API_ROUTES holds the handlers themselves; a unit test (tests/unit/front-door.test.ts) keeps the two equal.

/** where the API answers: `/api`, and the protocol's aliases (next.config.mjs rewrites them to /api) */
export const API_PREFIXES = ['/api', '/partner/payin/v1', '/partner/v1'] as const

export const API_ROUTE_METHODS: Readonly<Record<string, readonly string[]>> = {
  '/sites/{siteId}/payments/{paymentId}': ['PUT', 'GET'],
  '/sites/{siteId}/payments/{paymentId}/complete': ['POST'],
  '/sites/{siteId}/payments/{paymentId}/captures/{captureId}': ['PUT', 'GET'],
  '/sites/{siteId}/payments/{paymentId}/refunds/{refundId}': ['PUT', 'GET'],
  '/sites/{siteId}/payments/{paymentId}/refunds/{refundId}/decline': ['POST'],
  '/sites/{siteId}/payments/{paymentId}/refunds': ['GET'],
  '/sites/{siteId}/bills/{billId}': ['PUT', 'GET'],
  '/sites/{siteId}/bills/{billId}/details': ['GET'],
  '/sites/{siteId}/notifications': ['GET'],
  '/sites/{siteId}/notifications/{notificationId}/resend': ['POST'],
  '/sites/{siteId}/sandbox/clock': ['GET'],
  '/sites/{siteId}/sandbox/clock/advance': ['POST'],
  '/sites/{siteId}/sandbox/reset': ['POST'],
  '/sites/{siteId}/sbp/qrCodes': ['POST'],
  '/sites/{siteId}/sbp/qrCodes/{qrCodeUid}': ['PUT', 'GET'],
  '/sites/{siteId}/sbp/qrCodes/{qrCodeUid}/payments': ['POST'],
  '/sites/{siteId}/sandbox/sbp/{qrCodeUid}/pay': ['POST'],
  '/sites/{siteId}/sandbox/sbp/{qrCodeUid}/decline': ['POST'],
  '/sites/{siteId}/validation/card/requests/{requestUid}': ['PUT', 'GET'],
  '/sites/{siteId}/validation/card/requests/{requestUid}/complete': ['POST'],
  '/health': ['GET'],
  '/ready': ['GET'],
  '/metrics': ['GET'],
  '/openapi.json': ['GET'],
}
