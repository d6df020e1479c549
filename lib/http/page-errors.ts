// A failure Next.js catches while it renders a page (the dashboard's, the payment page) or runs the proxy,
// as one JSON log line under the ids of its request (instrumentation.ts onRequestError): the trace id and
// the request id the proxy gave the page (proxy.ts, as request headers and X-Trace-Id / X-Request-Id on the
// answer), the path, and the failure (card-like digits masked, as every log line). The route handlers
// log their own failures with their request line (lib/http/api-route.ts): one reaching this hook is
// logged here too.
//
// Next.js also prints the failures it catches on stderr (console.error: a multi-line stack mapped to the
// sources, nothing masked, no request id), some before it calls the hook, some after. In production each
// console.error of this process is one JSON line too (`kind: "console"`, card-like digits masked), and a
// failure this hook has logged is not printed again. `npm run dev` keeps Next.js's readable output.
import { formatWithOptions } from 'node:util'
import { describeFailure, logLine, writeJsonLine } from '../log/log-line'
import { isRequestId, isTraceId, newRequestId, newTraceId } from './trace-id'

/** what Next.js tells of the failing request (its onRequestError hook's second and third arguments) */
export interface FailedRequest {
  path: string
  method: string
  headers: NodeJS.Dict<string | string[]>
}
export interface FailureContext {
  routerKind: string
  routePath: string
  routeType: 'render' | 'route' | 'action' | 'proxy'
}

// shared by the hook and the console (Next.js may load this module in more than one bundle)
const LOGGED = Symbol.for('payin.page-errors.logged')
const CONSOLE = Symbol.for('payin.page-errors.console')
const g = globalThis as unknown as Record<symbol, unknown>
const logged = (): WeakSet<object> => (g[LOGGED] ??= new WeakSet<object>()) as WeakSet<object>

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null

/**
 * the failure's log line: level error, the request's ids (new ones when its request had none, e.g. no proxy ran), its
 * path without the query
 */
export function logRequestFailure(error: unknown, request: FailedRequest, context: FailureContext): void {
  if (error && typeof error === 'object') logged().add(error)
  const traceId = first(request.headers['x-trace-id'])
  const requestId = first(request.headers['x-request-id'])
  logLine({
    level: 'error',
    traceId: isTraceId(traceId) ? traceId : newTraceId(),
    requestId: isRequestId(requestId) ? requestId : newRequestId(),
    method: request.method,
    path: request.path.split('?')[0].slice(0, 200),
    kind: context.routeType === 'render' ? 'page' : context.routeType,
    route: context.routePath,
    error: describeFailure(error),
  })
}

// colours and cursor moves of Next.js's own prefixes (⨯ in red)
// eslint-disable-next-line no-control-regex -- the escape character (ESC) starts each sequence
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g

/**
 * console.error and console.warn in this process (production): one JSON line on stderr each, masked
 * (Next.js warns of a request it refuses, an unknown Server Action id among them, with console.warn); a
 * failure logged above is not printed again
 */
export function consoleErrorAsJson(): void {
  if (g[CONSOLE] || process.env.NODE_ENV !== 'production') return
  g[CONSOLE] = true
  const asJson =
    (level: 'error' | 'warn') =>
    (...args: unknown[]) => {
      if (args.some((a) => a !== null && typeof a === 'object' && logged().has(a))) return
      const message = formatWithOptions({ colors: false }, ...args)
        .replace(ANSI, '')
        .trim()
      writeJsonLine(process.stderr, { level, kind: 'console', message })
    }
  console.error = asJson('error')
  console.warn = asJson('warn')
}
