// One JSON line per request on stdout. Digit runs that could be a card number are masked as a last
// line of defence; no body is ever logged.
const CARD_LIKE = /\d(?:[ -]?\d){12,18}/g
// the payment page's attempt keys open a live attempt: never in the log
const ATTEMPT_KEY_IN_PATH = /(\/attempts\/)[^/?"\s]+/g

export function redact(text: string): string {
  return text.replace(CARD_LIKE, '[redacted]').replace(ATTEMPT_KEY_IN_PATH, '$1[key]')
}

export function logLine(fields: Record<string, unknown>): void {
  process.stdout.write(redact(JSON.stringify({ time: new Date().toISOString(), ...fields })) + '\n')
}
