// The one registry of the process's Prometheus metrics (prom-client), served by GET /api/metrics.
// It lives on globalThis: the server (scripts/http-server.ts, which measures every request at the front
// door) and the route handlers (bundled apart by Next.js, with copies of this module of their own) must
// read and write the same metrics. Whichever copy asks first creates it; the others find it there.
// The process's own numbers (requests, the pool, Node's process metrics) live here; the counts that
// describe the shared database are read from it at scrape time (database-metrics.ts).
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client'
import { methodLabel, routeTemplate, UNKNOWN_ROUTE } from './route-template'

type HttpLabels = 'method' | 'route' | 'status'

export interface Metrics {
  registry: Registry
  httpRequests: Counter<HttpLabels>
  httpDuration: Histogram<HttpLabels>
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
  const httpDuration = new Histogram({
    name: 'payin_http_request_duration_seconds',
    help: 'Time from a request reaching the server to its answer sent, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  })
  return { registry, httpRequests, httpDuration }
}

/** one answered request: counted and timed under its route's template, never its path */
export function recordRequest(method: string | undefined, target: string, status: number, seconds: number): void {
  const m = metrics()
  const labels = { method: methodLabel(method), route: routeTemplate(target), status: String(status) }
  m.httpRequests.inc(labels)
  m.httpDuration.observe(labels, seconds)
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
