// GET /api/metrics (Prometheus, behind METRICS_TOKEN) and GET /api/ready (readiness, no token).
import { createHash, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { settings } from '../config'
import { notFound, serviceUnavailable, unauthorized } from '../http/api-error'
import { apiRoute, endpoint, TextReply } from '../http/api-route'
import { addDatabaseMetrics } from './database-metrics'
import { metrics, metricsText } from './metrics'
import { readiness } from './readiness'

const digest = (text: string) => createHash('sha256').update(text).digest()

/** the request's bearer token is METRICS_TOKEN (compared in constant time: digests of equal length) */
function opensMetrics(authorization: string | null, metricsToken: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')
  return m !== null && timingSafeEqual(digest(m[1]), digest(metricsToken))
}

export const metricsRoute = apiRoute({
  GET: endpoint({
    params: z.object({}),
    // not a site's endpoint: its own token, never a site's
    access: 'public',
    handle: async ({ req }) => {
      const { metricsToken } = settings()
      // off unless configured: the same 404 as any unknown path
      if (!metricsToken) throw notFound('Route')
      if (!opensMetrics(req.headers.get('authorization'), metricsToken)) throw unauthorized('Missing or wrong metrics token')
      addDatabaseMetrics(metrics().registry)
      const { text, contentType } = await metricsText()
      return new TextReply(text, contentType)
    },
  }),
})

export const readinessRoute = apiRoute({
  GET: endpoint({
    params: z.object({}),
    access: 'public',
    handle: async () => {
      const r = await readiness()
      if (!r.ready) throw serviceUnavailable(r.reason)
      return { status: 'ready' }
    },
  }),
})
