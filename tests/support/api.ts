// What the HTTP tests share: the server's address, sites with tokens, a small JSON client.
// The server is started by scripts/run-tests.ts; BASE_URL and DATABASE_URL come from it.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { redact } from '../../lib/log/log-line.ts'
import { testPorts } from '../../scripts/test-ports.ts'

/** the suite's server (run outside scripts/run-tests.ts: where TEST_PORT_BASE and TEST_PORT put it) */
export const BASE_URL = process.env.BASE_URL ?? `http://127.0.0.1:${testPorts().server}`

/**
 * a new id, the prefix and a UUID. About one UUID in 45 holds 13 digits in a row (hyphens between them), which
 * the request log masks as a card number: such a one is drawn again, so that a test looking for its ids in the
 * log always finds them.
 */
export function uid(prefix = 'id'): string {
  for (;;) {
    const id = `${prefix}-${randomUUID()}`
    if (redact(id) === id) return id
  }
}

/** a new site and a token of it, made through the domain module on the test database */
export async function newSite(prefix = 'site'): Promise<{ siteId: string; token: string }> {
  const { closeDb } = await import('../../lib/db/client.ts')
  const { issueToken } = await import('../../lib/sites/site-tokens.ts')
  const siteId = uid(prefix)
  try {
    return { siteId, token: await issueToken(siteId) }
  } finally {
    await closeDb() // no pool left open to keep the test process alive
  }
}

export interface Answer<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

export async function request<T = any>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; base?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...(opts.headers ?? {}) }
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`
  let body: string | undefined = opts.rawBody
  if (opts.body !== undefined) body = JSON.stringify(opts.body)
  if (body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json'
  const res = await fetch(`${opts.base ?? BASE_URL}${path}`, { method, headers, body })
  const text = await res.text()
  let parsed: any
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  return { status: res.status, headers: res.headers, body: parsed, text }
}

/** a client bound to one site (of the suite's server, or of the instance at `server`) */
export function client(site: { siteId: string; token: string }, prefix = '/api', server = BASE_URL) {
  const base = `${prefix}/sites/${site.siteId}`
  const auth = { token: site.token, base: server }
  return {
    site,
    put: <T = any>(path: string, body?: unknown) => request<T>('PUT', `${base}${path}`, { ...auth, body }),
    post: <T = any>(path: string, body?: unknown) => request<T>('POST', `${base}${path}`, { ...auth, body }),
    get: <T = any>(path: string) => request<T>('GET', `${base}${path}`, auth),
    /** any method, raw body or extra headers, under this site's path */
    send: <T = any>(
      method: string,
      path: string,
      opts: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
    ) => request<T>(method, `${base}${path}`, { ...auth, ...opts }),
    /** creates a payment (it must answer 200) and answers its id */
    async newPayment(body: unknown): Promise<string> {
      const id = uid('pay')
      const r = await request('PUT', `${base}/payments/${id}`, { ...auth, body })
      if (r.status !== 200) throw new Error(`creating payment ${id} answered ${r.status}: ${r.text}`)
      return id
    },
    /** a payment as it is now (it must answer 200) */
    async paymentNow(id: string): Promise<any> {
      const r = await request('GET', `${base}/payments/${id}`, auth)
      if (r.status !== 200) throw new Error(`reading payment ${id} answered ${r.status}: ${r.text}`)
      return r.body
    },
  }
}

/** a card payment request; `over` replaces fields */
export function cardPayment(over: Record<string, unknown> = {}, card: Record<string, unknown> = {}) {
  return {
    paymentMethod: { type: 'CARD', pan: '4111111111111111', expiryDate: '12/30', cvv2: '123', ...card },
    amount: { value: '100.00', currency: 'RUB' },
    flags: ['SALE'],
    ...over,
  }
}

/** a two-step (authorise, then capture) card payment request */
export function twoStepPayment(over: Record<string, unknown> = {}, card: Record<string, unknown> = {}) {
  return cardPayment({ flags: [], ...over }, card)
}

/** payments, captures and refunds answer date-times with milliseconds, in UTC written +00:00 */
export const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/

/** an amount on the wire */
export const rub = (value: string) => ({ value, currency: 'RUB' })

/** the error's `cause` must name `field` (with at least one message) */
export function assertCause(a: Answer, field: string): void {
  const messages = a.body?.cause?.[field]
  if (!Array.isArray(messages) || !messages.length || !messages.every((m: unknown) => typeof m === 'string' && m))
    throw new Error(`cause does not name ${field}: ${a.text}`)
}

/** a 400 validation.error whose cause names `field` */
export function assertValidation(a: Answer, field: string): void {
  assertErrorShape(a, 400, 'validation.error')
  assertCause(a, field)
}

/** the contract's error shape */
export function assertErrorShape(a: Answer, status: number, errorCode: string): void {
  const problems: string[] = []
  if (a.status !== status) problems.push(`status ${a.status}, expected ${status}`)
  const b = a.body ?? {}
  if (b.errorCode !== errorCode) problems.push(`errorCode ${b.errorCode}, expected ${errorCode}`)
  if (b.serviceName !== 'payin-core') problems.push('serviceName')
  for (const f of ['description', 'userMessage', 'traceId']) if (typeof b[f] !== 'string' || !b[f]) problems.push(f)
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/.test(b.dateTime ?? ''))
    problems.push(`dateTime ${b.dateTime}`)
  if (a.headers.get('x-trace-id') !== b.traceId) problems.push('X-Trace-Id header differs from traceId')
  if (problems.length) throw new Error(`not the contract's ${status} ${errorCode}: ${problems.join('; ')}\n${a.text}`)
}

/** bills answer date-times without milliseconds, in UTC written +00:00 */
export const BILL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/

/** an instant `ms` from now as ISO 8601 with `Z` (the payment deadline of a bill) */
export const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString()

export const DAY_MS = 24 * 3600_000

/** a bill create request (3.00 RUB, SALE, payable for a day); `over` replaces fields */
export function billRequest(over: Record<string, unknown> = {}) {
  return {
    amount: { value: '3.00', currency: 'RUB' },
    expirationDateTime: fromNow(DAY_MS),
    comment: 'Text comment',
    flags: ['SALE'],
    ...over,
  }
}

/**
 * an approved card-charging payment's answered paymentMethod without its authorisation: its rrn (12 digits) and
 * authCode (6) are checked for their form and left out
 */
export function besidesAuthorisation(method: Record<string, unknown>): Record<string, unknown> {
  const { rrn, authCode, ...rest } = method
  assert.match(String(rrn), /^\d{12}$/)
  assert.match(String(authCode), /^\d{6}$/)
  return rest
}
