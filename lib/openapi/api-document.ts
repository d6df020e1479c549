// The OpenAPI 3.1 document of the merchant API, assembled from what the handlers themselves use: each
// endpoint's path, body and answer schemas (zod, converted with zod's own JSON Schema output, the
// request side as read: io 'input') and its documentation (Endpoint.doc), the error codes of
// api-error.ts, and the notification bodies as webhooks. Served at GET /api/openapi.json (the route
// below), committed as openapi.json (`npm run openapi` rewrites it; a unit test fails when it is not
// current), rendered at /docs. Pure and deterministic: no settings, no clock.
// Two variants: the published one (all of the above) describes answers openly, as any implementation
// of the protocol may send them (no closed objects, fields production leaves out not required, open
// enumerations and lists, no pattern of this service's own forms, any RFC 3339 date-time: wire-form.ts's
// answerLeeway); the strict one (`strict: true`)
// describes exactly what this service sends, and the HTTP tests hold every answer to it
// (tests/support/openapi-check.ts).
import { sandboxClockAdvanceRoute, sandboxClockRoute, sandboxResetRoute } from '../sandbox/sandbox-endpoints'
import {
  qrCodePaymentsRoute,
  qrCodeRoute,
  qrCodesRoute,
  sandboxSbpDeclineRoute,
  sandboxSbpPayRoute,
} from '../sbp/qr-code-endpoints'
import { cardCheckCompleteRoute, cardCheckRoute } from '../card-checks/card-check-endpoints'
import { cardCheckNotificationSchema } from '../card-checks/card-check-wire'
import { z } from 'zod'
import { billDetailsRoute, billRoute } from '../billing/bill-endpoints'
import { healthRoute } from '../health'
import { metricsRoute, readinessRoute } from '../observability/observability-endpoints'
import { ERROR_CODES, errorSchema, type ErrorCode } from '../http/api-error'
import { API_PREFIXES } from '../http/api-routes'
import { apiRoute, endpoint, type AnyEndpoint, type ApiRoute } from '../api/api-route'
import { Reply, type Example, type Method } from '../http/api-route'
import {
  captureNotificationSchema,
  paymentNotificationSchema,
  refundNotificationSchema,
} from '../payments/notification-body'
import { notificationsRoute, resendRoute } from '../api/notification-endpoints'
import {
  captureRoute,
  completeRoute,
  paymentRoute,
  refundDeclineRoute,
  refundListRoute,
  refundRoute,
} from '../payments/payment-endpoints'
import {
  answerLeeway,
  exactRules,
  referencedSchemas,
  wireForms,
  type AnswerLeeway,
  type JsonSchema,
} from '../wire/wire-form'

type Json = Record<string, unknown>

/** The document's own schema: an OpenAPI 3.1 document (its parts are the OpenAPI specification's to describe). */
const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string().regex(/^3\.1\.\d+$/),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.looseObject({})),
  })
  .meta({ id: 'OpenApiDocument', description: 'this document (see https://spec.openapis.org/oas/v3.1.1)' })

/** how long a client may keep the document (it changes only with a new version of the service) */
const DOCUMENT_MAX_AGE_SECONDS = 300

export const openApiRoute: ApiRoute = apiRoute({
  GET: endpoint({
    params: z.object({}),
    access: 'public',
    response: openApiDocumentSchema,
    doc: {
      operationId: 'openApiDocument',
      tag: 'Service',
      summary: 'This document',
      description: `No token. The OpenAPI 3.1 document of the API, as committed in the repository as openapi.json; cacheable for ${DOCUMENT_MAX_AGE_SECONDS} s.`,
    },
    handle: async () =>
      new Reply<z.input<typeof openApiDocumentSchema>>(apiDocument(), {
        'Cache-Control': `public, max-age=${DOCUMENT_MAX_AGE_SECONDS}`,
        'Access-Control-Allow-Origin': '*',
      }),
  }),
})

/**
 * Every path of the API (relative to each server) and its route. app/api/…/route.ts files re-export
 * the same routes (a unit test checks that the two lists agree).
 */
export const API_ROUTES: Record<string, ApiRoute> = {
  '/sites/{siteId}/payments/{paymentId}': paymentRoute,
  '/sites/{siteId}/payments/{paymentId}/complete': completeRoute,
  '/sites/{siteId}/payments/{paymentId}/captures/{captureId}': captureRoute,
  '/sites/{siteId}/payments/{paymentId}/refunds/{refundId}': refundRoute,
  '/sites/{siteId}/payments/{paymentId}/refunds/{refundId}/decline': refundDeclineRoute,
  '/sites/{siteId}/payments/{paymentId}/refunds': refundListRoute,
  '/sites/{siteId}/bills/{billId}': billRoute,
  '/sites/{siteId}/bills/{billId}/details': billDetailsRoute,
  '/sites/{siteId}/notifications': notificationsRoute,
  '/sites/{siteId}/notifications/{notificationId}/resend': resendRoute,
  '/sites/{siteId}/sandbox/clock': sandboxClockRoute,
  '/sites/{siteId}/sandbox/clock/advance': sandboxClockAdvanceRoute,
  '/sites/{siteId}/sandbox/reset': sandboxResetRoute,
  '/sites/{siteId}/sbp/qrCodes': qrCodesRoute,
  '/sites/{siteId}/sbp/qrCodes/{qrCodeUid}': qrCodeRoute,
  '/sites/{siteId}/sbp/qrCodes/{qrCodeUid}/payments': qrCodePaymentsRoute,
  '/sites/{siteId}/sandbox/sbp/{qrCodeUid}/pay': sandboxSbpPayRoute,
  '/sites/{siteId}/sandbox/sbp/{qrCodeUid}/decline': sandboxSbpDeclineRoute,
  '/sites/{siteId}/validation/card/requests/{requestUid}': cardCheckRoute,
  '/sites/{siteId}/validation/card/requests/{requestUid}/complete': cardCheckCompleteRoute,
  '/health': healthRoute,
  '/ready': readinessRoute,
  '/metrics': metricsRoute,
  '/openapi.json': openApiRoute,
}

/** the API's prefixes: the same handlers answer under each (next.config.mjs rewrites the partner ones) */
export { API_PREFIXES }

const TAGS = [
  {
    name: 'Payments',
    description:
      'Card, token, recurrent and mobile-balance payments; payer authentication (3-D Secure, one-time codes).',
  },
  {
    name: 'SBP',
    description: 'Faster Payments System QR codes, paid in the sandbox bank app, and FPS tokens.',
  },
  {
    name: 'Card verification',
    description: 'A card checked without charging it, with 3-D Secure when the card asks, and a payment token.',
  },
  { name: 'Captures', description: 'The second step of a two-step payment.' },
  { name: 'Refunds', description: 'Partial and full refunds, and reversals of uncaptured payments.' },
  { name: 'Bills', description: 'Bills with a hosted payment page (`payUrl`).' },
  {
    name: 'Notifications',
    description: 'The notifications the service posts to the merchant (see the webhooks), and their deliveries.',
  },
  {
    name: 'Sandbox',
    description:
      "Testing time-dependent cases without waiting: the site's own clock, and a reset of its test data (SANDBOX_CLOCK=off removes them).",
  },
  { name: 'Service', description: 'Health, readiness, metrics and this document.' },
]

const METHOD_ORDER: Method[] = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS']

// the errors every endpoint of a kind can answer (Endpoint.doc.errors adds its own); any request that is
// not well-formed HTTP is refused before it reaches a route (scripts/http-server.ts): 400, or 431 when
// its headers are too large, http.message.conversion.failed either way
const ANY_ENDPOINT: ErrorCode[] = ['http.message.conversion.failed', 'internal.error']
const HEADERS_TOO_LARGE = 431
const SITE_ENDPOINT: ErrorCode[] = ['validation.error', 'auth.unauthorized', 'auth.forbidden', 'rate.limit.exceeded']
const WITH_BODY: ErrorCode[] = [
  'validation.error',
  'http.message.conversion.failed',
  'http.payload.too.large',
  'http.media.type.not.supported',
]
// a body sent to an endpoint that takes none is read to its end (the request must be whole) and dropped, within the
// limit
const BODILESS: ErrorCode[] = ['http.payload.too.large']

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })

/** the component id a schema was given with `.meta({ id })` */
function idOf(schema: z.core.$ZodType, what: string): string {
  const id = z.globalRegistry.get(schema)?.id
  if (typeof id !== 'string')
    throw new Error(`${what}: its schema has no id (.meta({ id })), so it cannot be a component of the document`)
  return id
}

/** the wire form of a transforming schema in place of what zod derives from its input side (wire-form.ts) */
function wireFormOverride(ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  const form = wireForms.get(ctx.zodSchema)
  if (!form) return
  for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Json)[key]
  Object.assign(ctx.jsonSchema, structuredClone(form))
}

/** a schema's leeway (answerLeeway), also through the wrappers zod adds around it (optional, nullable) */
function leewayOf(schema: z.core.$ZodType): AnswerLeeway | undefined {
  const own = answerLeeway.get(schema)
  if (own) return own
  const inner = (schema._zod.def as { innerType?: z.core.$ZodType }).innerType
  return inner ? leewayOf(inner) : undefined
}

/** the values a converted schema lists (its enum, const or examples), if any */
function knownValues(schema: unknown): unknown[] {
  if (!schema || typeof schema !== 'object') return []
  const json = schema as Json
  if (Array.isArray(json.enum)) return json.enum
  if ('const' in json) return [json.const]
  return Array.isArray(json.examples) ? json.examples : []
}

/**
 * the published document's form of an answer's schema (see AnswerLeeway); requests are left as they are (none is
 * closed)
 */
function publishedForm(ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  const json = ctx.jsonSchema as Json
  if (json.additionalProperties === false) delete json.additionalProperties
  const leeway = leewayOf(ctx.zodSchema)
  if (leeway?.openValues && (Array.isArray(json.enum) || 'const' in json)) {
    const values = Array.isArray(json.enum) ? json.enum : [json.const]
    delete json.enum
    delete json.const
    json.type = 'string'
    json.examples = values
  }
  if (leeway?.openList) {
    const known = [json.items, ...((json.prefixItems as unknown[] | undefined) ?? [])].flatMap(knownValues)
    for (const key of ['prefixItems', 'minItems', 'maxItems']) delete json[key]
    json.items = { type: 'string', ...(known.length ? { examples: [...new Set(known)] } : {}) }
  }
  if (leeway?.ownFormat) delete json.pattern
  if (leeway?.dateTime && typeof json.pattern === 'string') {
    delete json.pattern
    // the format on the component alone: a copy of it (mayBeAbsent's) ends as a $ref to it, beside what it says besides
    if (typeof z.globalRegistry.get(ctx.zodSchema)?.id === 'string') json.format = 'date-time'
  }
  if (ctx.zodSchema instanceof z.ZodObject && Array.isArray(json.required)) {
    const shape = ctx.zodSchema.shape as Record<string, z.core.$ZodType>
    json.required = (json.required as string[]).filter((key) => !leewayOf(shape[key])?.mayBeAbsent)
    if (!(json.required as string[]).length) delete json.required
  }
}

/** the strict variant's form of an answer's schema: with the rules between its fields it always keeps (exactRules) */
function strictForm(ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  const rules = exactRules.get(ctx.zodSchema)?.rules
  if (rules) (ctx.jsonSchema as Json).allOf = structuredClone(rules)
}

/** the JSON Schema of a zod schema: as the wire carries a request (wireForms), in the variant's form for answers */
const toJson = (schema: z.core.$ZodType, strict: boolean) =>
  z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    override: (ctx) => {
      wireFormOverride(ctx)
      if (!strict) publishedForm(ctx)
      else strictForm(ctx)
    },
  }) as Json

/**
 * components.schemas: the given schemas (each with an id) and every schema with an id they use, all as
 * `$ref`s to one another. Converted together in one go (as $defs of one object holding them all),
 * from the instances the endpoints use.
 */
function componentSchemas(roots: z.core.$ZodType[], strict: boolean): Record<string, Json> {
  const holder = z.object(Object.fromEntries(roots.map((s, i) => [`s${i}`, s])))
  const converted = toJson(holder, strict)
  const defs = (converted.$defs ?? {}) as Record<string, Json>
  for (const [key, value] of Object.entries(converted.properties as Record<string, Json>))
    if (typeof value.$ref !== 'string') throw new Error(`components: ${key} has no id`)
  const text = JSON.stringify(defs).replaceAll('"#/$defs/', '"#/components/schemas/')
  if (text.includes('__schema'))
    throw new Error('components: a schema without an id is used recursively; give it an id')
  return sortedByKey(JSON.parse(text) as Record<string, Json>)
}

const sortedByKey = <T>(o: Record<string, T>): Record<string, T> =>
  Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  )

/** a path parameter's schema, alone (no ids inside) */
function parameterSchema(schema: z.core.$ZodType): Json {
  const { $schema: _, ...json } = toJson(schema, true)
  return json
}

const TRACE_HEADERS = {
  'X-Trace-Id': { $ref: '#/components/headers/X-Trace-Id' },
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
}

function examplesOf(examples: Record<string, Example> | undefined): Json {
  return examples
    ? {
        examples: Object.fromEntries(
          Object.entries(examples).map(([k, e]) => [k, { summary: e.summary, value: e.value }]),
        ),
      }
    : {}
}

/** what operations share, written once under components and referred to */
interface Shared {
  responses: Record<string, Json>
  parameters: Record<string, Json>
  /** the strict variant (see the top of this file) */
  strict: boolean
}

/** `payin.request.conflict` → `PayinRequestConflict` */
const pascal = (code: string) => code.replace(/(^|[.-])(\w)/g, (_, __, c: string) => c.toUpperCase())

/** an error answer of one status: the Error shape with these codes (components.responses, named by its codes) */
function errorResponse(shared: Shared, status: number, codes: ErrorCode[]): Json {
  const name = codes.map(pascal).join('Or')
  shared.responses[name] ??= {
    description: codes.map((c) => `\`${c}\`: ${ERROR_CODES[c].when}`).join('; '),
    headers: {
      ...TRACE_HEADERS,
      ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
    },
    // the codes of this status: exactly these from this service; published as examples (production has codes of its
    // own)
    content: {
      'application/json': {
        schema: {
          allOf: [
            ref('Error'),
            { type: 'object', properties: { errorCode: shared.strict ? { enum: codes } : { examples: codes } } },
          ],
        },
      },
    },
  }
  return { $ref: `#/components/responses/${name}` }
}

/** what a path parameter names, the same in every path */
const PATH_PARAMETERS: Record<string, string> = {
  siteId: "the site: the bearer token must be one of its own (another site's token is a 403)",
  paymentId: "the merchant's id of the payment, unique within the site",
  captureId: "the merchant's id of the capture, unique within the site",
  refundId: "the merchant's id of the refund, unique within the site",
  billId: "the merchant's id of the bill, unique within the site",
  notificationId: 'the notification (its notificationId in the list)',
  qrCodeUid: "the id of the SBP QR code, unique within the site (an SBP payment's code: its requirements.sbp.qrcId)",
  requestUid: "the merchant's id of the card verification, unique within the site (a CHECK_CARD bill's: its billId)",
}

/** a path parameter (components.parameters, by its name: one name, one schema) */
function pathParameter(shared: Shared, name: string, schema: z.core.$ZodType): Json {
  const description = PATH_PARAMETERS[name]
  if (!description) throw new Error(`path parameter ${name}: no description in PATH_PARAMETERS`)
  const parameter = { name, in: 'path', required: true, description, schema: parameterSchema(schema) }
  const known = shared.parameters[name]
  if (known && JSON.stringify(known) !== JSON.stringify(parameter))
    throw new Error(`path parameter ${name} has two schemas`)
  shared.parameters[name] = parameter
  return { $ref: `#/components/parameters/${name}` }
}

function operation(shared: Shared, path: string, method: Method, e: AnyEndpoint): Json {
  const doc = e.doc
  if (!doc) throw new Error(`${method} ${path}: no doc`)
  if (!e.response && !doc.textResponse) throw new Error(`${method} ${path}: no response schema`)
  const site = e.access === undefined || e.access === 'site'
  if (!site && e.access !== 'public')
    throw new Error(`${method} ${path}: only site and public endpoints belong to the API`)
  const shape = e.params instanceof z.ZodObject ? (e.params.shape as Record<string, z.core.$ZodType>) : {}
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
  if (names.join() !== Object.keys(shape).join())
    throw new Error(`${method} ${path}: the path's parameters are not its schema's (${Object.keys(shape).join()})`)
  const codes = [
    ...new Set<ErrorCode>([
      ...(site ? SITE_ENDPOINT : []),
      ...(e.body ? WITH_BODY : method === 'GET' ? [] : BODILESS),
      ...(doc.errors ?? []),
      ...ANY_ENDPOINT,
    ]),
  ]
  const byStatus = new Map<number, ErrorCode[]>([[HEADERS_TOO_LARGE, ['http.message.conversion.failed']]])
  for (const c of codes) byStatus.set(ERROR_CODES[c].status, [...(byStatus.get(ERROR_CODES[c].status) ?? []), c])
  const text = doc.textResponse
  const headers = {
    ...TRACE_HEADERS,
    ...Object.fromEntries(
      Object.entries(doc.responseHeaders ?? {}).map(([name, h]) => [
        name,
        { description: h.description, schema: parameterSchema(h.schema) },
      ]),
    ),
  }
  const query = Object.entries(doc.query ?? {}).map(([name, q]) => ({
    name,
    in: 'query',
    required: false,
    description: q.description,
    schema: parameterSchema(q.schema),
  }))
  const parameters = [...names.map((name) => pathParameter(shared, name, shape[name])), ...query]
  const ok: Json = text
    ? {
        description: doc.summary,
        headers: TRACE_HEADERS,
        content: { [text.contentType]: { schema: { type: 'string' }, example: text.example } },
      }
    : {
        description: (z.globalRegistry.get(e.response!)?.description as string | undefined) ?? doc.summary,
        headers,
        content: {
          'application/json': {
            schema: ref(idOf(e.response!, `${method} ${path}`)),
            ...examplesOf(doc.responseExamples),
          },
        },
      }
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [doc.tag],
    ...(site ? {} : { security: doc.security ? [{ [doc.security]: [] }] : [] }),
    ...(parameters.length ? { parameters } : {}),
    ...(e.body
      ? {
          requestBody: {
            required: !e.bodyOptional,
            ...(e.bodyOptional ? { description: 'optional: an empty body is `{}`' } : {}),
            content: {
              'application/json': {
                schema: ref(idOf(e.body, `${method} ${path} body`)),
                ...examplesOf(doc.requestExamples),
              },
            },
          },
        }
      : {}),
    responses: {
      '200': ok,
      ...Object.fromEntries(
        [...byStatus]
          .sort(([a], [b]) => a - b)
          .map(([status, c]) => [String(status), errorResponse(shared, status, c)]),
      ),
    },
  }
}

/** the headers of a notification's POST */
const WEBHOOK_PARAMETERS = [
  {
    name: 'Signature',
    in: 'header',
    required: true,
    description:
      "Production's signature: lowercase hex HMAC-SHA256 with the site's signing secret over `{id}|{createdDateTime}|{amount.value}` (paymentId, captureId or refundId; the values as written in the body, the amount with its two decimals).",
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  {
    name: 'Payin-Signature',
    in: 'header',
    required: true,
    description:
      'Beyond production: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, a v1 for each secret in force (two during the grace period after a rotation): check the whole body and refuse replays.',
    schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
  },
]

function webhook(operationId: string, summary: string, schemaId: string, example: unknown, about?: string): Json {
  return {
    post: {
      operationId,
      summary,
      description:
        about ??
        "Posted once the resource reaches a final status, to the request's `callbackUrl`, else (payments) their `customFields.invoice_callback_url` (their own, else their bill's), else the site's notification URL. The format is production's, not the API's: status SUCCESS / DECLINED (payments) or SUCCESS / DECLINE (captures, refunds), date-times without a fraction of a second, `amount.value` a JSON number written with two decimals. Headers as production's: `Content-Type` and `Accept` `application/json`, and the signatures below.",
      tags: ['Notifications'],
      security: [],
      parameters: WEBHOOK_PARAMETERS,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(schemaId), examples: { example: { summary, value: example } } } },
      },
      responses: {
        '2XX': { description: 'Delivered: no more attempts.' },
        default: {
          description:
            'Anything else, a redirect or no answer in time: tried again after 5 s, 1 min, then 5 min three times.',
        },
      },
    },
  }
}

const NOTIFICATION_ABOUT_PAYMENT = {
  billId: '6b0c2d1e-3f4a-4b5c-8d6e-7f8091a2b3c4',
  paymentMethod: {
    type: 'CARD',
    maskedPan: '411111******1111',
    rrn: '482913750164',
    authCode: '305918',
    cardHolder: 'CARDHOLDER NAME',
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
  customer: { account: 'acc-1' },
  gatewayData: { type: 'ACQUIRING', eci: '7', authCode: '305918', rrn: '482913750164' },
  customFields: {},
}
const NT = '2026-11-23T12:04:05+00:00'

const DESCRIPTION = `The merchant API of the payin sandbox: payments (card, token, recurrent, mobile balance), payer authentication, captures, refunds, bills with a hosted payment page, and the notifications the service posts. No card network is connected: the sandbox acquirer decides every outcome from the card number, and for production's test card numbers from the expiry month and CVV as production's test mode does (see the README's test cards).

Every request but \`/health\`, \`/ready\`, \`/metrics\` (its own token) and \`/openapi.json\` carries \`Authorization: Bearer <token>\` of the site in the path. Bodies are JSON (\`Content-Type: application/json\`, parameters allowed). Unknown fields are ignored. Ids in paths are 1–200 characters of \`A-Za-z0-9._:-\`, chosen by the merchant and unique within the site. A PUT is idempotent: the same id with the same request answers the resource as it is now, with another request it is a 409.

The same operations answer under \`/api\`, \`/partner/payin/v1\` and \`/partner/v1\` (the servers below). The service's other paths — the hosted payment page (\`/pay/…\`), the emulated 3-D Secure access-control page (\`/acs\`), the merchant dashboard and its actions (\`/dashboard/…\`) — are pages for people, not part of this API.

Answers and notifications are described openly, as any implementation of the protocol may send them: a client must ignore fields it does not know, must not expect a field that is not marked required, and must accept a value of a string beyond the values its examples list (flags, decline reasons, error codes, payment method types: production sends some this service does not, and either may add more). Date-times are RFC 3339 (\`format: date-time\`); each schema says the form this service writes.

Errors: every non-2xx answer of the API (and every JSON error of the service's other paths) has the \`Error\` shape:

| HTTP | errorCode | when |
|---|---|---|
${(Object.keys(ERROR_CODES) as ErrorCode[])
  .filter((c) => c !== 'client.closed.request')
  .map((c) => `| ${ERROR_CODES[c].status} | \`${c}\` | ${ERROR_CODES[c].when} |`)
  .join('\n')}

A business decline (a declined card, a capture or refund the payment does not allow) is not an error: the payment, capture or refund is created and answered 200 with \`status.value\` DECLINED and \`status.reason\`.`

export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string } & Json
  paths: Record<string, Record<string, Json>>
  webhooks: Record<string, Json>
  components: { schemas: Record<string, Json> } & Json
  [key: string]: unknown
}

/** the endpoints of the API, by path and method, in the document's order */
export function apiOperations(): { path: string; method: Method; endpoint: AnyEndpoint }[] {
  return Object.entries(API_ROUTES).flatMap(([path, route]) =>
    METHOD_ORDER.filter((m) => route.endpoints[m]).map((method) => ({
      path,
      method,
      endpoint: route.endpoints[method]!,
    })),
  )
}

/**
 * the document: the published variant, or with `strict` the exact one the tests hold answers to (see the top of this
 * file)
 */
export function buildApiDocument({ strict = false }: { strict?: boolean } = {}): OpenApiDocument {
  const operations = apiOperations()
  const roots: z.core.$ZodType[] = [
    errorSchema,
    paymentNotificationSchema,
    captureNotificationSchema,
    refundNotificationSchema,
    cardCheckNotificationSchema,
    ...referencedSchemas,
  ]
  for (const { endpoint: e } of operations) roots.push(...(e.body ? [e.body] : []), ...(e.response ? [e.response] : []))
  const paths: Record<string, Record<string, Json>> = {}
  const shared: Shared = { responses: {}, parameters: {}, strict }
  for (const { path, method, endpoint: e } of operations)
    (paths[path] ??= {})[method.toLowerCase()] = operation(shared, path, method, e)
  const ids = operations.map((o) => o.endpoint.doc?.operationId)
  if (new Set(ids).size !== ids.length) throw new Error(`operationIds repeat: ${ids.join(', ')}`)
  const origin = { default: 'http://localhost:3000', description: "the service's origin (its PUBLIC_BASE_URL)" }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Payin sandbox merchant API',
      version: '1.0.0',
      summary: 'Payments, captures, refunds and bills against a sandbox acquirer',
      description: DESCRIPTION,
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    // relative first: resolved against where the document was fetched, so a generator or a viewer given
    // https://<host>/api/openapi.json targets that host; the last one is for a copy read elsewhere
    servers: [
      ...API_PREFIXES.map((prefix, i) => ({
        url: prefix,
        description: i
          ? "an existing client's prefix, on the host that served this document: the same operations"
          : 'the canonical prefix, on the host that served this document',
      })),
      {
        url: `{origin}${API_PREFIXES[0]}`,
        description:
          'the canonical prefix on a given origin: for a copy of this document read elsewhere (the committed openapi.json)',
        variables: { origin },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: TAGS,
    paths,
    webhooks: {
      paymentNotification: webhook('paymentNotification', 'A payment reached a final status', 'PaymentNotification', {
        payment: {
          type: 'PAYMENT',
          paymentId: 'order-1001',
          createdDateTime: NT,
          amount: { value: 60.5, currency: 'RUB' },
          status: { value: 'SUCCESS', changedDateTime: NT },
          ...NOTIFICATION_ABOUT_PAYMENT,
          flags: ['SALE'],
          tokenData: { paymentToken: 'pt_Xq3…', expiredDate: '2030-12-31T00:00:00+00:00' },
        },
        type: 'PAYMENT',
        version: '1',
      }),
      captureNotification: webhook('captureNotification', 'A capture reached a final status', 'CaptureNotification', {
        capture: {
          type: 'CAPTURE',
          captureId: 'cap-1',
          paymentId: 'order-1002',
          createdDateTime: NT,
          amount: { value: 60, currency: 'RUB' },
          status: { value: 'SUCCESS', changedDateTime: NT },
          ...NOTIFICATION_ABOUT_PAYMENT,
          flags: [],
        },
        type: 'CAPTURE',
        version: '1',
      }),
      refundNotification: webhook('refundNotification', 'A refund reached a final status', 'RefundNotification', {
        refund: {
          type: 'REFUND',
          refundId: 'ref-1',
          paymentId: 'order-1001',
          createdDateTime: NT,
          amount: { value: 10, currency: 'RUB' },
          status: {
            value: 'DECLINE',
            changedDateTime: NT,
            reasonCode: 'INVALID_AMOUNT',
            reasonMessage: 'The amount exceeds what the payment allows',
          },
          ...NOTIFICATION_ABOUT_PAYMENT,
          flags: [],
        },
        type: 'REFUND',
        version: '1',
      }),
      checkCardNotification: webhook(
        'checkCardNotification',
        'A card verification ended',
        'CardCheckNotification',
        {
          checkPaymentMethod: {
            status: 'SUCCESS',
            isValidCard: true,
            threeDsStatus: 'PASSED',
            cardInfo: NOTIFICATION_ABOUT_PAYMENT.paymentCardInfo,
            createdToken: {
              token: 'pt_Xq3…',
              name: '411111******1111',
              expiredDate: '2030-12-31T00:00:00+00:00',
              account: 'acc-1',
            },
            requestUid: 'check-1001',
            paymentMethod: {
              type: 'CARD',
              maskedPan: '411111******1111',
              cardHolder: 'CARDHOLDER NAME',
              cardExpireDate: '12/2030',
            },
            checkOperationDate: NT,
          },
          type: 'CHECK_CARD',
          version: '1',
        },
        "A card verification's end (production's format): no amount, and `Signature` covers `{requestUid}|{checkOperationDate}`. Posted to the site's notification URL.",
      ),
    },
    components: {
      schemas: componentSchemas(roots, strict),
      responses: sortedByKey(shared.responses),
      parameters: shared.parameters,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            "A token of the site in the path: `npm run site -- create <siteId>` prints one (and `npm start` one of the demo site); the dashboard's settings make more. A token of another site is a 403.",
        },
        metricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: "The instance's `METRICS_TOKEN` setting (GET /metrics only; a site's token does not open it).",
        },
      },
      headers: {
        'X-Trace-Id': {
          description:
            "the request's trace id (a client may send its own), also in the error body and the server's log line: on every answer",
          required: true,
          schema: { type: 'string', pattern: '^[0-9a-f]{16}$' },
        },
        'X-Request-Id': { description: "this request's own id, in the server's log line", schema: { type: 'string' } },
        'Retry-After': {
          description: 'seconds until the token may send again',
          required: true,
          schema: { type: 'integer', minimum: 1 },
        },
      },
    },
  }
}

let built: OpenApiDocument | undefined
/** the document (built once: it depends on nothing but the code) */
export function apiDocument(): OpenApiDocument {
  return (built ??= buildApiDocument())
}

/** the document as committed (openapi.json): two-space indentation, a final newline */
export const apiDocumentText = () => `${JSON.stringify(apiDocument(), null, 2)}\n`
