// The benchmark's bound for API routes (bench/run-bench.ts): with BENCH_BOUNDS=1 in the server's
// environment, GET answers 204 with no body straight from Next.js's router — no wrapper, no ids, no
// log line, no database — so the bench measures what a route handler costs in Next.js alone. Without
// BENCH_BOUNDS=1 (every real deployment) this path is like any unknown API path: the contract's 404,
// through the API wrapper, as before this file existed.
import { unknownRoute } from '@/lib/http/api-route'

type Handler = typeof unknownRoute

const bound: Handler = (req, ctx) => (process.env.BENCH_BOUNDS === '1' && req.method === 'GET' ? Promise.resolve(new Response(null, { status: 204 })) : unknownRoute(req, ctx))

export { bound as GET, unknownRoute as POST, unknownRoute as PUT, unknownRoute as PATCH, unknownRoute as DELETE, unknownRoute as OPTIONS }
