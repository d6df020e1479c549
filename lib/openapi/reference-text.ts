// The words of the API reference page (/docs), derived from the OpenAPI document: a schema's type in a
// few words, its constraints, the curl command of an operation, and the few Markdown forms the
// document's descriptions use (paragraphs, `code`, tables). Pure: the page's components render these.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON Schema, walked by whichever keywords it has
type Json = Record<string, any>

/** the name of a component a `$ref` points to */
export const refName = (ref: string) => ref.split('/').pop() ?? ref

/** an enumeration longer than this (the currencies) is shown by its first values and its count */
const LONG_ENUM = 8

/** the JSON Schema's type in a few words: `string (uri)`, `array of Refund`, `"CARD"`, `string or number` */
export function typeLabel(schema: Json | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return 'any'
  if (schema.$ref) return refName(schema.$ref)
  if ('const' in schema) return JSON.stringify(schema.const)
  if (Array.isArray(schema.enum))
    return schema.enum.length > LONG_ENUM
      ? `${schema.enum
          .slice(0, LONG_ENUM)
          .map((v: unknown) => JSON.stringify(v))
          .join(' | ')} | … (${schema.enum.length} values)`
      : schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ')
  const union = schema.oneOf ?? schema.anyOf
  if (Array.isArray(union)) return union.map((s: Json) => typeLabel(s)).join(' or ')
  if (Array.isArray(schema.allOf)) return schema.allOf.map((s: Json) => typeLabel(s)).join(' and ')
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  if (types.includes('array')) {
    if (Array.isArray(schema.prefixItems)) return `[${schema.prefixItems.map((s: Json) => typeLabel(s)).join(', ')}]`
    return `array of ${typeLabel(schema.items)}`
  }
  if (
    types.includes('object') &&
    !schema.properties &&
    schema.additionalProperties &&
    typeof schema.additionalProperties === 'object'
  )
    return `object of ${typeLabel(schema.additionalProperties)} values`
  const named = types.map((t) => (t === 'string' && schema.format ? `string (${schema.format})` : t))
  return named.join(' or ') || 'any'
}

// zod's bounds of an integer that says no more: the safe integers
const SAFE = Number.MAX_SAFE_INTEGER

/** a schema's constraints in words: `pattern ^\d{3}$`, `at most 1024 characters`, `≥ 1` */
export function constraintsOf(schema: Json): string[] {
  const out: string[] = []
  if (schema.pattern) out.push(`pattern ${schema.pattern}`)
  if (schema.minLength !== undefined && schema.maxLength !== undefined)
    out.push(`${schema.minLength}–${schema.maxLength} characters`)
  else if (schema.maxLength !== undefined) out.push(`at most ${schema.maxLength} characters`)
  else if (schema.minLength !== undefined)
    out.push(`at least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}`)
  if (schema.minimum !== undefined && schema.minimum !== -SAFE) out.push(`≥ ${schema.minimum}`)
  if (schema.exclusiveMinimum !== undefined) out.push(`> ${schema.exclusiveMinimum}`)
  if (schema.maximum !== undefined && schema.maximum !== SAFE) out.push(`≤ ${schema.maximum}`)
  if (schema.minItems !== undefined && !Array.isArray(schema.prefixItems))
    out.push(`at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`)
  if (schema.maxItems !== undefined && !Array.isArray(schema.prefixItems))
    out.push(schema.maxItems === 0 ? 'empty' : `at most ${schema.maxItems} items`)
  for (const union of [schema.anyOf, schema.oneOf])
    if (Array.isArray(union))
      for (const s of union as Json[]) if (!s.$ref) out.push(...constraintsOf(s).map((c) => `${typeLabel(s)}: ${c}`))
  if (Array.isArray(schema.examples) && schema.examples.length)
    out.push(`e.g. ${schema.examples.map((e: unknown) => JSON.stringify(e)).join(', ')}`)
  return out
}

/** the ids the curl examples put in paths ($SITE is the reader's own site) */
export const PATH_EXAMPLES: Record<string, string> = {
  siteId: '$SITE',
  paymentId: 'order-1001',
  captureId: 'cap-1',
  refundId: 'ref-1',
  billId: 'bill-42',
  notificationId: '6a1f0c2e-8b3d-4e5f-9a7b-1c2d3e4f5a6b',
  qrCodeUid: 'qr-1001',
  requestUid: 'check-1001',
}

/** a shell word in single quotes */
const quoted = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`

// A request example's dates are fixed (the document depends on no clock), and a deadline or a series'
// end must be in the future: the curl command writes them with date(1) instead, relative to the day it
// runs (GNU date, else BSD date). A bill may be payable for at most 45 days.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
export const SHELL_DATE_TIME = `$(date -u -d '+7 days' +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -v+7d +%Y-%m-%dT%H:%M:%SZ)`
export const SHELL_DATE = `$(date -u -d '+1 year' +%Y-%m-%d 2>/dev/null || date -u -v+1y +%Y-%m-%d)`

/**
 * A JSON body as one shell word: the JSON in single quotes, each date-time or date string of it
 * replaced by SHELL_DATE_TIME or SHELL_DATE (in double quotes, so the shell runs them).
 */
export function shellJson(value: unknown): string {
  const shells: string[] = []
  const text = JSON.stringify(value, (_, v) => {
    if (typeof v !== 'string') return v
    const shell = DATE_TIME.test(v) ? SHELL_DATE_TIME : DATE.test(v) ? SHELL_DATE : null
    if (!shell) return v
    shells.push(shell)
    return `\u0000${shells.length - 1}\u0000`
  })
  // the marks are JSON-escaped (\u0000): a string of the example itself cannot hold them so
  return text
    .split(/\\u0000(\d+)\\u0000/)
    .map((part, i) => (i % 2 ? `"${shells[Number(part)]}"` : quoted(part)))
    .join('')
}

/**
 * the curl command of an operation, with its first request example as the body; $BASE, $SITE and $TOKEN are the
 * reader's
 */
export function curlOf(path: string, method: string, op: Json): string {
  const url = `$BASE${path.replace(/\{(\w+)\}/g, (_, name: string) => PATH_EXAMPLES[name] ?? `<${name}>`)}`
  const lines = [`curl -s${method.toUpperCase() === 'GET' ? '' : ` -X ${method.toUpperCase()}`} "${url}"`]
  const headers: string[] = []
  if (op.security === undefined) headers.push('-H "Authorization: Bearer $TOKEN"')
  else if (op.security.some((s: Json) => 'metricsToken' in s)) headers.push('-H "Authorization: Bearer $METRICS_TOKEN"')
  const media = op.requestBody?.content?.['application/json']
  const example = media?.examples ? (Object.values(media.examples)[0] as Json | undefined)?.value : undefined
  if (op.requestBody) headers.push("-H 'Content-Type: application/json'")
  if (headers.length) lines.push(headers.join(' '))
  if (op.requestBody) lines.push(`-d ${shellJson(example ?? {})}`)
  return lines.join(' \\\n  ')
}

export type Inline = { code: string } | string
export type Block = { paragraph: Inline[] } | { table: { head: Inline[][]; rows: Inline[][][] } }

/** `a \`b\` c` → ['a ', {code: 'b'}, ' c'] */
export function inlines(text: string): Inline[] {
  return text
    .split(/(`[^`]*`)/)
    .filter(Boolean)
    .map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? { code: part.slice(1, -1) } : part))
}

/** the Markdown of the document's descriptions: paragraphs (blank lines between) and pipe tables */
export function markdownBlocks(text: string): Block[] {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block): Block => {
      const lines = block.split('\n')
      if (lines.length >= 2 && lines.every((l) => l.trim().startsWith('|')) && /^\|[\s:|-]+\|$/.test(lines[1].trim())) {
        const cells = (line: string) =>
          line
            .trim()
            .replace(/^\||\|$/g, '')
            .split('|')
            .map((c) => inlines(c.trim()))
        return { table: { head: cells(lines[0]), rows: lines.slice(2).map(cells) } }
      }
      return { paragraph: inlines(lines.join(' ')) }
    })
}
