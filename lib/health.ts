// GET /api/health: 200 {"status":"ok"} once the database answers.
import { z } from 'zod'
import { db } from './db/client'
import { serviceUnavailable } from './http/api-error'
import { apiRoute, endpoint } from './api/api-route'

export const healthSchema = z
  .strictObject({ status: z.literal('ok') })
  .meta({ id: 'Health', description: 'the database answers' })

export const healthRoute = apiRoute({
  GET: endpoint({
    params: z.object({}),
    access: 'public',
    response: healthSchema,
    doc: {
      operationId: 'health',
      tag: 'Service',
      summary: 'Health',
      description: 'No token. 200 once the database answers, else 503.',
      errors: ['service.unavailable'],
      responseExamples: { ok: { summary: 'Healthy', value: { status: 'ok' } } },
    },
    handle: async () => {
      try {
        await db().$queryRaw`SELECT 1`
      } catch {
        throw serviceUnavailable('Database unreachable')
      }
      return { status: 'ok' as const }
    },
  }),
})
