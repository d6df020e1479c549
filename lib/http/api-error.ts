// The contract's error model: every non-2xx answer is one of these, rendered by lib/http/api-route.ts.
import { formatDateTime } from '../time/wire-time'

export type FieldErrors = Record<string, string[]>

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    readonly description: string,
    readonly userMessage: string,
    readonly cause?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(description)
  }
}

export const validationError = (cause: FieldErrors) =>
  new ApiError(400, 'validation.error', 'Validation error', 'Validation error', cause)

/** a single field's problem */
export const fieldError = (field: string, message: string) => validationError({ [field]: [message] })

export const malformedBody = (detail = 'Bad request') =>
  new ApiError(400, 'http.message.conversion.failed', detail, 'Bad request')

export const unauthorized = (description = 'Missing or unknown bearer token') =>
  new ApiError(401, 'auth.unauthorized', description, 'Unauthorized')

export const forbidden = (description = 'The token does not grant access to this site') =>
  new ApiError(403, 'auth.forbidden', description, 'Forbidden')

export const notFound = (what = 'Resource') =>
  new ApiError(404, 'payin.resource.not.found', `${what} not found`, 'Not found')

export const methodNotAllowed = (allowed: string[]) =>
  new ApiError(405, 'http.method.not.allowed', 'Method not allowed', 'Method not allowed', undefined, {
    Allow: allowed.join(', '),
  })

export const requestConflict = (what: string) =>
  new ApiError(
    409,
    'payin.request.conflict',
    `${what} already exists with a different request`,
    'The identifier is already used by another request',
  )

export const incorrectInvocation = (description: string) =>
  new ApiError(409, 'payin.incorrect-method-invocation', description, 'Cannot perform this operation')

export const payloadTooLarge = () =>
  new ApiError(413, 'http.payload.too.large', 'Request body exceeds 64 KiB', 'Payload too large')

export const unsupportedMediaType = () =>
  new ApiError(415, 'http.media.type.not.supported', 'Content-Type must be application/json', 'Unsupported media type')

export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate.limit.exceeded', 'Too many requests for this token', 'Too many requests', undefined, {
    'Retry-After': String(retryAfterSeconds),
  })

/** the service cannot answer now (its database, its schema, a shutdown): `description` says which */
export const serviceUnavailable = (description: string) =>
  new ApiError(503, 'service.unavailable', description, 'Service unavailable')

export const internalError = () =>
  new ApiError(500, 'internal.error', 'Internal error', 'Internal error')

/** the contract's error shape */
export function errorBody(err: ApiError, traceId: string) {
  return {
    serviceName: 'payin-core',
    errorCode: err.errorCode,
    description: err.description,
    userMessage: err.userMessage,
    dateTime: formatDateTime(new Date(), true),
    traceId,
    ...(err.cause ? { cause: err.cause } : {}),
  }
}

/** the headers of every JSON answer (with X-Trace-Id) */
export const JSON_ANSWER_HEADERS: Record<string, string> = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
}
