// The dashboard over HTTP, as a browser of the service's own origin would use it: sign in, send the
// session's cookie, post with Origin.
import assert from 'node:assert/strict'
import { BASE_URL, request, type Answer } from './api.ts'

export const ORIGIN = new URL(BASE_URL).origin
export const COOKIE = 'payin_dashboard'

/** a state-changing request as the dashboard's own pages send it (Origin of the service) */
export const post = (path: string, body: unknown, headers: Record<string, string> = {}, base = BASE_URL) =>
  request('POST', path, { body, headers: { Origin: ORIGIN, ...headers }, base })

/** signs in; answers the cookie's value */
export async function signIn(site: { siteId: string; token: string }): Promise<string> {
  const r = await post('/dashboard/actions/sign-in', { siteId: site.siteId, token: site.token })
  assert.equal(r.status, 200, r.text)
  const cookie = r.headers.get('set-cookie') ?? ''
  const value = new RegExp(`^${COOKIE}=([^;]+)`).exec(cookie)?.[1]
  assert.ok(value, cookie)
  return value
}

export const asSession = (value: string) => ({ Cookie: `${COOKIE}=${value}` })

/** a page of the dashboard with the session: 200, or the sign-in page's redirect when the session is gone */
export const dashboardPage = (value: string, path = '/dashboard/payments') =>
  fetch(`${BASE_URL}${path}`, { headers: asSession(value), redirect: 'manual' })

/** an answer in the contract's error shape */
export function assertError(a: Answer, status: number, errorCode: string) {
  assert.equal(a.status, status, a.text)
  assert.equal(a.body.errorCode, errorCode)
  assert.equal(typeof a.body.description, 'string')
  assert.equal(typeof a.body.traceId, 'string')
}
