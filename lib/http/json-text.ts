// A strict JSON reader for request bodies. Unlike JSON.parse it
// - keeps the text of numbers that a JS number would not reproduce exactly (exponent notation,
//   more digits than a double holds) as RawNumber, so amounts are rounded from what was sent and
//   exponent notation can be refused;
// - limits nesting depth, so a deeply nested body is a 400, not a stack overflow;
// - stores `__proto__` keys as plain data (no prototype pollution);
// - never quotes the input in its error messages (a body may hold card data).

export class RawNumber {
  constructor(readonly text: string) {}
}

export class JsonSyntaxError extends Error {}

const MAX_DEPTH = 64
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y

function canonicalDecimal(raw: string): string | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(raw)
  if (!m) return null
  const whole = m[2].replace(/^0+(?=\d)/, '')
  const fraction = (m[3] ?? '').replace(/0+$/, '')
  return `${m[1]}${whole}${fraction ? '.' + fraction : ''}`
}

/** the number's value, or its text when a double would not reproduce it */
const numberValue = (raw: string, n = Number(raw)): number | RawNumber =>
  canonicalDecimal(raw) === String(n) ? n : new RawNumber(raw)

// a JSON number's text (only valid JSON reaches the reviver)
type ReviverContext = { source?: string }
const keepNumberText = (_key: string, value: unknown, context?: ReviverContext) =>
  typeof value === 'number' && context?.source !== undefined ? numberValue(context.source, value) : value

/**
 * The reader above, and as fast as the engine's own where it can be: JSON.parse reads the same
 * grammar (the same whitespace, escapes, literals and numbers; keys as own data properties, the last of
 * twins winning in the first one's place), so a text it accepts, nested at most MAX_DEPTH deep, gives
 * the same value — numbers through a reviver that sees their source text. Whatever it refuses, or
 * anything nested deeper, goes to the reader above, for its own answer and error message.
 */
export function parseJsonText(text: string): unknown {
  // one pass outside strings: the deepest nesting, and whether any number is written
  let depth = 0
  let deepest = 0
  let numbers = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // a string: to its closing quote, over escapes
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (d === 92) i++
        else if (d === 34) break
      }
    } else if (c === 123 || c === 91) {
      if (++depth > deepest) deepest = depth
    } else if (c === 125 || c === 93) depth--
    else if (c === 45 || (c >= 48 && c <= 57)) numbers = true
  }
  if (deepest <= MAX_DEPTH) {
    try {
      return numbers ? JSON.parse(text, keepNumberText as (key: string, value: unknown) => unknown) : JSON.parse(text)
    } catch {
      // refused: the reader below says why, in its own words
    }
  }
  return parseJsonTextStrict(text)
}

/** the reader itself (see the top of this file) */
export function parseJsonTextStrict(text: string): unknown {
  let i = 0
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at position ${i}`)
  }
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++
  }
  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail('nesting too deep')
    ws()
    const c = text[i]
    if (c === '{') return object(depth)
    if (c === '[') return array(depth)
    if (c === '"') return string()
    if (text.startsWith('true', i)) return ((i += 4), true)
    if (text.startsWith('false', i)) return ((i += 5), false)
    if (text.startsWith('null', i)) return ((i += 4), null)
    return number()
  }
  const number = (): number | RawNumber => {
    NUMBER.lastIndex = i
    const m = NUMBER.exec(text)
    if (!m) return fail('unexpected character')
    i += m[0].length
    return numberValue(m[0])
  }
  const string = (): string => {
    i++ // opening quote
    let out = ''
    for (;;) {
      const start = i
      while (i < text.length && text[i] !== '"' && text[i] !== '\\' && text.charCodeAt(i) >= 0x20) i++
      out += text.slice(start, i)
      if (i >= text.length) fail('unterminated string')
      const c = text[i]
      if (c === '"') return (i++, out)
      if (c !== '\\') fail('control character in string')
      const e = text[i + 1]
      i += 2
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      }
      if (e in simple) out += simple[e]
      else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i, i + 4))) {
        out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16))
        i += 4
      } else fail('bad escape')
    }
  }
  const array = (depth: number): unknown[] => {
    i++
    const out: unknown[] = []
    ws()
    if (text[i] === ']') return (i++, out)
    for (;;) {
      out.push(value(depth + 1))
      ws()
      if (text[i] === ',') i++
      else if (text[i] === ']') return (i++, out)
      else fail('expected , or ]')
    }
  }
  const object = (depth: number): Record<string, unknown> => {
    i++
    const out: Record<string, unknown> = {}
    ws()
    if (text[i] === '}') return (i++, out)
    for (;;) {
      ws()
      if (text[i] !== '"') fail('expected a key')
      const key = string()
      ws()
      if (text[i] !== ':') fail('expected :')
      i++
      Object.defineProperty(out, key, { value: value(depth + 1), enumerable: true, writable: true, configurable: true })
      ws()
      if (text[i] === ',') i++
      else if (text[i] === '}') return (i++, out)
      else fail('expected , or }')
    }
  }
  const result = value(0)
  ws()
  if (i !== text.length) fail('unexpected text after the value')
  return result
}

/**
 * JSON.stringify for plain data that may hold RawNumber values, written as their text: the way to put
 * a number such as `60.50` (two decimals, as production's notifications write amounts) into JSON.
 */
export function stringifyJson(value: unknown): string {
  if (value instanceof RawNumber) return value.text
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stringifyJson(v))).join(',')}]`
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined)
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stringifyJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}
