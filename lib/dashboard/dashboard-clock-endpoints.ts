// "Advance" in the dashboard: POST /dashboard/actions/sandbox/clock/advance, the body the API's
// POST …/sandbox/clock/advance takes (`seconds` or `to`), parsed by the same schema (the same causes),
// answered as it answers (SandboxClock). Through the API's wrapper with `access: 'dashboard'`: the
// service's own origin and a live session are required; the session's site is the only clock it moves.
// SANDBOX_CLOCK=off: every method is an unknown path's 404, as for the API's sandbox endpoints.
import { z } from 'zod'
import { apiRoute, endpoint } from '../api/api-route'
import { clockAdvanceSchema, unlessSwitchedOff } from '../sandbox/sandbox-endpoints'
import { advanceClockFromDashboard } from './dashboard-clock'

export const clockAdvanceRoute = unlessSwitchedOff(
  apiRoute({
    POST: endpoint({
      access: 'dashboard',
      params: z.object({}),
      body: clockAdvanceSchema,
      handle: ({ session, body }) =>
        advanceClockFromDashboard(session!, body.seconds !== undefined ? { seconds: body.seconds } : { to: body.to! }),
    }),
  }),
)
