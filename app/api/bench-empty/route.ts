// The benchmark's bounds for API routes (bench/run-bench.ts): with BENCH_BOUNDS=1 in the server's
// environment, straight from Next.js's router — no wrapper, no ids, no log line, no database — GET
// answers 204 with no body (what a route handler costs in Next.js alone), and PUT reads the request
// body and answers `{}` (the same with a body in and out, as an API write has). Without BENCH_BOUNDS=1
// (every real deployment) this path is like any unknown API path: the contract's 404, through the API
// wrapper, as before this file existed.
import { unknownRoute } from '@/lib/http/api-route'

type Handler = typeof unknownRoute

const bounds = () => process.env.BENCH_BOUNDS === '1'

const empty: Handler = (req, ctx) => (bounds() && req.method === 'GET' ? Promise.resolve(new Response(null, { status: 204 })) : unknownRoute(req, ctx))

const withBody: Handler = async (req, ctx) => {
  if (!bounds()) return unknownRoute(req, ctx)
  await req.text()
  return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } })
}

export { empty as GET, unknownRoute as POST, withBody as PUT, unknownRoute as PATCH, unknownRoute as DELETE, unknownRoute as OPTIONS }
