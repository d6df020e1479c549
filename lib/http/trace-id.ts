// Trace ids: 16 lowercase hex characters, as the protocol's answers show them. Two fixed positions
// always hold a letter, so no trace id has the 13-digit run that the log's card-number mask
// (request-log.ts) would hide: the id in the answer is always found in the log line.
const LETTER_AT = [5, 10]
const HEX = '0123456789abcdef'
const LETTERS = 'abcdef'

export function newTraceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b, i) => (LETTER_AT.includes(i) ? LETTERS[b % 6] : HEX[b % 16])).join('')
}

/** whether a trace id given by the page proxy has the shape this service issues */
export function isTraceId(text: string | null): text is string {
  return !!text && /^[0-9a-f]{16}$/.test(text) && LETTER_AT.every((i) => /[a-f]/.test(text[i]))
}
