// One JSON line per request on stdout (lib/log/log-line.ts: digit runs that could be a card number are masked as a
// last line of defence); no body is ever logged.
import { describeFailure, logLine } from '../log/log-line'

/** status 499 (nginx's "client closed request"): the client went away mid-body, no one reads the answer */
export const CLIENT_CLOSED = 499

/**
 * The one log line of an answered request (API, payment-page endpoints, 3-D Secure pages): `error` with
 * the failure when something unexpected failed, `warn` (and `aborted`) when the client closed mid-body.
 */
export function logRequest(r: {
  req: Request
  traceId: string
  requestId: string
  status: number
  started: number
  failure?: unknown
}): void {
  const aborted = r.status === CLIENT_CLOSED
  logLine({
    level: r.failure !== undefined ? 'error' : aborted ? 'warn' : 'info',
    traceId: r.traceId,
    requestId: r.requestId,
    method: r.req.method,
    path: new URL(r.req.url).pathname,
    status: r.status,
    durationMs: Math.round((performance.now() - r.started) * 10) / 10,
    ...(aborted ? { aborted: true } : {}),
    ...(r.failure !== undefined ? { error: describeFailure(r.failure) } : {}),
  })
}
