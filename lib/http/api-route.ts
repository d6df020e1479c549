// The one wrapper every API handler goes through: trace and request ids, bearer auth and site
// scoping, path and body parsing (64 KiB limit, strict JSON, no NUL characters, zod), the contract's
// error shape, one log line.
// Plain Web Request/Response: no framework imports, so it runs and tests outside Next too. It knows no
// domain module: what a request is admitted by (a site's token and its clock, a dashboard session) is
// given to routeWrapper by the layer above (lib/api/api-route.ts, whose apiRoute every endpoint module uses).
import { z } from 'zod'
import { settings } from '../config'
import { REAL_TIME, type SiteClock } from '../time/clock'
import {
  ApiError,
  forbidden,
  internalError,
  malformedBody,
  methodNotAllowed,
  notFound,
  payloadTooLarge,
  rateLimited,
  unauthorized,
  unsupportedMediaType,
  validationError,
  type ErrorCode,
  type FieldErrors,
  errorBody,
  JSON_ANSWER_HEADERS,
} from './api-error'
import { BodyTooLarge, ClientAborted, readBoundedBody } from './bounded-body'
import { JsonSyntaxError, RawNumber, parseJsonText } from './json-text'
import { CLIENT_CLOSED, logRequest } from './request-log'
import { requestIds } from './trace-id'

const JSON_TYPE = /^application\/([a-z0-9!#$&^_.+-]+\+)?json$/

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
export type Method = (typeof METHODS)[number]

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> }
export type RouteHandler = (req: Request, ctx: RouteContext) => Promise<Response>

/** a named example of a request or an answer (the OpenAPI document's; the unit tests validate it against its schema) */
export interface Example {
  summary: string
  value: unknown
}

/** What the OpenAPI document (lib/openapi/api-document.ts) says of an endpoint besides its schemas. */
export interface EndpointDoc {
  /** unique in the document, lowerCamelCase */
  operationId: string
  summary: string
  /** CommonMark */
  description?: string
  /** the group it is listed in */
  tag: string
  /**
   * The error codes this endpoint answers besides those every endpoint of its kind can: a site
   * endpoint's token and path problems (400 validation.error, 401, 403, 429), a body's (400, 413, 415),
   * and 500 anywhere.
   */
  errors?: ErrorCode[]
  requestExamples?: Record<string, Example>
  responseExamples?: Record<string, Example>
  /**
   * an answer that is not JSON (the endpoint returns a TextReply, and has no `response` schema): its type and an
   * example
   */
  textResponse?: { contentType: string; example: string }
  /** a public endpoint's own token (a security scheme of the document) instead of none */
  security?: 'metricsToken'
  /** the query's parameters the endpoint reads (none are required) */
  query?: Record<string, { description: string; schema: z.core.$ZodType }>
  /** headers of the 200 answer besides the trace ids (none are always there) */
  responseHeaders?: Record<string, { description: string; schema: z.core.$ZodType }>
}

/**
 * A statement's fragment as the endpoints build it (Prisma.sql): the wrapper only hands it on to the token check
 * (RouteAccess), which runs it; described by its shape, so that lib/http/ imports no database module.
 */
export interface SqlFragment {
  readonly sql: string
  readonly values: unknown[]
}

/**
 * What the wrapper asks of the layers above it to admit a request (lib/api/api-route.ts gives it): the
 * checks of a site's token (lib/sites/site-tokens.ts answers TokenCheck and TokenWrite) and the dashboard's
 * sessions, of type `S`.
 */
export interface RouteAccess<S extends { siteId: string }> {
  /** the token's check; `preload` (Endpoint.preload) read in its statement */
  checkToken(token: string, preload?: SqlFragment): Promise<TokenCheck>
  /** the token's check with a write in its statement (DeferredAuth.write) */
  writeWithTokenCheck<T>(
    token: string,
    siteId: string,
    clock: SiteClock,
    ctes: SqlFragment,
    result: string,
  ): Promise<TokenWrite<T>>
  /** the live dashboard session the request's cookie names, or null */
  sessionOf(req: Request): Promise<S | null>
}

/** a token's check: its site and clock (and the preloaded row), over its limit, or unknown (null) */
export type TokenCheck =
  | { siteId: string; clock: SiteClock; preloaded?: Record<string, unknown> | null }
  | { limited: true; retryAfterSeconds: number }
  | null

/** a write in a token's check (DeferredAuth.write): its rows and the site's clock, or why nothing was written */
export type TokenWrite<T> =
  | { rows: T[]; clock: SiteClock }
  | { unauthorized: true }
  | { limited: true; retryAfterSeconds: number }
  | { forbidden: true }
  | { clockMoved: SiteClock }

/** an endpoint; `S`: the dashboard's session, as RouteAccess gives it */
export interface Endpoint<
  P extends z.core.$ZodType,
  B extends z.core.$ZodType,
  R extends z.core.$ZodType = z.core.$ZodType,
  S = unknown,
> {
  params: P
  /** the request body's schema; omit for bodiless endpoints */
  body?: B
  /** the 200 answer's schema: `handle` must return its input type (the API's endpoints all give one, with `doc`) */
  response?: R
  doc?: EndpointDoc
  /** an empty body counts as `{}` */
  bodyOptional?: boolean
  /** the body's limit in KiB when it is not the 64 of every other endpoint (a theme's logo, sent as base64) */
  maxBodyKiB?: number
  /**
   * `public` endpoints need no token; `payer` endpoints (the payment form's) need none but refuse cross-site
   * requests; `dashboard` endpoints need the merchant dashboard's session cookie (its site is `siteId`) and
   * a request from the service's own origin (Origin is required: CSRF); `dashboard-public` (signing in and
   * out) the origin only.
   */
  access?: 'site' | 'public' | 'payer' | 'dashboard' | 'dashboard-public'
  /**
   * For a site endpoint whose work starts with reading one row: that read (a SELECT of at most one row,
   * given the valid path parameters), done in the token check's own statement — one round trip instead
   * of two. Its row (null: none) reaches `handle` as `preloaded`, and only once the token is known to be
   * the path's site's; when the token fails, it is not used.
   */
  preload?: (params: z.output<P>) => SqlFragment
  /**
   * For a site endpoint whose work may be one write statement: when the path and the body are valid,
   * `handle` runs before the token is checked, given `auth` (DeferredAuth) and the path's site id; it
   * checks the token itself, either first (auth.check()) or inside its statement (auth.write()). The
   * answers stay those of every endpoint: an unknown token is 401, one over its limit 429, another
   * site's 403, whatever the path or the body; a path or body problem is answered after those, as usual.
   */
  deferredAuth?: boolean
  handle: (input: {
    siteId: string
    params: z.output<P>
    body: z.output<B>
    traceId: string
    req: Request
    preloaded?: Record<string, unknown> | null
    auth?: DeferredAuth
    /**
     * a site endpoint's site's sandbox clock, read with its token (lib/sandbox/site-clock.ts); real time
     * elsewhere, and for a deferred check (whose clock is `auth.clock` once settled)
     */
    clock: SiteClock
    /** a `dashboard` endpoint's session */
    session?: S
  }) => Promise<z.input<R> | Reply<z.input<R>>>
}

/**
 * An answer with headers of its own (a dashboard session's cookie, a cacheable document): `handle` returns it instead
 * of the body alone.
 */
export class Reply<T = unknown> {
  constructor(
    readonly body: T,
    readonly headers: Record<string, string>,
  ) {}
}

/** An answer that is not JSON (Prometheus' text format): `handle` returns its text and its Content-Type. */
export class TextReply {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}

/**
 * The token check left to an endpoint (Endpoint.deferredAuth): one of the two, before anything else is read or written.
 */
export interface DeferredAuth {
  /** whether the token has been checked (by check() or a write() that ran) */
  readonly settled: boolean
  /** once settled, the site's sandbox clock as the check read it (real time before) */
  readonly clock: SiteClock
  /** the token check as the wrapper makes it for other endpoints (401, 429, then 403 for another site's token); once */
  check(): Promise<void>
  /**
   * A write in the token check's own statement: `ctes` are WITH-clause parts that write only through the
   * CTE `gate` (one row for a valid token of the path's site within its limit, none otherwise); the rows
   * of the part named `result` come back. 401, 429 and 403 as check() gives them, with nothing written.
   * When the statement fails (a unique key taken by a replay, say), it wrote and counted nothing: call
   * check() before going on. `clock`: the site's clock the write's times were made on (real time); when the
   * site's clock is another, or a sandbox reset or clock advance of the site is under way (its gate:
   * lib/sandbox/site-write.ts), nothing is written, the check is settled and ClockMoved is thrown (auth.clock
   * is then the site's as the statement read it): make the write again with siteWrite.
   */
  write<T>(ctes: SqlFragment, result: string, clock: SiteClock): Promise<T[]>
}

/**
 * A deferred write made on another clock than its site's, or while its clock is being moved
 * (DeferredAuth.write): nothing was written.
 */
export class ClockMoved extends Error {
  constructor(readonly clock: SiteClock) {
    super('the site clock is not the one the write was made on')
  }
}

export type AnyEndpoint<S = unknown> = Endpoint<z.core.$ZodType, z.core.$ZodType, z.core.$ZodType, S>

/** A route's handlers (what its route.ts exports) and its endpoints (what the OpenAPI document reads). */
export type ApiRoute<S = unknown> = Record<Method, RouteHandler> & {
  readonly endpoints: Partial<Record<Method, AnyEndpoint<S>>>
}

/**
 * The wrapper, admitting requests by `access`: `apiRoute` gives a route's handlers for every HTTP method
 * (the given endpoints, 405 for the others); `endpoint` declares one for a type checker while keeping its own P,
 * B and R.
 */
export function routeWrapper<S extends { siteId: string }>(access: RouteAccess<S>) {
  return {
    endpoint<
      P extends z.core.$ZodType,
      B extends z.core.$ZodType = z.ZodUndefined,
      R extends z.core.$ZodType = z.core.$ZodType,
    >(e: Endpoint<P, B, R, S>): Endpoint<P, B, R, S> {
      return e
    },
    apiRoute(endpoints: Partial<Record<Method, AnyEndpoint<S>>>): ApiRoute<S> {
      const allowed = Object.keys(endpoints) as Method[]
      const out = {} as Record<Method, RouteHandler>
      for (const m of METHODS) {
        const e = endpoints[m]
        out[m] = (req, ctx) =>
          serve(req, async (traceId) =>
            e ? run(access, e, req, ctx, traceId) : Promise.reject(methodNotAllowed(allowed)),
          )
      }
      return { ...out, endpoints }
    },
  }
}

/** 404 for every method: the catch-all of unknown API paths. */
export const unknownRoute: RouteHandler = (req) => serve(req, () => Promise.reject(notFound('Route')))
/** every method of a path that is no route (a catch-all's route file exports these) */
export const unknownRoutes: Record<Method, RouteHandler> = {
  GET: unknownRoute,
  POST: unknownRoute,
  PUT: unknownRoute,
  PATCH: unknownRoute,
  DELETE: unknownRoute,
  OPTIONS: unknownRoute,
}

async function serve(req: Request, work: (traceId: string) => Promise<unknown>): Promise<Response> {
  // the client (or the page proxy, proxy.ts) may have given this request its trace id already
  const { traceId, requestId } = requestIds(req)
  const ids = { 'X-Trace-Id': traceId, 'X-Request-Id': requestId }
  const started = performance.now()
  let res: Response
  let failure: unknown
  try {
    const answer = await work(traceId)
    if (answer instanceof TextReply)
      res = new Response(answer.text, {
        status: 200,
        headers: { ...JSON_ANSWER_HEADERS, ...ids, 'Content-Type': answer.contentType },
      })
    else res = answer instanceof Reply ? json(200, answer.body, ids, answer.headers) : json(200, answer, ids)
  } catch (e) {
    let err: ApiError
    if (e instanceof ApiError) err = e
    // the client closed the connection mid-body: nobody reads this answer; a warning, not an error with a stack
    else if (e instanceof ClientAborted)
      err = new ApiError(
        CLIENT_CLOSED,
        'client.closed.request',
        'The client closed the connection',
        'Client closed request',
      )
    else {
      err = internalError()
      failure = e
    }
    res = json(err.status, errorBody(err, traceId), ids, err.headers)
  }
  logRequest({ req, traceId, requestId, status: res.status, started, failure })
  return res
}

function json(
  status: number,
  body: unknown,
  ids: { 'X-Trace-Id': string; 'X-Request-Id': string },
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      ...JSON_ANSWER_HEADERS,
      ...ids,
      ...headers,
    },
  })
}

async function run<S extends { siteId: string }>(
  access: RouteAccess<S>,
  e: AnyEndpoint<S>,
  req: Request,
  ctx: RouteContext,
  traceId: string,
): Promise<unknown> {
  let siteId = ''
  if (e.access === 'payer' && isCrossSite(req)) throw forbidden('Cross-site requests are refused')
  if (e.access === 'dashboard' || e.access === 'dashboard-public') return runDashboard(access, e, req, ctx, traceId)
  const rawParams = (await ctx?.params) ?? {}
  const siteAccess = e.access !== 'public' && e.access !== 'payer'
  // parsed before the token check only for a preload or a deferred check (which need them); their problems are still
  // answered after it
  const preParsed = e.preload || e.deferredAuth ? safeParseRequest(e.params, rawParams) : undefined
  const m = siteAccess ? /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get('authorization') ?? '') : null
  const token = m && m[1].length <= 256 ? m[1] : null
  // a deferred check: the body is read first; its problems (and the path's) keep their usual place after the token
  // check
  let early: { body: unknown } | { error: unknown } | undefined
  if (e.deferredAuth && siteAccess && token && preParsed?.success) {
    try {
      early = { body: await requestBody(e, req) }
    } catch (err) {
      early = { error: err }
    }
    if ('body' in early) return runWithDeferredAuth(access, e, req, traceId, token, preParsed.data, early.body)
  }
  let preloaded: Record<string, unknown> | null | undefined
  let clock = REAL_TIME
  if (siteAccess) {
    const preload = e.preload && preParsed?.success ? e.preload(preParsed.data) : undefined
    const check = admitted(token ? await access.checkToken(token, preload) : null)
    siteId = check.siteId
    preloaded = check.preloaded
    clock = check.clock
  }
  const params = preParsed?.success ? preParsed.data : parse(e.params, rawParams)
  if (siteId && (params as { siteId?: string }).siteId !== siteId) throw forbidden()
  let body: unknown = undefined
  if (early && 'error' in early) throw early.error
  if (e.body) body = await requestBody(e, req)
  else await awaitWholeBody(req)
  return e.handle({ siteId, params, body, traceId, req, preloaded, clock })
}

/**
 * a token check that let the request in, or its refusal as every endpoint answers it: 401 for an unknown token, 429
 * over its limit
 */
function admitted(check: TokenCheck): Exclude<TokenCheck, null | { limited: true }> {
  if (!check) throw unauthorized()
  if ('limited' in check) throw rateLimited(check.retryAfterSeconds)
  return check
}

/**
 * A dashboard request: from the service's own origin (a browser sends Origin with every POST; none, or
 * another, is refused), then the session (401 without one), then the path and the body. The session's
 * site is the only site it reaches: another site's ids are simply not found.
 */
async function runDashboard<S extends { siteId: string }>(
  access: RouteAccess<S>,
  e: AnyEndpoint<S>,
  req: Request,
  ctx: RouteContext,
  traceId: string,
): Promise<unknown> {
  if (!isSameOrigin(req)) throw forbidden('Cross-site requests are refused')
  let session: S | undefined
  if (e.access === 'dashboard') {
    session = (await access.sessionOf(req)) ?? undefined
    if (!session) throw unauthorized('Your dashboard session has ended: sign in again')
  }
  const params = parse(e.params, (await ctx?.params) ?? {})
  const body = e.body ? await requestBody(e, req) : await awaitWholeBody(req)
  return e.handle({ siteId: session?.siteId ?? '', params, body, traceId, req, session, clock: REAL_TIME })
}

/** a state-changing request from a page of this service: Origin present and ours, and the browser agreeing */
export function isSameOrigin(req: Request): boolean {
  const origin = req.headers.get('origin')
  if (!origin) return false
  const fetchSite = req.headers.get('sec-fetch-site')
  if (fetchSite && fetchSite !== 'same-origin') return false
  return isOwnOrigin(req, origin)
}

/** every value the request's Cookie header gives the name (a sibling host can plant a second one) */
export function cookieValuesOf(req: Request | Headers, name: string): string[] {
  const values: string[] = []
  const header = (req instanceof Request ? req.headers : req).get('cookie') ?? ''
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim())
  }
  return values
}

/**
 * a cookie's one value; none when it is missing or sent more than once (which one a page would read is not for us to
 * guess)
 */
export function cookieOf(req: Request | Headers, name: string): string | undefined {
  const values = cookieValuesOf(req, name)
  return values.length === 1 ? values[0] : undefined
}

/**
 * A bodiless endpoint acts only on a whole request: a body sent anyway is read to its end (within the
 * limit) and dropped, so that a request whose body breaks off (a malformed chunk, a closed connection) is
 * a 499 that did nothing, not a write whose answer is lost. Undefined: the endpoint's body.
 */
async function awaitWholeBody(req: Request): Promise<undefined> {
  if (req.method !== 'GET' && req.method !== 'HEAD') await bodyBytes(req)
  return undefined
}

/** the request's body, read, typed and parsed against the endpoint's schema (undefined for bodiless endpoints) */
async function requestBody(
  e: Pick<AnyEndpoint, 'body' | 'bodyOptional' | 'maxBodyKiB'>,
  req: Request,
): Promise<unknown> {
  if (!e.body) return undefined
  const text = await readBody(req, e.maxBodyKiB)
  // a body is JSON (application/json or a +json type, parameters allowed); with no body the type does not matter
  const type = (req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (text.trim() !== '' && !JSON_TYPE.test(type)) throw unsupportedMediaType()
  if (text.trim() === '') {
    if (!e.bodyOptional) throw malformedBody('Required request body is missing')
    return parse(e.body, {})
  }
  let value: unknown
  try {
    value = parseJsonText(text)
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw malformedBody(`Malformed JSON: ${err.message}`)
    throw err
  }
  return parseBody(e.body, value)
}

/**
 * An endpoint with a deferred token check, its path and body valid: `handle` gets the DeferredAuth and
 * must settle the token through it before anything else. Should it fail or finish without having done
 * so (a defect), the token is checked here first, so that an unknown token is still a 401.
 */
async function runWithDeferredAuth<S extends { siteId: string }>(
  access: RouteAccess<S>,
  e: AnyEndpoint<S>,
  req: Request,
  traceId: string,
  token: string,
  params: unknown,
  body: unknown,
): Promise<unknown> {
  const siteId = (params as { siteId: string }).siteId
  let settled = false
  let clock = REAL_TIME
  const auth: DeferredAuth = {
    get settled() {
      return settled
    },
    get clock() {
      return clock
    },
    async check() {
      if (settled) return
      const check = await access.checkToken(token)
      settled = true
      const site = admitted(check)
      if (site.siteId !== siteId) throw forbidden()
      clock = site.clock
    },
    async write<T>(ctes: SqlFragment, result: string, writtenOn: SiteClock): Promise<T[]> {
      if (settled) throw new Error('the token was checked already: write without it')
      // a failed statement counted nothing and leaves the check to do
      const r = await access.writeWithTokenCheck<T>(token, siteId, writtenOn, ctes, result)
      settled = true
      if ('unauthorized' in r) throw unauthorized()
      if ('limited' in r) throw rateLimited(r.retryAfterSeconds)
      if ('forbidden' in r) throw forbidden()
      if ('clockMoved' in r) {
        clock = r.clockMoved
        throw new ClockMoved(r.clockMoved)
      }
      clock = r.clock
      return r.rows
    },
  }
  let answer: unknown
  try {
    answer = await e.handle({ siteId, params, body, traceId, req, auth, clock: REAL_TIME })
  } catch (err) {
    if (!settled) await auth.check()
    throw err
  }
  if (!settled) {
    await auth.check()
    throw new Error('an endpoint with a deferred token check answered without checking the token')
  }
  return answer
}

/**
 * A browser request from another site: by Sec-Fetch-Site where the browser sends it, else by Origin
 * (compared with the service's public origin and the Host it was reached at). Requests without
 * either header do not come from a browser page and are not cross-site.
 */
export function isCrossSite(req: Request): boolean {
  const fetchSite = req.headers.get('sec-fetch-site')
  if (fetchSite) return fetchSite !== 'same-origin' && fetchSite !== 'none'
  const origin = req.headers.get('origin')
  if (!origin) return false
  return !isOwnOrigin(req, origin)
}

/** the service's public origin, or the one the request was addressed to */
/**
 * The service's own origin: PUBLIC_BASE_URL's when it is set (then a Host header naming another origin
 * is not believed), else the one the request was addressed to (X-Forwarded-Proto believed only behind
 * TRUSTED_PROXY_HOPS proxies of one's own).
 */
function isOwnOrigin(req: Request, origin: string): boolean {
  if (process.env.PUBLIC_BASE_URL) return origin === new URL(settings().publicBaseUrl).origin
  const behindProxy = Number(process.env.TRUSTED_PROXY_HOPS ?? 0) > 0
  const proto = (behindProxy && req.headers.get('x-forwarded-proto')) || new URL(req.url).protocol.replace(':', '')
  return origin === `${proto}://${req.headers.get('host')}`
}

export function parse<S extends z.core.$ZodType>(schema: S, value: unknown): z.output<S> {
  const r = safeParseRequest(schema, value)
  if (r.success) return r.data
  throw validationError(fieldErrors(r.error))
}

/**
 * A request's value parsed with each issue's input reported, which tells an absent field from a present one
 * (requiredMessage). The issues then carry what was sent (a card number among it): only their messages and paths
 * leave this module.
 */
function safeParseRequest<S extends z.core.$ZodType>(schema: S, value: unknown) {
  return z.safeParse(schema, value, { reportInput: true })
}

export function fieldErrors(error: z.core.$ZodError): FieldErrors {
  return Object.fromEntries(issueMessages(error.issues))
}

/** the issues' messages by field path */
function issueMessages(issues: readonly z.core.$ZodIssue[]): FieldMessages {
  const cause: FieldMessages = new Map()
  for (const issue of issues) addFieldError(cause, fieldPath(issue.path), requiredMessage(issue))
  return cause
}

const REQUIRED = 'is required'

/**
 * An issue's message, or "is required" when it was raised on an absent field: JSON has no undefined, so a reported
 * input that is undefined means nothing was sent there. A schema's own message speaks of a present value of the wrong
 * type or form ("must be an ISO 8601 date-time with an offset"), which misleads when the field is missing. A rule of
 * the enclosing object (`give either seconds or to`) reports the object as its input and keeps its words, and so does
 * a message that already says the field is required (`is required for CARD` says more). One rule for every schema;
 * an issue parsed without reportInput (no input key) keeps its message.
 */
function requiredMessage(issue: z.core.$ZodIssue): string {
  const absent = Object.hasOwn(issue, 'input') && issue.input === undefined
  return absent && !issue.message.startsWith(REQUIRED) ? REQUIRED : issue.message
}

/**
 * Field paths to messages while they are gathered. A Map, not an object: a path is the client's key
 * (`constructor`, `toString`, `__proto__` …), which on a plain object would read Object.prototype's
 * members. Object.fromEntries makes each an own data property, `__proto__` included.
 */
type FieldMessages = Map<string, string[]>

/** `customer.email`, `receipt.items[0].name`; a NUL in a key is written `\u0000`, never sent back raw */
function fieldPath(path: readonly PropertyKey[]): string {
  const key = path.reduce<string>(
    (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    '',
  )
  return key.replaceAll('\0', '\\u0000') || 'body'
}

function addFieldError(cause: FieldMessages, key: string, message: string): void {
  const messages = cause.get(key) ?? []
  if (!messages.includes(message)) messages.push(message)
  cause.set(key, messages)
}

/** a request body: its schema's problems and its unstorable strings, all named in one 400 */
function parseBody<S extends z.core.$ZodType>(schema: S, value: unknown): z.output<S> {
  const unstorable = unstorableText(value)
  const r = safeParseRequest(schema, value)
  if (r.success && !unstorable.length) return r.data
  const cause = issueMessages(r.success ? [] : r.error.issues)
  for (const { path, message } of unstorable) addFieldError(cause, fieldPath(path), message)
  throw validationError(Object.fromEntries(cause))
}

/** a lone UTF-16 surrogate: JSON's `\ud800` escape allows it, UTF-8 cannot encode it */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * The strings (values and keys, at any depth, known fields or not) that PostgreSQL cannot store:
 * text and jsonb refuse U+0000 (`\u0000` is valid JSON), and jsonb refuses a lone surrogate escape.
 * Checked on the whole parsed body, so no field can carry one to a write and make it a 500. Other
 * control characters are stored as sent.
 */
export function unstorableText(value: unknown): { path: PropertyKey[]; message: string }[] {
  const found: { path: PropertyKey[]; message: string }[] = []
  const check = (s: string, path: PropertyKey[], where: string) => {
    if (s.includes('\0')) found.push({ path, message: `must not contain the NUL character (U+0000)${where}` })
    if (LONE_SURROGATE.test(s))
      found.push({ path, message: `must be well-formed Unicode, without a lone surrogate${where}` })
  }
  const walk = (v: unknown, path: PropertyKey[]) => {
    if (typeof v === 'string') check(v, path, '')
    else if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]))
    else if (v !== null && typeof v === 'object' && !(v instanceof RawNumber))
      for (const [k, item] of Object.entries(v)) {
        check(k, [...path, k], ' in its name')
        walk(item, [...path, k])
      }
  }
  walk(value, [])
  return found
}

// one decoder for every body (decode() with no stream option starts afresh each time)
const UTF8 = new TextDecoder('utf-8', { fatal: true })

async function readBody(req: Request, maxKiB?: number): Promise<string> {
  const bytes = await bodyBytes(req, maxKiB)
  try {
    return UTF8.decode(bytes)
  } catch {
    throw malformedBody('Request body is not UTF-8')
  }
}

/** the body's bytes, within the limit (413 past it) */
async function bodyBytes(req: Request, maxKiB?: number): Promise<Buffer> {
  try {
    return await readBoundedBody(req, maxKiB === undefined ? undefined : maxKiB * 1024)
  } catch (e) {
    if (e instanceof BodyTooLarge) throw payloadTooLarge(maxKiB)
    throw e
  }
}
