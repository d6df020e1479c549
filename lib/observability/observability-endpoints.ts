// GET /api/metrics (Prometheus, behind METRICS_TOKEN) and GET /api/ready (readiness, no token).
import { createHash, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { settings } from '../config'
import { notFound, serviceUnavailable, unauthorized } from '../http/api-error'
import { apiRoute, endpoint, type ApiRoute } from '../api/api-route'
import { TextReply, unknownRoute, type RouteHandler } from '../http/api-route'
import { addDatabaseMetrics } from './database-metrics'
import { metrics, metricsText } from './metrics'
import { readiness } from './readiness'

const digest = (text: string) => createHash('sha256').update(text).digest()

/** the request's bearer token is METRICS_TOKEN (compared in constant time: digests of equal length) */
function opensMetrics(authorization: string | null, metricsToken: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')
  return m !== null && timingSafeEqual(digest(m[1]), digest(metricsToken))
}

/** GET /api/ready's answer */
export const readySchema = z
  .strictObject({ status: z.literal('ready') })
  .meta({ id: 'Ready', description: 'the instance takes requests' })

const metricsEndpoints = apiRoute({
  GET: endpoint({
    params: z.object({}),
    // not a site's endpoint: its own token, never a site's
    access: 'public',
    doc: {
      operationId: 'metrics',
      tag: 'Service',
      summary: 'Metrics (Prometheus)',
      description:
        "The instance's metrics in Prometheus' text format, for its scraper. Off (404, like an unknown path) unless the instance has `METRICS_TOKEN`; then that token is the bearer (a site's token is a 401). Requests by route template and status, payments, captures and refunds by status, notification deliveries, the outbox backlog, scheduler lag, the database pool and the process.",
      security: 'metricsToken',
      errors: ['auth.unauthorized', 'payin.resource.not.found'],
      textResponse: {
        contentType: 'text/plain; version=0.0.4',
        example:
          '# HELP payin_payments Payments in the database by status\n# TYPE payin_payments gauge\npayin_payments{status="COMPLETED"} 42\n',
      },
    },
    handle: async ({ req }) => {
      const { metricsToken } = settings()
      // off unless configured: the same 404 as any unknown path
      if (!metricsToken) throw notFound('Route')
      if (!opensMetrics(req.headers.get('authorization'), metricsToken))
        throw unauthorized('Missing or wrong metrics token')
      addDatabaseMetrics(metrics().registry)
      const { text, contentType } = await metricsText()
      return new TextReply(text, contentType)
    },
  }),
})

/**
 * Off (no METRICS_TOKEN), every method answers what an unknown path does (404): a 405 naming `Allow: GET`
 * would tell the endpoint is there. On, the other methods are 405 as on any route.
 */
export const metricsRoute: ApiRoute = {
  ...metricsEndpoints,
  ...Object.fromEntries(
    (['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const).map((method): [string, RouteHandler] => [
      method,
      (req, ctx) => (settings().metricsToken ? metricsEndpoints[method](req, ctx) : unknownRoute(req, ctx)),
    ]),
  ),
}

export const readinessRoute = apiRoute({
  GET: endpoint({
    params: z.object({}),
    access: 'public',
    response: readySchema,
    doc: {
      operationId: 'ready',
      tag: 'Service',
      summary: 'Readiness',
      description:
        "No token. 200 when the instance should be sent requests; 503 while it drains for a shutdown, its database does not answer, or a migration of this version is not applied yet, whether being applied or pending (the description says which); a newer version's migrations do not count. `/health` is the liveness check.",
      errors: ['service.unavailable'],
      responseExamples: { ready: { summary: 'Ready', value: { status: 'ready' } } },
    },
    handle: async () => {
      const r = await readiness()
      if (!r.ready) throw serviceUnavailable(r.reason)
      return { status: 'ready' as const }
    },
  }),
})
