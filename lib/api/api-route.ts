// The API's route wrapper as every endpoint module uses it: lib/http/api-route.ts's, given what admits a
// request — a site's token (lib/sites/site-tokens.ts, which reads the site's sandbox clock with it) and the
// dashboard's session (lib/dashboard/dashboard-session.ts). Here, above both, so that lib/http/ knows no
// domain module.
import type { z } from 'zod'
import { settings } from '../config'
import { SESSION_COOKIE, sessionOf, type DashboardSession } from '../dashboard/dashboard-session'
import {
  cookieOf,
  routeWrapper,
  type AnyEndpoint as HttpAnyEndpoint,
  type ApiRoute as HttpApiRoute,
  type Endpoint as HttpEndpoint,
} from '../http/api-route'
import { checkToken, writeWithTokenCheck } from '../sites/site-tokens'

export const { apiRoute, endpoint } = routeWrapper<DashboardSession>({
  checkToken: (token, preload) => checkToken(token, settings().rateLimitPerMinute, preload),
  writeWithTokenCheck: (token, siteId, clock, ctes, result) =>
    writeWithTokenCheck(token, settings().rateLimitPerMinute, siteId, clock, ctes, result),
  sessionOf: (req) => sessionOf(cookieOf(req, SESSION_COOKIE)),
})

export type Endpoint<
  P extends z.core.$ZodType,
  B extends z.core.$ZodType,
  R extends z.core.$ZodType = z.core.$ZodType,
> = HttpEndpoint<P, B, R, DashboardSession>
export type AnyEndpoint = HttpAnyEndpoint<DashboardSession>
export type ApiRoute = HttpApiRoute<DashboardSession>
