// Pages (everything outside the API, whose wrapper does this itself) also answer with X-Trace-Id.
import { NextResponse, type NextRequest } from 'next/server'

export function proxy(request: NextRequest) {
  const traceId = crypto.getRandomValues(new Uint8Array(8)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), '')
  const headers = new Headers(request.headers)
  headers.set('x-trace-id', traceId)
  const res = NextResponse.next({ request: { headers } })
  res.headers.set('X-Trace-Id', traceId)
  return res
}

export const config = {
  matcher: ['/((?!api/|partner/|_next/static|_next/image|favicon.ico).*)'],
}
