// Trace ids: 16 lowercase hex characters, as the protocol's answers show them. Two fixed positions
// always hold a letter, so no trace id has the 13-digit run that the log's card-number mask
// (request-log.ts) would hide: the id in the answer is always found in the log line.
// A client may bring its own trace id (for correlation), so two requests can share one; the request id
// is the server's own, new for every request, and names one request in the log whatever the client sent.
const TRACE_LETTERS_AT = [5, 10]
const REQUEST_LETTERS_AT = [6, 13]
const HEX = '0123456789abcdef'
const LETTERS = 'abcdef'

// random bytes drawn 4 KiB at a time (one getRandomValues call per ~140 requests instead of two per
// request): each byte is used once
const POOL_SIZE = 4096
const pool = new Uint8Array(POOL_SIZE)
let used = POOL_SIZE

/** random hex of `length` characters with a letter at each of `lettersAt` */
function randomHex(length: number, lettersAt: number[]): string {
  if (used + length > POOL_SIZE) {
    crypto.getRandomValues(pool)
    used = 0
  }
  let out = ''
  for (let i = 0; i < length; i++) {
    const b = pool[used + i]
    out += lettersAt.includes(i) ? LETTERS[b % 6] : HEX[b % 16]
  }
  used += length
  return out
}

export function newTraceId(): string {
  return randomHex(16, TRACE_LETTERS_AT)
}

/** whether a trace id given by the client or the page proxy has the shape this service issues */
export function isTraceId(text: string | null): text is string {
  return !!text && /^[0-9a-f]{16}$/.test(text) && TRACE_LETTERS_AT.every((i) => /[a-f]/.test(text[i]))
}

/** a request id: 20 hex characters (never a trace id's shape), no digit run longer than 6 */
export function newRequestId(): string {
  return randomHex(20, REQUEST_LETTERS_AT)
}

/** whether a request id (the page proxy's) has the shape this service issues */
export function isRequestId(text: string | null): text is string {
  return !!text && /^[0-9a-f]{20}$/.test(text) && REQUEST_LETTERS_AT.every((i) => /[a-f]/.test(text[i]))
}

/**
 * a request's names in the log and in its answer: the trace id it brought (when well-formed) or a new one, and a
 * request id of its own
 */
export function requestIds(req: Request): { traceId: string; requestId: string } {
  const given = req.headers.get('x-trace-id')
  return { traceId: isTraceId(given) ? given : newTraceId(), requestId: newRequestId() }
}
