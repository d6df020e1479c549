// Every answer the HTTP tests receive, checked against the OpenAPI document, so the document cannot
// drift from the service. Two variants of it (lib/openapi/api-document.ts): the published one as
// committed (openapi.json, which a unit test keeps equal to what the code generates), which describes
// answers openly as any implementation of the protocol may send them, and the strict one, generated
// here in memory, which says exactly what this service sends (closed objects, every field it always
// sends required, its date-time forms and values): an answer must satisfy both.
// scripts/run-tests.ts loads this module into every HTTP test process (`--import`); loading it wraps
// globalThis.fetch. For an answer of a server on loopback:
// - whose path (under /api, /partner/payin/v1 or /partner/v1) and method are a documented operation:
//   its status must be one the operation documents, the headers that answer documents must be there
//   when required (X-Trace-Id; Retry-After on a 429) and as their schemas say, and its body (JSON)
//   must validate against that answer's schema (the 200's resource, or the Error shape with the codes
// of that status), and a 2xx's ids must be those of its path (idProblem); and when it is a 2xx of a PUT or POST to
// which the test sent a JSON body, that
//   body must validate against the operation's requestBody (so the request side is exercised too);
// - any other 4xx/5xx under /api or /partner: the JSON Error shape, with its trace id in X-Trace-Id;
// - any other JSON answer of 4xx/5xx, on any path (the payment page's endpoints, the dashboard's
//   actions, the front door's refusals): the Error shape.
// A violation rejects the fetch with the operation, the status, ajv's errors and the start of the body,
// so the test fails where it made the request. Tests that speak raw HTTP check their answers with
// assertDocumented (rawAnswer reads one off a socket). The payment page, /acs and the dashboard's pages
// and actions are not part of the API: their successful answers are not checked.
import fs from 'node:fs'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { API_PREFIXES } from '../../lib/http/api-routes.ts'
import { buildApiDocument } from '../../lib/openapi/api-document.ts'

type Json = Record<string, any>

export const DOCUMENT_FILE = new URL('../../openapi.json', import.meta.url)
const DOCUMENT_ID = 'https://payin.invalid/openapi.json'
// the document's own fields: no JSON Schema keywords, but the document is added to ajv whole, so that
// every schema in it is reached by its JSON pointer and its $refs resolve against the document
const DOCUMENT_FIELDS = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'security',
  'tags',
  'paths',
  'webhooks',
  'components',
]

/** an ajv (JSON Schema 2020-12, strict, with formats) holding the document */
export function documentValidator(document: Json) {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true })
  addFormats(ajv)
  for (const keyword of DOCUMENT_FIELDS) ajv.addKeyword(keyword)
  const { $schema: _, ...rest } = document
  ajv.addSchema({ ...rest, $id: DOCUMENT_ID })
  const compiled = new Map<string, ValidateFunction>()
  /** the validator of the schema at a JSON pointer of the document (`/components/schemas/Payment`) */
  const at = (pointer: string): ValidateFunction => {
    let v = compiled.get(pointer)
    if (!v) compiled.set(pointer, (v = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` })))
    return v
  }
  return { ajv, at }
}

const escapePointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1')

/** a path segment as the service reads it (percent-decoded), or as it is when it cannot be decoded */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
const unescapePointer = (s: string) => s.replaceAll('~1', '/').replaceAll('~0', '~')

export interface Answer {
  method: string
  /** the path as requested (a query is ignored) */
  path: string
  status: number
  /** the answer's headers, their names in lowercase */
  headers: Record<string, string | undefined>
  text: string
  /**
   * the body the request sent, when it sent JSON: a 2xx of a documented PUT or POST holds it to the operation's
   * requestBody
   */
  requestBody?: string
}

interface Operation {
  template: string
  method: string
  operationId: string
  pointer: string
  op: Json
  /** the path's parameters, by name (`{paymentId}` → the id requested) */
  parameters: Record<string, string>
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i

/** a path of the API's prefixes (where every error is the JSON Error): /api…, /partner… */
export const isApiPath = (path: string) => /^\/(api|partner)(\/|$)/.test(path.split('?')[0])

/** the checks of a document: the published one, held together with its strict variant when given */
export function answerChecker(document: Json, strictDocument: Json = document) {
  const published = documentValidator(document)
  const variants =
    strictDocument === document
      ? [{ name: 'the document', at: published.at }]
      : [
          { name: "the strict variant (this service's exact answers)", at: documentValidator(strictDocument).at },
          { name: 'the published document', at: published.at },
        ]
  const templates = Object.keys(document.paths).map((template) => ({ template, segments: template.split('/') }))

  /** the documented operation a request reaches, if any (a literal segment wins over a parameter, as in the router) */
  function operationOf(method: string, rawPath: string): Operation | null {
    let path = rawPath.split('?')[0]
    while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
    const prefix = API_PREFIXES.find((p) => path.startsWith(`${p}/`))
    if (!prefix) return null
    const segments = path.slice(prefix.length).split('/')
    let best: { template: string; literals: number } | null = null
    for (const t of templates) {
      if (t.segments.length !== segments.length) continue
      let literals = 0
      const fits = t.segments.every((s, i) => {
        if (/^\{\w+\}$/.test(s)) return segments[i] !== ''
        literals++
        return s === segments[i]
      })
      if (fits && (!best || literals > best.literals)) best = { template: t.template, literals }
    }
    const op = best && document.paths[best.template][method.toLowerCase()]
    if (!best || !op) return null
    const parameters: Record<string, string> = {}
    for (const [i, s] of best.template.split('/').entries()) {
      const name = /^\{(\w+)\}$/.exec(s)?.[1]
      if (name) parameters[name] = decoded(segments[i])
    }
    return {
      template: best.template,
      method: method.toUpperCase(),
      operationId: op.operationId,
      pointer: `/paths/${escapePointer(best.template)}/${method.toLowerCase()}`,
      op,
      parameters,
    }
  }

  /**
   * The contract: the resource in an answer is the one of its path (the payment carries the paymentId of
   * the path; likewise a bill, capture, refund or notification its id, and each its siteId). Every field of
   * the answer named like a path parameter (each element's, for a list: the bill's payments carry its
   * billId) must hold the path's value.
   */
  function idProblem(operation: Operation, body: unknown): string | null {
    for (const [i, item] of (Array.isArray(body) ? body : [body]).entries()) {
      if (!item || typeof item !== 'object') continue
      for (const [name, value] of Object.entries(operation.parameters))
        if (name in item && (item as Json)[name] !== value)
          return `a body whose ${Array.isArray(body) ? `[${i}].` : ''}${name} ${JSON.stringify((item as Json)[name])} is not the path's ${JSON.stringify(value)}`
    }
    return null
  }

  /** the object a local $ref points to, and its pointer; the object itself when it is none */
  function resolved(object: Json, pointer: string): { object: Json; pointer: string } {
    if (typeof object.$ref !== 'string') return { object, pointer }
    const target = object.$ref.slice(1)
    return {
      object: target
        .split('/')
        .slice(1)
        .reduce((o: Json, k: string) => o[unescapePointer(k)], document),
      pointer: target,
    }
  }

  /** the problems of the headers an answer documents: missing when required, else not as their schemas say */
  function headerProblems(response: Json, responsePointer: string, headers: Answer['headers']): string[] {
    const problems: string[] = []
    for (const [name, h] of Object.entries((response.headers ?? {}) as Json)) {
      const header = resolved(h, `${responsePointer}/headers/${escapePointer(name)}`)
      const value = headers[name.toLowerCase()]
      if (value === undefined) {
        if (header.object.required) problems.push(`no ${name} header`)
        continue
      }
      // a header is text: an integer's schema reads its digits
      const type = header.object.schema?.type
      const read = (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value
      for (const v of variants)
        if (!v.at(`${header.pointer}/schema`)(read))
          problems.push(
            `${name}: ${JSON.stringify(value)} is not as ${v.name} says (${JSON.stringify(header.object.schema)})`,
          )
    }
    return [...new Set(problems)]
  }

  /** what is wrong with `body` against the schema at `pointer` in each variant, or null */
  function schemaProblem(pointer: string, body: unknown): string | null {
    for (const v of variants) {
      const validate = v.at(pointer)
      if (validate(body)) continue
      const errors = (validate.errors ?? []).map(
        (e) =>
          `${e.instancePath || '/'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
      )
      return `a body ${v.name} does not describe (#${pointer}):\n  ${errors.join('\n  ')}`
    }
    return null
  }

  /** what is wrong with an answer, or null */
  function problemOf(a: Answer): string | null {
    const contentType = a.headers['content-type'] ?? null
    const json = JSON_TYPE.test(contentType ?? '')
    const api = isApiPath(a.path)
    const traceId = a.headers['x-trace-id']
    const shown = `\n  body: ${a.text.slice(0, 500)}`
    if (a.method.toUpperCase() === 'HEAD') {
      // no body to read: an API error still says its trace id
      return api && a.status >= 400 && traceId === undefined
        ? `HEAD ${a.path.slice(0, 200)} answered ${a.status} without an X-Trace-Id header`
        : null
    }
    const operation = operationOf(a.method, a.path)
    let pointer: string
    let what: string
    if (operation) {
      what = `${operation.method} ${operation.template} (${operation.operationId}) answered ${a.status}`
      const listed = operation.op.responses[String(a.status)]
      if (!listed)
        return `${what}, a status the document does not give it (${Object.keys(operation.op.responses).join(', ')})${shown}`
      const { object: response, pointer: responsePointer } = resolved(
        listed,
        `${operation.pointer}/responses/${a.status}`,
      )
      const headers = headerProblems(response, responsePointer, a.headers)
      if (headers.length)
        return `${what} with headers the document does not describe:\n  ${headers.join('\n  ')}${shown}`
      if (a.status < 300 && a.requestBody !== undefined && a.requestBody !== '' && operation.op.requestBody) {
        const request = requestProblem(operation, a.requestBody)
        if (request) return `${what} to a request ${request}`
      }
      const types = Object.keys(response.content ?? {})
      if (!types.length) return null
      if (!response.content['application/json']) {
        // an answer that is not JSON (the metrics' text): its type is checked
        const type = (contentType ?? '').toLowerCase().replace(/\s+/g, '')
        return types.some((t) => type.startsWith(t.toLowerCase().replace(/\s+/g, '')))
          ? null
          : `${what} with Content-Type ${contentType}, not the documented ${types.join(' or ')}`
      }
      if (!json) return `${what} with Content-Type ${contentType}, not the documented application/json${shown}`
      pointer = `${responsePointer}/content/application~1json/schema`
    } else if (a.status >= 400 && (json || api)) {
      what = `${a.method.toUpperCase()} ${a.path.slice(0, 200)} answered ${a.status}`
      // under the API's prefixes every error is the contract's: JSON, with its trace id
      if (api && !json)
        return `${what} with Content-Type ${contentType}: an error under the API's prefixes is the JSON Error${shown}`
      if (api && traceId === undefined)
        return `${what} without an X-Trace-Id header: an error under the API's prefixes says its trace id${shown}`
      pointer = '/components/schemas/Error'
    } else return null
    let body: Json
    try {
      body = JSON.parse(a.text)
    } catch {
      return `${what} with a body that is not JSON: ${a.text.slice(0, 500)}`
    }
    const problem = schemaProblem(pointer, body) ?? (operation && a.status < 300 ? idProblem(operation, body) : null)
    if (problem) return `${what}, ${problem}${shown}`
    if (a.status >= 400 && traceId !== undefined && body?.traceId !== traceId)
      return `${what} with X-Trace-Id ${traceId} but traceId ${JSON.stringify(body?.traceId)} in its body`
    return null
  }

  /** what is wrong with the JSON body a request sent, against its operation's requestBody, or null */
  function requestProblem(operation: Operation, text: string): string | null {
    let body: unknown
    try {
      // a byte order mark before it is read past, as the service's UTF-8 decoder does (RFC 8259 allows it)
      body = JSON.parse(text.replace(/^\uFEFF/, ''))
    } catch {
      return `whose body is not JSON, which the document's requestBody refuses: ${text.slice(0, 300)}`
    }
    const pointer = `${operation.pointer}/requestBody/content/application~1json/schema`
    const validate = published.at(pointer)
    if (validate(body)) return null
    const errors = (validate.errors ?? []).map(
      (e) =>
        `${e.instancePath || '/'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
    )
    return `the service accepted but the document's requestBody refuses (#${pointer}):\n  ${errors.join('\n  ')}\n  request: ${text.slice(0, 500)}`
  }

  /** what is wrong with a notification the service posted (its body and signature headers), or null */
  function webhookProblemOf(body: string, headers: Record<string, string | undefined>): string | null {
    let parsed: Json
    try {
      parsed = JSON.parse(body)
    } catch {
      return `a notification whose body is not JSON: ${body.slice(0, 500)}`
    }
    // PAYMENT → paymentNotification, CHECK_CARD → checkCardNotification
    const name = `${String(parsed?.type)
      .toLowerCase()
      .replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())}Notification`
    const post = document.webhooks[name]?.post
    if (!post) return `a notification of a type the document does not describe (${name}): ${body.slice(0, 500)}`
    const pointer = `/webhooks/${name}/post`
    const problems: string[] = []
    for (const [i, parameter] of (post.parameters as Json[]).entries()) {
      const value = headers[parameter.name.toLowerCase()]
      if (value === undefined) problems.push(`no ${parameter.name} header`)
      else if (variants.some((v) => !v.at(`${pointer}/parameters/${i}/schema`)(value)))
        problems.push(`${parameter.name}: ${value}`)
    }
    const problem = schemaProblem(`${pointer}/requestBody/content/application~1json/schema`, parsed)
    if (problem) problems.push(problem)
    return problems.length
      ? `POST ${name} (webhook) does not match the document:\n  ${problems.join('\n  ')}\n  body: ${body.slice(0, 500)}`
      : null
  }

  return { operationOf, problemOf, webhookProblemOf }
}

let checker: ReturnType<typeof answerChecker> | undefined
/** the checker of the committed document, with its strict variant as the code generates it */
export function documentChecker() {
  return (checker ??= answerChecker(
    JSON.parse(fs.readFileSync(DOCUMENT_FILE, 'utf8')),
    buildApiDocument({ strict: true }),
  ))
}

export class UndocumentedAnswer extends Error {
  constructor(problem: string) {
    super(`OpenAPI document (openapi.json; \`npm run openapi\` regenerates it from the schemas): ${problem}`)
    this.name = 'UndocumentedAnswer'
  }
}

/** for tests that speak raw HTTP: throws when the answer is not as the document says */
export function assertDocumented(a: Answer): void {
  const problem = documentChecker().problemOf(a)
  if (problem) throw new UndocumentedAnswer(problem)
}

/** a chunked body's data */
function dechunk(body: string): string {
  let out = ''
  let at = 0
  for (;;) {
    const line = body.indexOf('\r\n', at)
    if (line < 0) return out
    const size = parseInt(body.slice(at, line), 16)
    if (!(size > 0)) return out
    out += body.slice(line + 2, line + 2 + size)
    at = line + 2 + size + 2
  }
}

/**
 * An answer as read off a socket (`HTTP/1.1 400 …`, its headers, a blank line, its body, plain or
 * chunked), for assertDocumented. Give the bytes (the body is read as UTF-8), or text read as latin1.
 */
export function rawAnswer(method: string, path: string, raw: string | Buffer): Answer {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'latin1') : raw
  const end = bytes.indexOf('\r\n\r\n')
  const [statusLine, ...lines] = bytes
    .subarray(0, end < 0 ? bytes.length : end)
    .toString('latin1')
    .split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let text = end < 0 ? '' : bytes.subarray(end + 4).toString('latin1')
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) text = dechunk(text)
  return {
    method,
    path,
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]),
    headers,
    text: Buffer.from(text, 'latin1').toString('utf8'),
  }
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i
const INSTALLED = Symbol.for('payin.openapi-check')

/** the JSON text a fetch sent, if it sent a JSON body as text or bytes */
function sentJson(init: RequestInit | undefined): string | undefined {
  const type = new Headers(init?.headers).get('content-type') ?? ''
  if (!JSON_TYPE.test(type)) return undefined
  const body = init?.body
  if (typeof body === 'string') return body
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8')
  return undefined
}

/** wraps globalThis.fetch: every answer from a loopback server is checked (see the top of this file) */
export function checkFetches(): void {
  const g = globalThis as typeof globalThis & { [INSTALLED]?: boolean }
  if (g[INSTALLED]) return
  g[INSTALLED] = true
  const fetch = globalThis.fetch
  globalThis.fetch = async function checkedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const res = await fetch(input, init)
    const url = new URL(res.url || (input instanceof Request ? input.url : String(input)))
    if (!LOOPBACK.test(url.hostname)) return res
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
    const { operationOf, problemOf } = documentChecker()
    const headers = Object.fromEntries(res.headers)
    // the body is read (from a copy) only where there is something to check
    const json = JSON_TYPE.test(headers['content-type'] ?? '')
    if (!operationOf(method, url.pathname) && !(res.status >= 400 && (json || isApiPath(url.pathname)))) return res
    let text: string
    try {
      text = await res.clone().text()
    } catch {
      return res // the body broke off: the test sees that itself
    }
    const problem = problemOf({
      method,
      path: url.pathname,
      status: res.status,
      headers,
      text,
      requestBody: sentJson(init),
    })
    if (problem) throw new UndocumentedAnswer(problem)
    return res
  }
}

checkFetches()
