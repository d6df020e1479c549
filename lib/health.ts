// GET /api/health: 200 {"status":"ok"} once the database answers.
import { z } from 'zod'
import { db } from './db/client'
import { serviceUnavailable } from './http/api-error'
import { apiRoute, endpoint } from './http/api-route'

export const healthRoute = apiRoute({
  GET: endpoint({
    params: z.object({}),
    access: 'public',
    handle: async () => {
      try {
        await db().$queryRaw`SELECT 1`
      } catch {
        throw serviceUnavailable('Database unreachable')
      }
      return { status: 'ok' }
    },
  }),
})
