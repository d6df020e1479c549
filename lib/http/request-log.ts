// One JSON line per request on stdout. Digit runs that could be a card number are masked as a last
// line of defence; no body is ever logged.
const CARD_LIKE = /\d(?:[ -]?\d){12,18}/g

export function redact(text: string): string {
  return text.replace(CARD_LIKE, '[redacted]')
}

export function logLine(fields: Record<string, unknown>): void {
  process.stdout.write(redact(JSON.stringify({ time: new Date().toISOString(), ...fields })) + '\n')
}
