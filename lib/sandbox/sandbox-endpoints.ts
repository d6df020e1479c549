// The sandbox's testing endpoints: the site's clock (read, advance) and a reset of its data. Route files
// under app/api/sites/[siteId]/sandbox re-export these. SANDBOX_CLOCK=off: every method of each answers
// what an unknown path does (404), as if they did not exist.
import { z } from 'zod'
import { settings } from '../config'
import { fieldError } from '../http/api-error'
import { apiRoute, endpoint, type ApiRoute } from '../api/api-route'
import { unknownRoute, type EndpointDoc, type RouteHandler } from '../http/api-route'
import { paymentTime, paymentTimeSchema } from '../time/wire-time'
import { dateTimeSchema, idSchema } from '../wire/common-schemas'
import { advanceSiteClock, MAX_CLOCK_OFFSET_MS } from './clock-advance'
import { resetSandbox } from './sandbox-reset'
import { siteClock } from '../sites/site-store'
import type { SiteClock } from './site-clock'

const sitePath = z.object({ siteId: idSchema })

export const sandboxClockSchema = z
  .strictObject({
    now: paymentTimeSchema.meta({ description: "the site's time" }),
    offsetSeconds: z
      .number()
      .min(0)
      .meta({ description: "how far the site's clock runs ahead of real time, in seconds (milliseconds as decimals)" }),
  })
  .meta({ id: 'SandboxClock', description: "the site's sandbox clock: every time rule of the site reads it" })

const renderClock = (clock: SiteClock): z.input<typeof sandboxClockSchema> => ({
  now: paymentTime(clock.now()),
  offsetSeconds: clock.offsetMs / 1000,
})

const MAX_SECONDS = MAX_CLOCK_OFFSET_MS / 1000

export const clockAdvanceSchema = z
  .object({
    seconds: z
      .int('must be a whole number of seconds')
      .min(1, 'must be at least 1: the clock only moves forward')
      .max(MAX_SECONDS, `must be at most ${MAX_SECONDS}`)
      .optional()
      .meta({ description: 'move the clock forward by this many seconds' }),
    to: dateTimeSchema
      .optional()
      .meta({ description: "move the clock to this time (later than the site's clock now)" }),
  })
  .refine((b) => (b.seconds === undefined) !== (b.to === undefined), {
    message: 'give either seconds or to',
    path: ['seconds'],
  })
  .meta({ id: 'ClockAdvance', description: 'either seconds or to' })

export const sandboxResetSchema = z
  .object({ confirm: z.string().meta({ description: "the site's id, again: nothing is deleted otherwise" }) })
  .meta({ id: 'SandboxResetRequest' })

export const sandboxResetAnswerSchema = z
  .strictObject({
    deleted: z
      .strictObject({ payments: z.int(), bills: z.int(), captures: z.int(), refunds: z.int(), notifications: z.int() })
      .meta({ description: 'how many of each were deleted' }),
    clock: sandboxClockSchema,
  })
  .meta({ id: 'SandboxReset' })

const T = '2026-11-23T12:00:00.000+00:00'
// SANDBOX_CLOCK=off: 404, as an unknown path
const CLOCK_ERRORS = { tag: 'Sandbox', errors: ['payin.resource.not.found'] } satisfies Partial<EndpointDoc>

const clockEndpoints = apiRoute({
  GET: endpoint({
    params: sitePath,
    response: sandboxClockSchema,
    doc: {
      operationId: 'readSandboxClock',
      ...CLOCK_ERRORS,
      summary: "Read the site's sandbox clock",
      description:
        "The site's time and how far it runs ahead of real time (0 until advanced). Off with SANDBOX_CLOCK=off (404).",
      responseExamples: { real: { summary: 'Never advanced', value: { now: T, offsetSeconds: 0 } } },
    },
    handle: async ({ clock }) => renderClock(clock),
  }),
})

const advanceEndpoints = apiRoute({
  POST: endpoint({
    params: sitePath,
    body: clockAdvanceSchema,
    response: sandboxClockSchema,
    doc: {
      operationId: 'advanceSandboxClock',
      ...CLOCK_ERRORS,
      // a write of the site held its gate too long (lib/sandbox/clock-advance.ts)
      errors: [...CLOCK_ERRORS.errors, 'service.unavailable'],
      summary: "Move the site's sandbox clock forward",
      description: [
        'By `seconds`, or `to` a date-time; forward only (a `to` at or before the clock is a 400). Every time rule of the site then reads the new time:',
        'bill deadlines and the 45-day window, the 3-D Secure timeout, the mobile operator, card and token expiry, recurrent `minAuthDay` and `expiryDate`, notification retries.',
        'The changes that fell due (declines, completions, expired bills, with their notifications) are applied before the answer; due notification retries are posted within a second.',
        'Other sites are untouched. Off with SANDBOX_CLOCK=off (404).',
        "Writes of the site under way finish first, and those that arrive meanwhile wait for it; 503 when the site's writes never pause long enough (the clock unmoved).",
      ].join(' '),
      requestExamples: {
        seconds: { summary: 'Sixteen minutes on (past the 3-D Secure timeout)', value: { seconds: 960 } },
        to: { summary: 'To a date-time', value: { to: '2027-01-01T00:00:00+03:00' } },
      },
      responseExamples: {
        advanced: { summary: 'A day ahead', value: { now: '2026-11-24T12:00:00.000+00:00', offsetSeconds: 86400 } },
      },
    },
    handle: async ({ siteId, body }) =>
      renderClock(
        await advanceSiteClock(siteId, body.seconds !== undefined ? { seconds: body.seconds } : { to: body.to! }),
      ),
  }),
})

const resetEndpoints = apiRoute({
  POST: endpoint({
    params: sitePath,
    body: sandboxResetSchema,
    response: sandboxResetAnswerSchema,
    doc: {
      operationId: 'resetSandbox',
      ...CLOCK_ERRORS,
      // a write of the site held its gate too long (lib/sandbox/sandbox-reset.ts)
      errors: [...CLOCK_ERRORS.errors, 'service.unavailable'],
      summary: "Delete the site's test data",
      description: [
        "Deletes the site's payments, bills, captures, refunds, payment tokens, SBP QR codes, FPS tokens and notifications, and sets its clock back to real time.",
        'In one transaction; a site of more than a thousand bills first loses them a thousand at a time, each batch with all that hangs on them in a transaction of its own, and the last transaction deletes the rest with the clock: every write of the site made before it is deleted.',
        'Its API tokens, notification URL and signing secret stay. `confirm` must repeat the site id. Off with SANDBOX_CLOCK=off (404).',
        "Writes of the site under way finish before each transaction, and those that arrive meanwhile wait for it; 503 when the site's writes never pause long enough.",
        'A reset that failed midway leaves the site whole (each batch went entirely, with every payment kept as it was), and the next one finishes it.',
      ].join(' '),
      requestExamples: { reset: { summary: 'Reset the site demo', value: { confirm: 'demo' } } },
      responseExamples: {
        reset: {
          summary: 'Reset',
          value: {
            deleted: { payments: 12, bills: 9, captures: 2, refunds: 1, notifications: 14 },
            clock: { now: T, offsetSeconds: 0 },
          },
        },
      },
    },
    handle: async ({ siteId, body }) => {
      if (body.confirm !== siteId) throw fieldErrorConfirm()
      const deleted = await resetSandbox(siteId)
      return { deleted, clock: renderClock(await siteClock(siteId)) }
    },
  }),
})

const fieldErrorConfirm = () => fieldError('confirm', "must be the site's id: nothing was deleted")

/** every method of the route as an unknown path's 404 while SANDBOX_CLOCK=off (the dashboard's clock action too) */
export function unlessSwitchedOff(route: ApiRoute): ApiRoute {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
  return {
    ...route,
    ...Object.fromEntries(
      methods.map((m): [string, RouteHandler] => [
        m,
        (req, ctx) => (settings().sandboxClock ? route[m](req, ctx) : unknownRoute(req, ctx)),
      ]),
    ),
  }
}

export const sandboxClockRoute = unlessSwitchedOff(clockEndpoints)
export const sandboxClockAdvanceRoute = unlessSwitchedOff(advanceEndpoints)
export const sandboxResetRoute = unlessSwitchedOff(resetEndpoints)
