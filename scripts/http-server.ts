// One instance of the service: Node's HTTP server with the front door (lib/http/front-door.ts) in
// front of Next.js (the built app in .next). Run by `npm start` (scripts/serve.ts), the tests, the
// stress test and the benchmark; with --dev (`npm run dev`) Next.js runs in development mode (compiles on
// request, hot reload). Settings: PORT (3000), HOST (all interfaces), TRUSTED_PROXY_HOPS (0),
// DRAIN_DELAY_SECONDS (0). SIGTERM/SIGINT: readiness answers 503 from then on; after DRAIN_DELAY_SECONDS (still
// serving meanwhile), stop accepting, finish the requests in flight, close Next.js, exit. Every request is counted
// and timed here for the metrics (lib/observability/metrics.ts).
// first: whatever the process writes from here on, Next.js's own output included, is masked
import '../lib/http/masked-output.ts'
import http from 'node:http'
import type net from 'node:net'
import next from 'next'
import {
  ApiError,
  errorBody,
  internalError,
  JSON_ANSWER_HEADERS,
  malformedBody,
  methodNotAllowed,
} from '../lib/http/api-error.ts'
import {
  admitMessage,
  admitTarget,
  clientAddress,
  CLIENT_ADDRESS_HEADER,
  dropNextHeaders,
  markFrontDoor,
  type FrontDoorAnswer,
} from '../lib/http/front-door.ts'
import { CLIENT_CLOSED } from '../lib/http/request-log.ts'
import { describeFailure, logLine } from '../lib/log/log-line.ts'
import { payFormScript } from '../lib/pay-form/pay-form-script.ts'
import { newRequestId, newTraceId } from '../lib/http/trace-id.ts'
import { settings } from '../lib/config.ts'
import { markDraining } from '../lib/observability/draining.ts'
import { metrics, recordRefusedMessage, recordRequest } from '../lib/observability/metrics.ts'

const port = Number(process.env.PORT || 3000)
const host = process.env.HOST || undefined
const hops = Math.max(0, Math.floor(Number(process.env.TRUSTED_PROXY_HOPS ?? 0) || 0))
const SHUTDOWN_DEADLINE_MS = 25_000
// how long an instance told to stop keeps accepting while readiness answers 503: a load balancer checking readiness
// takes it out meanwhile and never meets a closed port (docs/operators/deployment-and-scaling.md)
const drainDelayMs = Math.min(Math.max(0, Number(process.env.DRAIN_DELAY_SECONDS ?? 0) || 0), 3600) * 1000
const dev = process.argv.includes('--dev')

function answerError(res: http.ServerResponse, err: ApiError, method: string | undefined, target: string): void {
  const traceId = newTraceId()
  const requestId = newRequestId()
  const body = JSON.stringify(errorBody(err, traceId))
  res.writeHead(err.status, {
    ...JSON_ANSWER_HEADERS,
    ...err.headers,
    'X-Trace-Id': traceId,
    'X-Request-Id': requestId,
    'Content-Length': Buffer.byteLength(body),
  })
  res.end(body)
  // the target as received may hold anything: logged cut short and JSON-escaped by the log line
  logLine({
    level: 'info',
    traceId,
    requestId,
    method,
    path: target.slice(0, 200),
    status: err.status,
    kind: 'front-door',
  })
}

/** a connection as Node's HTTP server keeps it: the answer it owes first, its parser and the message that one reads */
type ParsingSocket = net.Socket & {
  _httpMessage?: http.ServerResponse | null
  parser?: { incoming?: http.IncomingMessage | null } | null
  [REFUSED]?: true
  [CLOSING]?: true
}
const REFUSED = Symbol('payin.refused-message')
/** an answer already given or under way on the connection closes it: what is pipelined after is not run */
const CLOSING = Symbol('payin.closing')

/**
 * runs `then` once the connection has sent every answer it owes (at once when it owes none); nothing if it closes first
 */
function afterAnswersOwed(socket: ParsingSocket, then: () => void): void {
  const pending = socket._httpMessage
  if (!pending) return then()
  // Node's own 'finish' listener, added first, hands the connection to the next queued answer before this runs
  pending.once('finish', () => afterAnswersOwed(socket, then))
}

/** an error answer written straight to the socket (no request object to answer through), which then closes */
function writeRawError(socket: net.Socket, err: ApiError, traceId: string, requestId: string): void {
  const body = JSON.stringify(errorBody(err, traceId))
  const head = [
    `HTTP/1.1 ${err.status} ${http.STATUS_CODES[err.status]}`,
    'Connection: close',
    `X-Trace-Id: ${traceId}`,
    `X-Request-Id: ${requestId}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
  ]
  for (const [k, v] of Object.entries({ ...JSON_ANSWER_HEADERS, ...err.headers })) head.push(`${k}: ${v}`)
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
}

/**
 * the answer to a message Node's parser refused: 408 for a request too slow to arrive, 431 for headers too large, else
 * 400
 */
function refuseMessage(socket: net.Socket, failure: NodeJS.ErrnoException): void {
  if (!socket.writable) return void socket.destroy()
  if (failure.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    recordRefusedMessage(408)
    return void socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
  }
  const status = failure.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
  const traceId = newTraceId()
  const requestId = newRequestId()
  writeRawError(
    socket,
    status === 431
      ? new ApiError(431, 'http.message.conversion.failed', 'Request headers too large', 'Bad request')
      : malformedBody('Malformed HTTP request'),
    traceId,
    requestId,
  )
  recordRefusedMessage(status)
  logLine({ level: 'info', traceId, requestId, status, kind: 'front-door', error: failure.code })
}

/**
 * Counts and times the request in the metrics once its answer is sent or its connection closes: under
 * the template of the route its target reaches (the target the front door admitted, as Next.js sees it;
 * for a refusal, the target as received, so refusals count too); a request whose client left before any
 * answer was started counts as 499.
 */
function measure(req: http.IncomingMessage, res: http.ServerResponse, started: number, target: string): void {
  res.once('close', () => {
    const status = res.headersSent ? res.statusCode : CLIENT_CLOSED
    recordRequest(req.method, target, status, (performance.now() - started) / 1000)
  })
}

async function main() {
  // a setting that is wrong (METRICS_TOKEN too short or not a bearer token, an unknown SERVICE_TIME_ZONE): one line, no
  // start
  try {
    settings()
  } catch (e) {
    console.error(`[payin] ${(e as Error).message}`)
    process.exit(1)
  }
  // the payment page's script (production): read now, as Next.js takes its list of public files; missing, no start
  if (!dev) process.env.PAY_FORM_SCRIPT = payFormScript()
  const app = next({ dev, dir: process.cwd(), hostname: host ?? 'localhost', port })
  const handle = app.getRequestHandler()
  await app.prepare()
  markFrontDoor()
  // the registry the route handlers serve is this one (on globalThis): created before the first request
  metrics()

  let stopping = false
  const options: http.ServerOptions = {
    // a request without Host is the front door's to answer, in the error shape (Node.js would send a bare 400)
    requireHostHeader: false,
    // Upgrade requests (WebSocket, h2c) are requests like any other, through the front door: Next.js's own
    // upgrade handler would take them unjudged and leave the socket open without an answer. Only the
    // development server's hot reload (/_next/…) is upgraded.
    shouldUpgradeCallback: (req) => dev && (req.url ?? '').startsWith('/_next/'),
  }
  const server = http.createServer(options, (req, res) => {
    const socket = req.socket as ParsingSocket
    // an answer before this one on the connection closes it (a refusal, an Upgrade request's, HTTP/1.0, the
    // client's Connection: close, a shutdown): this request, pipelined behind it, could never be answered,
    // so it is not run (Node dispatches pipelined requests as soon as it reads them)
    if (socket[CLOSING]) return
    const started = performance.now()
    let admitted: FrontDoorAnswer
    try {
      const refusedMessage = admitMessage(req)
      admitted = refusedMessage ? { pass: false, error: refusedMessage } : admitTarget(req.url ?? '', req.method)
    } catch (e) {
      // a defect of the front door's own: still an answer, in the error shape, and a line saying what failed
      logLine({
        level: 'error',
        method: req.method,
        path: (req.url ?? '').slice(0, 200),
        kind: 'front-door',
        error: describeFailure(e),
      })
      admitted = { pass: false, error: malformedBody('Malformed HTTP request') }
    }
    measure(req, res, started, admitted.pass ? admitted.url : (req.url ?? ''))
    // the connection ends with this answer (Node then says `Connection: close`) after a refusal, for an
    // Upgrade request (not upgraded: Node's parser stops at its head, so nothing pipelined after it is read),
    // for HTTP/1.0 (which keeps a connection only for answers of a known length, decided as the answer is
    // written: decided now instead) and while shutting down
    if (!admitted.pass || req.httpVersion === '1.0' || req.headers.upgrade !== undefined || stopping)
      res.shouldKeepAlive = false
    if (!res.shouldKeepAlive) socket[CLOSING] = true
    if (!admitted.pass) {
      // the body is not read: the connection closes after the answer
      return answerError(res, admitted.error, req.method, req.url ?? '')
    }
    req.url = admitted.url
    if (admitted.host !== undefined) req.headers.host = admitted.host
    dropNextHeaders(admitted.url, req.headers)
    req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req.headers, req.socket.remoteAddress, hops)
    // the request id is the server's own (the page proxy's, the route handlers'): one a client sent names nothing
    delete req.headers['x-request-id']
    handle(req, res).catch((e) => {
      logLine({
        level: 'error',
        method: req.method,
        path: (req.url ?? '').slice(0, 200),
        kind: 'front-door',
        error: describeFailure(e),
      })
      if (!res.headersSent) answerError(res, internalError(), req.method, req.url ?? '')
      else res.destroy()
    })
  })
  // a client that half-closes its connection after its requests (shutdown for writing, as `nc -N` does)
  // still gets their answers; the connection ends after the last (Node would drop requests under way)
  ;(server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true
  // a request Node's parser refuses (bytes not allowed in a request line or header, a body that breaks
  // off): the error shape too, where the connection can still carry an answer to it
  server.on('clientError', (failure: NodeJS.ErrnoException, socket: ParsingSocket) => {
    // the parser fails again on every later packet of a connection it gave up on: judged once
    if (socket[REFUSED]) return
    socket[REFUSED] = true
    if (failure.code === 'ECONNRESET' || !socket.writable) return socket.destroy()
    // the message the parser was reading when it failed (the last one whose head it read)
    const parsing = socket.parser?.incoming ?? undefined
    // a broken head: refused after every answer owed to the requests before it (pipelined)
    if (parsing === undefined || parsing.complete) return afterAnswersOwed(socket, () => refuseMessage(socket, failure))
    // a body broke off (a malformed chunk): its request was dispatched, and its handler reads no whole body
    // and does nothing (lib/http/api-route.ts). After the answers owed to the requests before it: its own
    // answer not yet begun, this 400 is it, and the handler's, should it come, goes nowhere; begun or sent
    // (a request answered before its body was read), nothing can follow it: the connection is cut.
    const judgeBody = (): void => {
      const pending = socket._httpMessage ?? undefined
      if (pending && pending.req !== parsing) return void pending.once('finish', judgeBody)
      if (!pending || pending.headersSent) return void socket.destroy()
      pending.shouldKeepAlive = false
      refuseMessage(socket, failure)
    }
    judgeBody()
  })
  // CONNECT (a proxy's method): the 405 every unserved method gets, then the connection closes
  server.on('connect', (req: http.IncomingMessage, socket: ParsingSocket) => {
    // after the answers owed to the requests pipelined before it
    afterAnswersOwed(socket, () => {
      const traceId = newTraceId()
      const requestId = newRequestId()
      writeRawError(socket, methodNotAllowed(['GET', 'HEAD', 'POST']), traceId, requestId)
      recordRefusedMessage(405)
      logLine({
        level: 'info',
        traceId,
        requestId,
        method: 'CONNECT',
        path: (req.url ?? '').slice(0, 200),
        status: 405,
        kind: 'front-door',
      })
    })
  })
  // an Expect other than 100-continue: ignored (RFC 9110 §10.1.1 allows it), the request served as any other
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) =>
    server.emit('request', req, res),
  )

  // while the drain delay runs: ends it and closes now
  let closeEarly: (() => void) | undefined
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // a second signal while the drain delay runs: the operator wants it over, so stop taking requests now
      closeEarly?.()
      return
    }
    stopping = true
    // readiness answers 503 from now on (to requests on connections still open)
    markDraining()
    const close = () => {
      // no new connections; idle keep-alive connections close, requests in flight finish
      server.close(() => {
        app
          .close()
          .catch((e) => console.error(e))
          .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143))
      })
      server.closeIdleConnections()
      // connections that were busy get `Connection: close` with their answer; one kept open past the deadline is cut
      setTimeout(() => server.closeAllConnections(), SHUTDOWN_DEADLINE_MS).unref()
    }
    if (drainDelayMs > 0) {
      const timer = setTimeout(() => {
        closeEarly = undefined
        close()
      }, drainDelayMs)
      closeEarly = () => {
        clearTimeout(timer)
        closeEarly = undefined
        close()
      }
    } else close()
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  console.log(`[payin] listening on ${host ?? '*'}:${port}${dev ? ' (development mode)' : ''}`)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
