// One JSON line on a stream (stdout for the request log, the database's warnings and the front door's
// lines), every string in it masked for card numbers first: the line writer every layer shares, so that
// none of them needs another's module to log (lib/db/ writes with it and knows nothing of HTTP).

// 13–19 digits with up to three separators between any two, in whatever form a client may have written
// them (a path or a header is logged as it was sent): a digit is any Unicode decimal digit (full-width
// ４ too), a percent-encoded ASCII digit (%34) or full-width one (%EF%BC%94); a separator is any
// character that is neither a letter nor a digit (space, `-`, `,`, `:`, a no-break space, a line
// break …) or a percent-encoding of one. The two never overlap (a `%` starting a digit's encoding is no
// separator), so a text has one way to be read and a failed match costs no backtracking.
const CARD_DIGIT = String.raw`(?:\p{Nd}|%3[0-9]|%[eE][fF]%[bB][cC]%9[0-9])`
// A backslash escape, as JSON or a JavaScript string writes one (`\t`, `\"`, `\\`, `\u0009`, the
// backslashes of text escaped twice), is one separator: a whole run of backslashes (taken atomically by
// the lookahead and back-reference, so it is read one way) and the escape's letter or code.
const ESCAPE = String.raw`(?=(\\+))\1(?:[bfnrtv]|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2})?`
const CARD_SEPARATOR = String.raw`(?:[^\p{L}\p{N}%\\]|${ESCAPE}|%(?![0-9A-Fa-f]{2})|%(?!3[0-9]|[eE][fF]%[bB][cC]%9[0-9])[0-9A-Fa-f]{2})`
const CARD_LIKE = new RegExp(String.raw`${CARD_DIGIT}(?:${CARD_SEPARATOR}{0,3}${CARD_DIGIT}){12,18}`, 'gu')
// the payment page's attempt keys open a live attempt: never in the log
const ATTEMPT_KEY_IN_PATH = /(\/attempts\/)[^/?"\s]+/g

export function redact(text: string): string {
  return text.replace(CARD_LIKE, '[redacted]').replace(ATTEMPT_KEY_IN_PATH, '$1[key]')
}

/** one JSON line on stdout */
export const logLine = (fields: Record<string, unknown>): void => writeJsonLine(process.stdout, fields)

/**
 * one JSON line, dated, on `stream`: each string masked before it is escaped (an escape could split a number), the line
 * again after
 */
export function writeJsonLine(stream: NodeJS.WritableStream, fields: Record<string, unknown>): void {
  stream.write(redact(JSON.stringify({ time: new Date().toISOString(), ...fields }, maskStrings)) + '\n')
}

/** a JSON.stringify replacer masking every string value */
const maskStrings = (_key: string, value: unknown) => (typeof value === 'string' ? redact(value) : value)

/** an unexpected failure, for the log: name, message and stack (card-like digits are masked with the line) */
export function describeFailure(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e)
}
