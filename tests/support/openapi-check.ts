// Every answer the HTTP tests receive, checked against the OpenAPI document (openapi.json, which a
// unit test keeps equal to what the code generates), so the document cannot drift from the service.
// scripts/run-tests.ts loads this module into every HTTP test process (`--import`); loading it wraps
// globalThis.fetch. For an answer of a server on loopback:
// - whose path (under /api, /partner/payin/v1 or /partner/v1) and method are a documented operation:
//   its status must be one the operation documents, and its body (JSON) must validate against that
//   answer's schema (the 200's resource, or the Error shape with the codes of that status);
// - any other JSON answer of 4xx/5xx, on any path (the payment page's endpoints, the dashboard's
//   actions, the front door's refusals, unknown paths): it must validate against the Error shape.
// A violation rejects the fetch with the operation, the status, ajv's errors and the start of the body,
// so the test fails where it made the request. Tests that speak raw HTTP check their JSON answers
// with assertDocumented. The payment page, /acs and the dashboard's pages and actions are not part of
// the API: their successful answers are not checked.
import fs from 'node:fs'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

type Json = Record<string, any>

export const DOCUMENT_FILE = new URL('../../openapi.json', import.meta.url)
const DOCUMENT_ID = 'https://payin.invalid/openapi.json'
const PREFIXES = ['/api', '/partner/payin/v1', '/partner/v1']
// the document's own fields: no JSON Schema keywords, but the document is added to ajv whole, so that
// every schema in it is reached by its JSON pointer and its $refs resolve against the document
const DOCUMENT_FIELDS = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'security', 'tags', 'paths', 'webhooks', 'components']

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

export interface Answer {
  method: string
  /** the path as requested (a query is ignored) */
  path: string
  status: number
  contentType: string | null
  text: string
}

interface Operation {
  template: string
  method: string
  operationId: string
  pointer: string
  op: Json
}

/** the checks of one document */
export function answerChecker(document: Json) {
  const { at } = documentValidator(document)
  const templates = Object.keys(document.paths).map((template) => ({ template, segments: template.split('/') }))

  /** the documented operation a request reaches, if any (a literal segment wins over a parameter, as in the router) */
  function operationOf(method: string, rawPath: string): Operation | null {
    let path = rawPath.split('?')[0]
    while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
    const prefix = PREFIXES.find((p) => path.startsWith(`${p}/`))
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
    return { template: best.template, method: method.toUpperCase(), operationId: op.operationId, pointer: `/paths/${escapePointer(best.template)}/${method.toLowerCase()}`, op }
  }

  /** what is wrong with an answer, or null */
  function problemOf(a: Answer): string | null {
    if (a.method.toUpperCase() === 'HEAD') return null
    const json = /^application\/([\w.+-]+\+)?json\b/i.test(a.contentType ?? '')
    const operation = operationOf(a.method, a.path)
    let pointer: string
    let what: string
    if (operation) {
      what = `${operation.method} ${operation.template} (${operation.operationId}) answered ${a.status}`
      let response = operation.op.responses[String(a.status)]
      let responsePointer = `${operation.pointer}/responses/${a.status}`
      if (!response) return `${what}, a status the document does not give it (${Object.keys(operation.op.responses).join(', ')})`
      if (response.$ref) {
        responsePointer = response.$ref.slice(1)
        response = responsePointer.split('/').slice(1).reduce((o: Json, k: string) => o[k.replaceAll('~1', '/').replaceAll('~0', '~')], document)
      }
      const types = Object.keys(response.content ?? {})
      if (!types.length) return null
      if (!response.content['application/json']) {
        // an answer that is not JSON (the metrics' text): its type is checked
        const type = (a.contentType ?? '').toLowerCase().replace(/\s+/g, '')
        return types.some((t) => type.startsWith(t.toLowerCase().replace(/\s+/g, ''))) ? null : `${what} with Content-Type ${a.contentType}, not the documented ${types.join(' or ')}`
      }
      if (!json) return `${what} with Content-Type ${a.contentType}, not the documented application/json`
      pointer = `${responsePointer}/content/application~1json/schema`
    } else {
      if (a.status < 400 || !json) return null
      what = `${a.method.toUpperCase()} ${a.path.slice(0, 200)} answered ${a.status}`
      pointer = '/components/schemas/Error'
    }
    let body: unknown
    try {
      body = JSON.parse(a.text)
    } catch {
      return `${what} with a body that is not JSON: ${a.text.slice(0, 500)}`
    }
    const validate = at(pointer)
    if (validate(body)) return null
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`)
    return `${what}, a body the document does not describe (#${pointer}):\n  ${errors.join('\n  ')}\n  body: ${a.text.slice(0, 500)}`
  }

  /** what is wrong with a notification the service posted (its body and signature headers), or null */
  function webhookProblemOf(body: string, headers: Record<string, string | undefined>): string | null {
    let parsed: Json
    try {
      parsed = JSON.parse(body)
    } catch {
      return `a notification whose body is not JSON: ${body.slice(0, 500)}`
    }
    const name = `${String(parsed?.type).toLowerCase()}Notification`
    const post = document.webhooks[name]?.post
    if (!post) return `a notification of a type the document does not describe (${name}): ${body.slice(0, 500)}`
    const pointer = `/webhooks/${name}/post`
    const problems: string[] = []
    for (const [i, parameter] of (post.parameters as Json[]).entries()) {
      const value = headers[parameter.name.toLowerCase()]
      if (value === undefined) problems.push(`no ${parameter.name} header`)
      else if (!at(`${pointer}/parameters/${i}/schema`)(value)) problems.push(`${parameter.name}: ${value}`)
    }
    const validate = at(`${pointer}/requestBody/content/application~1json/schema`)
    if (!validate(parsed)) problems.push(...(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`))
    return problems.length ? `POST ${name} (webhook) does not match the document:\n  ${problems.join('\n  ')}\n  body: ${body.slice(0, 500)}` : null
  }

  return { operationOf, problemOf, webhookProblemOf }
}

let checker: ReturnType<typeof answerChecker> | undefined
/** the checker of the committed document */
export function documentChecker() {
  return (checker ??= answerChecker(JSON.parse(fs.readFileSync(DOCUMENT_FILE, 'utf8'))))
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

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i
const INSTALLED = Symbol.for('payin.openapi-check')

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
    const contentType = res.headers.get('content-type')
    // the body is read (from a copy) only where there is something to check
    const json = /json/i.test(contentType ?? '')
    if (!operationOf(method, url.pathname) && !(res.status >= 400 && json)) return res
    let text: string
    try {
      text = await res.clone().text()
    } catch {
      return res // the body broke off: the test sees that itself
    }
    const problem = problemOf({ method, path: url.pathname, status: res.status, contentType, text })
    if (problem) throw new UndocumentedAnswer(problem)
    return res
  }
}

checkFetches()
