// Path templates (`/api/sites/{siteId}/payments/{paymentId}`) and the request paths they match, as the
// service routes them: the front door reads the API's route of a path with it (its 405's Allow), the
// metrics their route label (lib/observability/route-template.ts), each with its own list of templates.
import { API_PREFIXES } from './api-routes'

/** the protocol's aliases of /api (next.config.mjs rewrites them): the same templates */
const API_ALIASES = API_PREFIXES.filter((p) => p !== '/api').map((p) => `${p}/`)

interface Node {
  literal: Map<string, Node>
  param?: Node
  template?: string
}

const newNode = (): Node => ({ literal: new Map() })

/** a literal segment first (`/dashboard/bills/new`), else the parameter (`/dashboard/bills/{billId}`) */
function match(node: Node, segments: string[], i: number): string | undefined {
  if (i === segments.length) return node.template
  const segment = segments[i]
  if (!segment) return undefined
  const literal = node.literal.get(segment)
  const found = literal && match(literal, segments, i + 1)
  if (found) return found
  return node.param && match(node.param, segments, i + 1)
}

/** the template of `templates` a routed path (routedPath's) matches, a `{name}` standing for one segment */
export function templateMatcher(templates: readonly string[]): (path: string) => string | undefined {
  const root = newNode()
  for (const template of templates) {
    let node = root
    for (const segment of template.split('/').slice(1).filter(Boolean)) {
      if (segment.startsWith('{')) node = node.param ??= newNode()
      else {
        let next = node.literal.get(segment)
        if (!next) node.literal.set(segment, (next = newNode()))
        node = next
      }
    }
    node.template = template
  }
  return (path) => match(root, path.split('/').slice(1), 0)
}

/**
 * The path a request target (path and query: the front door's admitted one) reaches, as Next.js routes
 * it; null when it is no path. Its dot segments are resolved as Next.js resolves them before routing
 * (WHATWG URL: `/_next/../api/metrics` and `/api/%2e/metrics` are served as `/api/metrics`), trailing
 * slashes dropped, and the protocol's aliases of /api reduced to it.
 */
export function routedPath(target: string): string | null {
  const q = target.search(/[?#]/)
  let path = q < 0 ? target : target.slice(0, q)
  if (!path.startsWith('/') || path.length > 2048) return null
  try {
    path = new URL(`http://n${path}`).pathname
  } catch {
    return null
  }
  // the front door serves `/x/` as `/x`
  while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  const lower = path.toLowerCase()
  const alias = API_ALIASES.find((a) => lower.startsWith(a))
  if (alias) path = `/api/${path.slice(alias.length)}`
  return path
}
