// The dashboard's state-changing requests (its pages are read-only): signing in and out, capturing and
// refunding. Each goes through the API's wrapper (lib/http/api-route.ts): the service's own origin is
// required, the session too where it acts on the site, answers and errors in the contract's shape.
import { z } from 'zod'
import { settings } from '../config'
import { ApiError, fieldError } from '../http/api-error'
import { apiRoute, endpoint } from '../api/api-route'
import { cookieValuesOf, Reply } from '../http/api-route'
import { requestClientAddress } from '../http/front-door'
import { amountFromField } from '../i18n/locale-format'
import { parseAmountValue } from '../money/money'
import { actOnPayment } from './dashboard-actions'
import { endSession, SESSION_COOKIE, signIn, signInRetryAfter } from './dashboard-session'

const noParams = z.object({})

export const signInBodySchema = z.object({
  siteId: z.string().trim().min(1, 'required').max(200),
  token: z.string().trim().min(1, 'required').max(256),
})

/**
 * the session cookie: httpOnly, SameSite=Strict, Secure when the service is reached over https, for the dashboard's
 * paths only
 */
function sessionCookie(req: Request, value: string, maxAge?: number): string {
  const https = settings().publicBaseUrl.startsWith('https:') || req.headers.get('x-forwarded-proto') === 'https'
  return [
    `${SESSION_COOKIE}=${value}`,
    'Path=/dashboard',
    'HttpOnly',
    'SameSite=Strict',
    ...(https ? ['Secure'] : []),
    ...(maxAge !== undefined ? [`Max-Age=${maxAge}`] : []),
  ].join('; ')
}

export const signInRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard-public',
    params: noParams,
    body: signInBodySchema,
    handle: async ({ body, req }) => {
      const outcome = await signIn(body.siteId, body.token, requestClientAddress(req.headers))
      if (!outcome.ok) {
        // one message for every wrong pair: whether the site exists or the token is another site's is not said
        if (outcome.reason === 'limited')
          throw new ApiError(
            429,
            'rate.limit.exceeded',
            'Too many failed sign-ins: try again later',
            'Too many requests',
            undefined,
            { 'Retry-After': String(signInRetryAfter()) },
          )
        throw new ApiError(401, 'auth.unauthorized', 'Wrong site ID or API token', 'Unauthorized')
      }
      return new Reply({ siteId: outcome.session.siteId }, { 'Set-Cookie': sessionCookie(req, outcome.cookieValue) })
    },
  }),
})

export const signOutRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard-public',
    params: noParams,
    handle: async ({ req }) => {
      // every session the request names ends (a planted second cookie must not keep the real one alive)
      for (const value of cookieValuesOf(req, SESSION_COOKIE)) await endSession(value)
      return new Reply({ signedOut: true }, { 'Set-Cookie': sessionCookie(req, '', 0) })
    },
  }),
})

export const paymentActionBodySchema = z.object({
  amount: z.string().trim().min(1, 'required').max(30),
  /** made when the form was shown: the capture's or refund's id, so a form sent twice acts once */
  key: z.string().regex(/^[0-9a-f-]{36}$/, 'must be a UUID'),
})

const paymentParams = z.object({ paymentId: z.string().min(1).max(200) })

const paymentAction = (kind: 'capture' | 'refund') =>
  apiRoute({
    POST: endpoint({
      access: 'dashboard',
      params: paymentParams,
      body: paymentActionBodySchema,
      handle: async ({ session, params, body }) => {
        // typed in the page's language: `1234,50` as well as `1234.50`
        const value = parseAmountValue(amountFromField(body.amount))
        if (!value.ok || value.minor <= 0) throw fieldError('amount', value.ok ? 'must be above zero' : value.message)
        return actOnPayment(session!, kind, params.paymentId, body.key, value.minor)
      },
    }),
  })

export const captureActionRoute = paymentAction('capture')
export const refundActionRoute = paymentAction('refund')
