// One JSON line per request on stdout. Digit runs that could be a card number are masked as a last
// line of defence; no body is ever logged.
// 13–19 digits with up to two separators between any two: a space, a tab, `-`, `.`, `_`, `/`, `+`, or
// one of those percent-encoded (a path is logged as it was sent: `4111%201111%201111%201111`)
const CARD_SEPARATOR = String.raw`(?:[ \t._/+-]|%(?:20|09|2[bBdDeEfF]|5[fF]))`
const CARD_LIKE = new RegExp(String.raw`\d(?:${CARD_SEPARATOR}{0,2}\d){12,18}`, 'g')
// the payment page's attempt keys open a live attempt: never in the log
const ATTEMPT_KEY_IN_PATH = /(\/attempts\/)[^/?"\s]+/g

export function redact(text: string): string {
  return text.replace(CARD_LIKE, '[redacted]').replace(ATTEMPT_KEY_IN_PATH, '$1[key]')
}

export function logLine(fields: Record<string, unknown>): void {
  process.stdout.write(redact(JSON.stringify({ time: new Date().toISOString(), ...fields })) + '\n')
}

/** status 499 (nginx's "client closed request"): the client went away mid-body, no one reads the answer */
export const CLIENT_CLOSED = 499

/** an unexpected failure, for the log: name, message and stack (card-like digits are masked with the line) */
export function describeFailure(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e)
}

/**
 * The one log line of an answered request (API, payment-page endpoints, 3-D Secure pages): `error` with
 * the failure when something unexpected failed, `warn` (and `aborted`) when the client closed mid-body.
 */
export function logRequest(r: { req: Request; traceId: string; requestId: string; status: number; started: number; failure?: unknown }): void {
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
