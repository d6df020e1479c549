// What every request meets before Next.js routes it (scripts/http-server.ts): request targets and
// methods that Next.js would answer with a 500, an empty 400 or an HTML page are answered here in the
// contract's error shape, a trailing slash is dropped instead of redirected, and the client's address
// is fixed from the socket (a header the client sent cannot choose it). Plain Node types only: no
// Next.js imports.
import type { IncomingHttpHeaders } from 'node:http'
import { routeTemplate } from '../observability/route-template'
import { ApiError, malformedBody, methodNotAllowed, notFound, validationError } from './api-error'
import { API_PREFIXES, API_ROUTE_METHODS } from './api-routes'

/** the header carrying the client address to the route handlers; whatever a client sent under it is replaced */
export const CLIENT_ADDRESS_HEADER = 'x-payin-client-address'

// set by the server process that runs the front door (route handlers run in the same process)
const FRONT_DOOR = Symbol.for('payin.front-door')

export function markFrontDoor(): void {
  ;(globalThis as Record<symbol, unknown>)[FRONT_DOOR] = true
}

/**
 * The client address the front door fixed; '' (one shared "unknown" client) when the app runs without
 * it (e.g. `next start`), where a header of that name would be the client's own.
 */
export function requestClientAddress(headers: Headers): string {
  return (globalThis as Record<symbol, unknown>)[FRONT_DOOR] ? (headers.get(CLIENT_ADDRESS_HEADER) ?? '') : ''
}

/** the protocol's path prefixes, bare (no resource named): a JSON 404, like any unknown API path */
const BARE_PREFIXES = new Set(['/api', '/partner', '/partner/v1', '/partner/payin', '/partner/payin/v1'])
const PARTNER_ALIASES = ['/partner/v1/', '/partner/payin/v1/']
// C0 controls and DEL, raw or decoded: no path of this service has them (a query is the page's or
// the handler's to judge: Next.js reads it leniently)
const CONTROL = /[\u0000-\u001f\u007f]/

export type FrontDoorAnswer = { pass: true; url: string } | { pass: false; error: ApiError }

/** the methods the service serves; Next.js answers any other (TRACE, PROPFIND, MKCOL, PURGE, LINK, …) with an empty 400 or an HTML 500 */
export const SERVED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** what the pages and their forms take (a page is read, a form posted) */
const PAGE_METHODS = ['GET', 'HEAD', 'POST']

/** a method the service does not serve: 405 with what the path takes, or the 404 of an API path that is no route */
function refuseMethod(path: string): ApiError {
  // (the bare prefixes and unknown partner paths were answered 404 before)
  if (!API_PREFIXES.some((p) => path.startsWith(`${p}/`))) return methodNotAllowed(PAGE_METHODS)
  // the metrics' templates are /api's (an alias reduced to it)
  const methods = API_ROUTE_METHODS[routeTemplate(path).slice('/api'.length)]
  return methods ? methodNotAllowed([...methods]) : notFound('Route')
}

/**
 * The request target as Next.js should see it, or the error to answer. A path whose percent-encoding
 * does not decode (to UTF-8) or decodes to a control character is refused; `/x/` is served as `/x`.
 * A method the service does not serve is refused too (after the target's own problems): 405 in the
 * error shape, its Allow the route's methods (a page's: GET, HEAD, POST), or the 404 of an unknown API
 * path, whatever its method.
 */
export function admitTarget(target: string, method?: string): FrontDoorAnswer {
  if (!target.startsWith('/')) return refuse('the request target must be a path')
  // a fragment is the client's alone (RFC 9110 §7.1), no part of an HTTP request target: sent raw, Next.js
  // would cut the path there and redirect. Malformed HTTP, as Node's parser answers the bytes it refuses
  if (target.includes('#')) return { pass: false, error: malformedBody('Malformed HTTP request: a fragment (#) in the request target') }
  const q = target.indexOf('?')
  let path = q < 0 ? target : target.slice(0, q)
  const query = q < 0 ? '' : target.slice(q)
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return refuse('malformed percent-encoding in the path')
  }
  if (CONTROL.test(decoded)) return refuse('control characters in the path')
  // trailing slashes off, by a scan (a regex anchored at the end backtracks over every run of slashes)
  let end = path.length
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--
  path = path.slice(0, end)
  // the path decoded above, so it decodes again
  const lower = decodeURIComponent(path).toLowerCase()
  if (BARE_PREFIXES.has(lower)) return { pass: false, error: notFound('Route') }
  if (lower.startsWith('/partner/') && !PARTNER_ALIASES.some((p) => lower.startsWith(p))) return { pass: false, error: notFound('Route') }
  if (method !== undefined && !SERVED_METHODS.has(method)) return { pass: false, error: refuseMethod(path) }
  return { pass: true, url: path + query }
}

const refuse = (message: string): FrontDoorAnswer => ({ pass: false, error: validationError({ path: [message] }) })

/**
 * The client's address: the socket's peer, or, behind `trustedProxyHops` proxies of one's own, the
 * address that many hops back in X-Forwarded-For (the right-most entries are the proxies' own
 * additions; what a client wrote to the left of them is not trusted).
 */
export function clientAddress(headers: IncomingHttpHeaders, socketAddress: string | undefined, trustedProxyHops: number): string {
  const peer = normaliseAddress(socketAddress ?? '')
  if (trustedProxyHops <= 0) return peer
  const forwarded = String(headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const hop = forwarded[forwarded.length - trustedProxyHops]
  return hop ? normaliseAddress(hop) : peer
}

/**
 * `::ffff:127.0.0.1` → `127.0.0.1`; an IPv6 address → its /64 network (`2001:db8:1:2::/64`: one
 * subscriber holds a whole /64, so counting single addresses would let it rotate through them);
 * anything else as given (lowercase, at most 64 characters).
 */
function normaliseAddress(address: string): string {
  const a = address.trim().toLowerCase().slice(0, 64)
  if (a.startsWith('::ffff:') && a.includes('.')) return a.slice(7)
  if (!a.includes(':')) return a
  const [head, tail = ''] = a.split('%')[0].split('::')
  const left = head ? head.split(':') : []
  const right = a.includes('::') && tail ? tail.split(':') : []
  const groups = a.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return a
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`
}
