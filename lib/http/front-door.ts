// What every request meets before Next.js routes it (scripts/http-server.ts): request targets and
// methods that Next.js would answer with a 500, an empty 400 or an HTML page are answered here in the
// contract's error shape, a trailing slash is dropped instead of redirected, and the client's address
// is fixed from the socket (a header the client sent cannot choose it). Plain Node types only: no
// Next.js imports.
import type { IncomingHttpHeaders } from 'node:http'
import { ApiError, malformedBody, methodNotAllowed, notFound, validationError } from './api-error'
import { API_PREFIXES, API_ROUTE_METHODS } from './api-routes'
import { routedPath, templateMatcher } from './route-match'

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
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL = /[\u0000-\u001f\u007f]/

/** `host`: an absolute-form target's authority, which replaces the Host header (RFC 9112 §3.2.2) */
export type FrontDoorAnswer = { pass: true; url: string; host?: string } | { pass: false; error: ApiError }

/**
 * the methods the service serves; Next.js answers any other (TRACE, PROPFIND, MKCOL, PURGE, LINK, …) with an empty 400
 * or an HTML 500
 */
export const SERVED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** what the pages and their forms take (a page is read, a form posted) */
const PAGE_METHODS = ['GET', 'HEAD', 'POST']

/** the template of the API route a routed path reaches (lib/http/api-routes.ts), under /api */
const apiTemplate = templateMatcher(Object.keys(API_ROUTE_METHODS).map((t) => `/api${t}`))

/** a method the service does not serve: 405 with what the path takes, or the 404 of an API path that is no route */
function refuseMethod(path: string): ApiError {
  // (the bare prefixes and unknown partner paths were answered 404 before)
  if (!API_PREFIXES.some((p) => path.startsWith(`${p}/`))) return methodNotAllowed(PAGE_METHODS)
  // the path's route among the API's, its alias reduced to /api
  const routed = routedPath(path)
  const template = routed === null ? undefined : apiTemplate(routed)
  const methods = template === undefined ? undefined : API_ROUTE_METHODS[template.slice('/api'.length)]
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
  // absolute-form (`GET http://host/path HTTP/1.1`), which a server must accept: its path is judged as
  // any other, its authority becomes the Host. Taken apart by hand: URL() would resolve dot segments.
  const absolute = ABSOLUTE_FORM.exec(target)
  if (absolute) {
    const [, authority, rest] = absolute
    if (!isHostValue(authority) || authority === '') return notATarget()
    const admitted = admitTarget(rest.startsWith('/') ? rest : `/${rest}`, method)
    return admitted.pass ? { ...admitted, host: authority } : admitted
  }
  if (!target.startsWith('/')) return notATarget()
  // a fragment is the client's alone (RFC 9110 §7.1), no part of an HTTP request target: sent raw, Next.js
  // would cut the path there and redirect. Malformed HTTP, as Node's parser answers the bytes it refuses
  if (target.includes('#'))
    return { pass: false, error: malformedBody('Malformed HTTP request: a fragment (#) in the request target') }
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
  // the path as Next.js resolves it, where that differs from the path as written
  const resolvedPath = hasOddSegments(path) ? resolved(path) : null
  // an API path with an empty segment (`//`), a dot segment (`.`, `..`, `%2e%2e`) or a backslash: Next.js
  // would redirect it (a plain-text 308) or resolve it to another path; a client sent a path it did not mean
  if (resolvedPath !== null && (isApiPath(decoded) || isApiPath(resolvedPath)))
    return refuse('empty segments (//), dot segments (. and ..) and backslashes are not allowed in an API path')
  // the path decoded above, so it decodes again
  const lower = decodeURIComponent(path).toLowerCase()
  if (BARE_PREFIXES.has(lower)) return { pass: false, error: notFound('Route') }
  if (lower.startsWith('/partner/') && !PARTNER_ALIASES.some((p) => lower.startsWith(p)))
    return { pass: false, error: notFound('Route') }
  // an API path written otherwise than its prefix is (`/API/…`, `/%61pi/…`, `/api%2fhealth`): Next.js routes
  // the path as written, case and escapes included, and would answer its HTML 404 page
  if (isApiPath(lower) && !API_PREFIXES.some((p) => path.startsWith(`${p}/`)))
    return { pass: false, error: notFound('Route') }
  // Next.js's image optimiser: this service shows no optimised image, and the route fetches any local path
  // it is given (past this front door) and answers a 500 for one that fails
  // (by the path as written and as Next.js resolves it: `/_next/./image` is the same route)
  if ([lower, resolvedPath?.toLowerCase() ?? lower].some((p) => p === '/_next/image' || p.startsWith('/_next/image/')))
    return { pass: false, error: notFound('Route') }
  if (method !== undefined && !SERVED_METHODS.has(method)) return { pass: false, error: refuseMethod(path) }
  return { pass: true, url: path + query }
}

const refuse = (message: string): FrontDoorAnswer => ({ pass: false, error: validationError({ path: [message] }) })

/**
 * a request target that is neither a path nor an http(s) URL with a host: malformed HTTP, as Node's parser answers the
 * bytes it refuses
 */
const notATarget = (): FrontDoorAnswer => ({
  pass: false,
  error: malformedBody('Malformed HTTP request: the request target must be a path or an http(s) URL with a host'),
})

/**
 * Request headers that steer Next.js's own machinery (React Server Components payloads, router state,
 * Server Actions, prefetches, middleware subrequests): the API's routes serve none of it, and Next.js
 * would answer such a request to an API path with a redirect (a 307 to `?_rsc`) or a page error.
 */
const NEXT_INTERNAL_HEADERS = [
  'rsc',
  'next-router-state-tree',
  'next-router-prefetch',
  'next-router-segment-prefetch',
  'next-action',
  'next-url',
  'next-hmr-refresh',
  'x-middleware-subrequest',
  'x-middleware-prefetch',
  'x-nextjs-data',
]

/** drops Next.js's own request headers from a request to an API path (the admitted url) */
export function dropNextHeaders(url: string, headers: Record<string, unknown>): void {
  if (!isApiPath(decodeURIComponent(url.split('?')[0]))) return
  for (const name of NEXT_INTERNAL_HEADERS) delete headers[name]
}

/** `http://authority/rest` or `https://…`, any case; the rest may be empty or start with `?` */
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)(.*)$/is

/** a path under /api or /partner, counting from its first non-empty segment (`//api/x` is one) */
function isApiPath(decoded: string): boolean {
  const first = decoded
    .split(/[/\\]/)
    .find((segment) => segment !== '')
    ?.toLowerCase()
  return first === 'api' || first === 'partner'
}

/**
 * The path as a URL parser resolves it: backslashes as slashes, percent-encoded dots as dots, dot segments
 * applied (RFC 3986 §5.2.4). By hand: URL() reads a path starting with `//` as an authority, and throws on
 * one that is not a host (`//a:b/x`).
 */
function resolved(rawPath: string): string {
  const out: string[] = []
  for (const segment of rawPath.replace(/%2e/gi, '.').replace(/\\/g, '/').split('/').slice(1)) {
    if (segment === '..') out.pop()
    else if (segment !== '.') out.push(segment)
  }
  // each segment decodes (the whole path did), so the path of some of them does too
  return decodeURIComponent(`/${out.join('/')}`)
}

/**
 * an empty segment, a `.` or `..` segment (percent-encoded or not), or a backslash, in a path without trailing slashes
 */
function hasOddSegments(rawPath: string): boolean {
  if (rawPath.includes('\\')) return true
  return (
    rawPath.length > 1 &&
    rawPath
      .slice(1)
      .split('/')
      .some((segment) => {
        const s = segment.replace(/%2e/gi, '.')
        return s === '' || s === '.' || s === '..'
      })
  )
}

/**
 * A Host header's value (RFC 9110 §7.2, RFC 3986 §3.2.2): a registered name (unreserved characters,
 * percent-encodings and sub-delims; empty allowed), an IPv4 address or a bracketed IPv6 literal,
 * and an optional port. No user information, no path, no space.
 */
export function isHostValue(value: string): boolean {
  return /^(?:\[[0-9a-f:.]+\]|\[v[0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+\]|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?$/i.test(
    value,
  )
}

/**
 * The message's framing and Host, before anything is dispatched (RFC 9112 §3.2, §6.1): a Transfer-Encoding
 * other than exactly `chunked` is refused (Node.js would dispatch the request and then read its body in a
 * way no client meant, answering nothing: a bodiless write would be done and its answer lost), and so is an
 * HTTP/1.1 request without a Host, a second Host line, or a Host that is not a host.
 */
export function admitMessage(m: { httpVersion: string; rawHeaders: readonly string[] }): ApiError | null {
  const all = (name: string) => {
    const found: string[] = []
    for (let i = 0; i + 1 < m.rawHeaders.length; i += 2)
      if (m.rawHeaders[i].toLowerCase() === name) found.push(m.rawHeaders[i + 1])
    return found
  }
  const codings = all('transfer-encoding')
  if (codings.length && (codings.length > 1 || codings[0].trim().toLowerCase() !== 'chunked'))
    return malformedBody(
      'Malformed HTTP request: the only transfer coding taken is chunked (Transfer-Encoding: chunked)',
    )
  const hosts = all('host')
  if (hosts.length > 1) return malformedBody('Malformed HTTP request: more than one Host header')
  if (hosts.length === 0 && m.httpVersion !== '1.0')
    return malformedBody('Malformed HTTP request: an HTTP/1.1 request needs a Host header')
  if (hosts.length === 1 && !isHostValue(hosts[0].trim()))
    return malformedBody('Malformed HTTP request: the Host header is not a host')
  return null
}

/**
 * The client's address: the socket's peer, or, behind `trustedProxyHops` proxies of one's own, the
 * address that many hops back in X-Forwarded-For (the right-most entries are the proxies' own
 * additions; what a client wrote to the left of them is not trusted).
 */
export function clientAddress(
  headers: IncomingHttpHeaders,
  socketAddress: string | undefined,
  trustedProxyHops: number,
): string {
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
  const groups = a.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return a
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
