// Every page answers with X-Trace-Id and X-Request-Id (and is logged under them: its request line here, a
// failure while it renders by instrumentation.ts, which reads them from the request's headers)
// and the security headers: a Content-Security-Policy whose script nonce Next applies to its own
// scripts, no framing (frame-ancestors), no sniffing, no referrer (a payUrl is not to leak).
import { NextResponse, type NextRequest } from 'next/server'
import { logLine } from './lib/log/log-line'
import { newRequestId, newTraceId } from './lib/http/trace-id'

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

function publicOrigin(): string {
  try {
    return new URL(process.env.PUBLIC_BASE_URL ?? '').origin
  } catch {
    return ''
  }
}

export function proxy(request: NextRequest) {
  const traceId = newTraceId()
  const requestId = newRequestId()
  const nonce = btoa(hex(crypto.getRandomValues(new Uint8Array(16))))
  const csp = [
    "default-src 'self'",
    // development mode (`npm run dev`) only: React rebuilds server stacks with eval
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${process.env.NODE_ENV === 'development' ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    // the 3-D Secure hand-off posts to the service's own access-control page. The sandbox bank app's form sets
    // none: browsers apply it to the redirect that follows its post too, which takes the payer to the QR code's
    // redirectUrl, the merchant's (as the access-control page's post to TermUrl, lib/acquirer/acs-pages.ts)
    request.nextUrl.pathname.startsWith('/sbp/') ? '' : `form-action 'self' ${publicOrigin()}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ]
    .filter(Boolean)
    .join('; ')
  const headers = new Headers(request.headers)
  headers.set('x-trace-id', traceId)
  headers.set('x-request-id', requestId)
  headers.set('content-security-policy', csp)
  const res = NextResponse.next({ request: { headers } })
  res.headers.set('X-Trace-Id', traceId)
  res.headers.set('X-Request-Id', requestId)
  res.headers.set('Content-Security-Policy', csp)
  res.headers.set('X-Frame-Options', 'DENY')
  res.headers.set('X-Content-Type-Options', 'nosniff')
  // the sandbox bank app's form posts to its own origin: with no-referrer a browser sends `Origin: null`, which
  // one without Sec-Fetch-Site (Safari before 16.4) could not tell from a cross-site post; same-origin still
  // sends nothing to the merchant's redirectUrl
  res.headers.set('Referrer-Policy', request.nextUrl.pathname.startsWith('/sbp/') ? 'same-origin' : 'no-referrer')
  res.headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()')
  // one log line per page request (not per static asset: Next's, or the payment page's script), under the trace id the
  // payer's browser got;
  // the status is not known here (the page renders after the proxy)
  if (!request.nextUrl.pathname.startsWith('/_next/') && !request.nextUrl.pathname.startsWith('/_pay/'))
    logLine({ level: 'info', traceId, requestId, method: request.method, path: request.nextUrl.pathname, kind: 'page' })
  return res
}

export const config = {
  // not the API, the access-control pages, the payment page's, the bank app's or the dashboard's endpoints (its
  // state-changing requests are all under /dashboard/actions/), nor a theme's logo: those answer with headers of
  // their own
  matcher: [
    '/((?!api/|partner/|acs|pay/[^/]+/attempts|pay/[^/]+/3ds-return|sbp/[^/]+/act|dashboard/actions/|pay-theme/).*)',
  ],
}
