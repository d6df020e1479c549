// The one registry of the process's Prometheus metrics (prom-client), served by GET /api/metrics.
// It lives on globalThis: the server (scripts/http-server.ts, which measures every request at the front
// door) and the route handlers (bundled apart by Next.js, with copies of this module of their own) must
// read and write the same metrics. Whichever copy asks first creates it; the others find it there.
// The process's own numbers (requests, the pool, Node's process metrics) live here; the counts that
// describe the shared database are read from it at scrape time (database-metrics.ts).
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client'
import { methodLabel, routeTemplate, UNKNOWN_ROUTE } from './route-template'

export interface Metrics {
  registry: Registry
  httpRequests: Counter<'method' | 'route' | 'status'>
  httpDuration: Histogram<'method' | 'route' | 'status_class'>
}

const KEY = Symbol.for('payin.metrics')

/** this process's metrics, created on first use */
export function metrics(): Metrics {
  const g = globalThis as Record<symbol, Metrics | undefined>
  return (g[KEY] ??= createMetrics())
}

function createMetrics(): Metrics {
  const registry = new Registry()
  // Node's standard process metrics (process_cpu_seconds_total, nodejs_heap_size_used_bytes, …) under
  // their usual names, which dashboards and alerts written for any Node.js service expect
  collectDefaultMetrics({ register: registry })
  const httpRequests = new Counter({
    name: 'payin_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  })
  // Bounded whatever clients send (docs/operators/metrics-and-logs.md): a label set of a histogram costs 15
  // lines of every scrape, and a client can make method × route × status vary at will (a page answers any
  // method; any route refuses one with a 4xx). So: by status class, not status, and by method only for
  // the API's successful answers, whose (method, route) pairs are the API's own (it answers any other
  // method 405); every other answer by route and status class alone. The counter keeps method and status.
  const httpDuration = new Histogram({
    name: 'payin_http_request_duration_seconds',
    help: "Time from a request reaching the server to its answer sent, by route template and status class (2xx, 3xx, 4xx, 5xx), and by method for the API's 2xx answers",
    labelNames: ['method', 'route', 'status_class'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  })
  return { registry, httpRequests, httpDuration }
}

/** `2xx` for 200…299, and so on (a client that left, 499, is `4xx`) */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`

/**
 * one answered request: counted and timed under its route's template, never its path (see createMetrics for the labels)
 */
export function recordRequest(method: string | undefined, target: string, status: number, seconds: number): void {
  const m = metrics()
  const route = routeTemplate(target)
  m.httpRequests.inc({ method: methodLabel(method), route, status: String(status) })
  const timed =
    status >= 200 && status < 300 && route.startsWith('/api/') ? { method: methodLabel(method), route } : { route }
  m.httpDuration.observe({ ...timed, status_class: statusClass(status) }, seconds)
}

/** a request Node's HTTP parser refused before it became a request (no method or path to speak of): counted only */
export function recordRefusedMessage(status: number): void {
  metrics().httpRequests.inc({ method: UNKNOWN_ROUTE, route: UNKNOWN_ROUTE, status: String(status) })
}

/** the metrics in Prometheus' text format, with its Content-Type */
export async function metricsText(): Promise<{ text: string; contentType: string }> {
  const { registry } = metrics()
  return { text: await registry.metrics(), contentType: registry.contentType }
}
