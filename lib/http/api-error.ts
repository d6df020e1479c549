// The contract's error model: every non-2xx answer is one of these, rendered by lib/http/api-route.ts.
// The codes, their statuses and the answer's shape are also what the OpenAPI document says of errors
// (lib/openapi/api-document.ts): a code not in ERROR_CODES cannot be thrown.
import { z } from 'zod'
import { formatDateTime, paymentTimeSchema } from '../time/wire-time'
import { openValues } from '../wire/wire-form'

export type FieldErrors = Record<string, string[]>

/** every error code the service answers, with its HTTP status and when (the OpenAPI document's words) */
export const ERROR_CODES = {
  'validation.error': {
    status: 400,
    when: 'a field or path id is missing, malformed or out of range; `cause` maps each field path to messages',
  },
  'http.message.conversion.failed': {
    status: 400,
    when: 'the body is not JSON (or is missing where one is required), or the request is not well-formed HTTP (431 when its headers are too large)',
  },
  'auth.unauthorized': { status: 401, when: 'no, unknown or revoked bearer token' },
  'auth.forbidden': { status: 403, when: 'a token of another site (whether or not the resource exists there)' },
  'payin.resource.not.found': { status: 404, when: 'unknown resource in this site, or unknown route' },
  'http.method.not.allowed': {
    status: 405,
    when: 'method not supported on the path (the `Allow` header lists those that are)',
  },
  'payin.request.conflict': { status: 409, when: 'an id reused with a different request' },
  'payin.incorrect-method-invocation': { status: 409, when: 'an operation the resource does not allow in its state' },
  'http.payload.too.large': { status: 413, when: 'a body over 64 KiB' },
  'http.media.type.not.supported': {
    status: 415,
    when: 'a body whose Content-Type is not application/json (parameters allowed) or a +json type',
  },
  'rate.limit.exceeded': {
    status: 429,
    when: 'more requests than the per-minute limit of the token; `Retry-After` says when to try again',
  },
  'internal.error': { status: 500, when: 'anything unexpected (details only in the server log, under the trace id)' },
  'service.unavailable': {
    status: 503,
    when: 'the database does not answer; `/ready` also while the instance drains for a shutdown or migrations run or are pending (`description` says which)',
  },
  // logged only: the client that closed the connection reads no answer
  'client.closed.request': {
    status: 499,
    when: 'the client closed the connection before its request was read (logged; nobody receives it)',
  },
} as const satisfies Record<string, { status: number; when: string }>

export type ErrorCode = keyof typeof ERROR_CODES

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: ErrorCode,
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

export const payloadTooLarge = (kib = 64) =>
  new ApiError(413, 'http.payload.too.large', `Request body exceeds ${kib} KiB`, 'Payload too large')

export const unsupportedMediaType = () =>
  new ApiError(415, 'http.media.type.not.supported', 'Content-Type must be application/json', 'Unsupported media type')

export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate.limit.exceeded', 'Too many requests for this token', 'Too many requests', undefined, {
    'Retry-After': String(retryAfterSeconds),
  })

/** the service cannot answer now (its database, its schema, a shutdown): `description` says which */
export const serviceUnavailable = (description: string) =>
  new ApiError(503, 'service.unavailable', description, 'Service unavailable')

export const internalError = () => new ApiError(500, 'internal.error', 'Internal error', 'Internal error')

/** the contract's error shape (closed: nothing else is ever answered) */
export const errorSchema = z
  .strictObject({
    serviceName: z.literal('payin-core'),
    errorCode: openValues(z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]])).meta({
      description: "what went wrong, for programs (see the table of codes in the document's description)",
    }),
    description: z.string().min(1).meta({ description: 'what went wrong, for developers' }),
    userMessage: z.string().min(1).meta({ description: 'what went wrong, in words that may be shown to a payer' }),
    dateTime: paymentTimeSchema,
    traceId: z
      .string()
      .min(1)
      .meta({ description: "also answered as the X-Trace-Id header, and in the server's log line of the request" }),
    cause: z
      .record(z.string(), z.array(z.string()).min(1))
      .optional()
      .meta({
        description:
          "validation.error (and the payment page's limits): each field path (`amount.value`, `receipt.items[0].total`, `path`) mapped to its problems",
        examples: [{ 'amount.value': ['must be greater than 0'] }],
      }),
  })
  .meta({
    id: 'Error',
    description: "Every non-2xx answer of the API, and every JSON error of the service's other paths.",
    examples: [
      {
        serviceName: 'payin-core',
        errorCode: 'validation.error',
        description: 'Validation error',
        userMessage: 'Validation error',
        dateTime: '2026-11-22T10:15:30.123+00:00',
        traceId: '3f9c2a0d51e8b7c4',
        cause: { 'amount.value': ['must be greater than 0'] },
      },
    ],
  })
export type ErrorBody = z.input<typeof errorSchema>

/** the contract's error shape */
export function errorBody(err: ApiError, traceId: string): ErrorBody {
  return {
    serviceName: 'payin-core',
    errorCode: err.errorCode,
    description: err.description,
    userMessage: err.userMessage,
    dateTime: formatDateTime(new Date(), true),
    traceId,
    cause: err.cause,
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
