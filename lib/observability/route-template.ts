// The `route` and `method` labels of the HTTP metrics: a request path reduced to the template of the route
// that serves it (`/api/sites/{siteId}/payments/{paymentId}`), so that no id, token, attempt key or query
// ever becomes a label value, and the number of label values stays bounded whatever clients send.
// tests/unit/route-template.test.ts checks that every route of app/ and pages/ has its template here.

import { API_ROUTE_METHODS } from '../http/api-routes'
import { routedPath, templateMatcher } from '../http/route-match'

/** every route of the service (app/ and pages/), a `{name}` standing for one path segment */
const TEMPLATES: readonly string[] = [
  '/',
  '/icon.svg',
  // the API's routes (lib/http/api-routes.ts), and the benchmark's bound
  ...Object.keys(API_ROUTE_METHODS).map((t) => `/api${t}`),
  '/api/bench-empty',
  '/docs',
  '/acs',
  '/acs/result',
  '/pay/{invoiceUid}',
  '/pay/{invoiceUid}/3ds-return',
  '/pay/{invoiceUid}/attempts',
  '/pay/{invoiceUid}/attempts/{attemptId}',
  '/pay/{invoiceUid}/attempts/{attemptId}/code',
  '/create',
  '/form',
  '/popup/v2.js',
  '/pay-theme/{siteId}/{themeCode}/logo',
  '/sbp/{publicId}',
  '/validation/card',
  '/sbp/{publicId}/act',
  '/dashboard',
  '/dashboard/payments',
  '/dashboard/payments/{paymentId}',
  '/dashboard/bills',
  '/dashboard/bills/new',
  '/dashboard/bills/{billId}',
  '/dashboard/notifications',
  '/dashboard/notifications/{notificationId}',
  '/dashboard/settings',
  '/dashboard/actions/sign-in',
  '/dashboard/actions/sign-out',
  '/dashboard/actions/bills/{billId}',
  '/dashboard/actions/notifications/{notificationId}/resend',
  '/dashboard/actions/payments/{paymentId}/capture',
  '/dashboard/actions/payments/{paymentId}/refund',
  '/dashboard/actions/settings/notify-url',
  '/dashboard/actions/settings/rotate-secret',
  '/dashboard/actions/settings/holds',
  '/dashboard/actions/settings/public-key',
  '/dashboard/actions/settings/frame-origins',
  '/dashboard/actions/settings/themes',
  '/dashboard/actions/settings/themes/{themeCode}/delete',
  '/dashboard/actions/settings/tokens',
  '/dashboard/actions/settings/tokens/{tokenId}/revoke',
  '/dashboard/actions/sandbox/clock/advance',
]

/** static files, one label value per group */
const STATIC_GROUPS = [
  { prefix: '/_next/static/', label: '/_next/static/*' },
  { prefix: '/_next/', label: '/_next/*' },
  { prefix: '/_pay/', label: '/_pay/*' },
]

/** whatever matches no route: one value for all of it */
export const UNKNOWN_ROUTE = 'other'

const matchTemplate = templateMatcher(TEMPLATES)

/**
 * The template of the route a request target (path and query: the front door's admitted one) reaches;
 * `other` when none. Its dot segments are resolved as Next.js resolves them before routing (WHATWG URL:
 * `/_next/../api/metrics` and `/api/%2e/metrics` are served as `/api/metrics`).
 */
export function routeTemplate(target: string): string {
  const path = routedPath(target)
  if (path === null) return UNKNOWN_ROUTE
  for (const group of STATIC_GROUPS) if (path.startsWith(group.prefix)) return group.label
  if (path === '/') return '/'
  return matchTemplate(path) ?? UNKNOWN_ROUTE
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** the request's method, or `other` for any other token a client may send */
export const methodLabel = (method: string | undefined): string =>
  method && METHODS.has(method) ? method : UNKNOWN_ROUTE

/** the templates, for the test that holds them to the routes in app/ and pages/ */
export const ROUTE_TEMPLATES: readonly string[] = TEMPLATES
