// The benchmark's bounds for API routes (bench/run-bench.ts): with BENCH_BOUNDS=1 in the server's
// environment, straight from Next.js's router — no wrapper, no ids, no log line, no database — GET
// answers 204 with no body (what a route handler costs in Next.js alone; with ?json it answers instead a
// payment's JSON with the API's headers, what a read's answer alone costs), and PUT reads the request
// body and answers `{}` (the same with a body in and out, as an API write has). Without BENCH_BOUNDS=1
// (every real deployment) this path is like any unknown API path: the contract's 404, through the API
// wrapper, as before this file existed.
import { JSON_ANSWER_HEADERS } from '@/lib/http/api-error'
import { unknownRoute } from '@/lib/http/api-route'

type Handler = typeof unknownRoute

const bounds = () => process.env.BENCH_BOUNDS === '1'

// a payment's answer as the API writes it (the benchmark reads this one)
const PAYMENT_JSON = JSON.stringify({
  paymentId: 'read-0',
  billId: '1f0c6a4e-3f7d-4c51-9a57-2d3b1c0e9f11',
  createdDateTime: '2026-11-22T10:15:30.123+00:00',
  amount: { value: '100.00', currency: 'RUB' },
  capturedAmount: { value: '100.00', currency: 'RUB' },
  refundedAmount: { value: '0.00', currency: 'RUB' },
  paymentMethod: { type: 'CARD', maskedPan: '411111******1111' },
  status: { value: 'COMPLETED', changedDateTime: '2026-11-22T10:15:30.123+00:00' },
  flags: ['SALE'],
})
const IDS = { 'X-Trace-Id': '0123a56789b12345', 'X-Request-Id': '0123a5678901b2345678' }

const empty: Handler = (req, ctx) => {
  if (!bounds() || req.method !== 'GET') return unknownRoute(req, ctx)
  if (!req.url.endsWith('?json')) return Promise.resolve(new Response(null, { status: 204 }))
  return Promise.resolve(new Response(PAYMENT_JSON, { status: 200, headers: { ...JSON_ANSWER_HEADERS, ...IDS } }))
}

const withBody: Handler = async (req, ctx) => {
  if (!bounds()) return unknownRoute(req, ctx)
  await req.text()
  return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } })
}

export {
  empty as GET,
  unknownRoute as POST,
  withBody as PUT,
  unknownRoute as PATCH,
  unknownRoute as DELETE,
  unknownRoute as OPTIONS,
}
