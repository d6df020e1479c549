// npm run webhooks -- listen [--port N] [--site <siteId>] [--forward URL]
// A notification receiver on this machine, for trying a shop's webhooks: it listens on 127.0.0.1 (port N, or any
// free one), points the site's notifications at itself (default the demo site, DEMO_SITE_ID) the way
// `npm run site -- notify` does, verifies both signatures of each notification with the site's secret and
// prints one line per notification:
//   PAYMENT order-1001 SUCCESS 100.00 RUB signature OK
// answering 200. --forward URL (on this machine) passes each one on, body and headers as received, and prints
// the answer's status. Ctrl-C (SIGINT), SIGTERM or SIGHUP puts the site's previous URL back (none, if it had none),
// unless the URL was changed meanwhile.
// Same settings as the server and the site command: the database (DATABASE_URL, else the embedded PostgreSQL
// under data/) and SECRET_KEY (else data/secret.key). Its own URL is set whatever NOTIFY_ALLOW_NETWORKS says in
// this shell: the service that delivers decides by its own setting. When it refuses (it calls loopback only with
// NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128, the contract's default being none), the refused attempt is recorded,
// and the listener, looking at most once a second, says once how to start the service.
import http from 'node:http'
import https from 'node:https'
import net, { type AddressInfo } from 'node:net'
import { isLoopbackAddress, isLoopbackUrl, LOOPBACK_NETWORKS } from '../lib/notifications/outgoing-policy.ts'
import { openDatabase, secretKey } from './database.ts'

const USAGE = 'usage: npm run webhooks -- listen [--port N] [--site <siteId>] [--forward URL]'
/** the largest body read: notifications are a few kilobytes */
const MAX_BODY_BYTES = 1024 * 1024
/** how long a forward may take before it counts as failed */
const FORWARD_TIMEOUT_MS = 10_000
/** how often the deliveries to the listener are looked at for a refused one */
const REFUSAL_POLL_MS = 1000
/** said once, when a delivery to the listener is recorded as refused by the service's policy */
const REFUSED_BY_SERVICE =
  'the service refused to call this listener (a private address to it): start the service with ' +
  `NOTIFY_ALLOW_NETWORKS=${LOOPBACK_NETWORKS}`

interface Options {
  port: number
  siteId: string
  forward: URL | null
}

/** the command line's options, or what is wrong with it */
function options(argv: string[]): Options | string {
  const [command, ...rest] = argv
  if (command !== 'listen') return USAGE
  const o: Options = { port: 0, siteId: process.env.DEMO_SITE_ID || 'demo', forward: null }
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i].split(/=(.*)/s, 2)
    const value = inline ?? rest[++i]
    if (value === undefined) return `${flag} needs a value\n${USAGE}`
    if (flag === '--port') {
      o.port = Number(value)
      if (!/^\d+$/.test(value) || o.port > 65535) return `--port ${value}: a port number (0: any free one)`
    } else if (flag === '--site') o.siteId = value
    else if (flag === '--forward') {
      if (!/^https?:\/\//i.test(value) || !isLoopbackUrl(value))
        return `--forward ${value}: an http(s) URL on this machine (localhost, 127.0.0.1 or [::1])`
      o.forward = new URL(value)
    } else return `${rest[i]}: unknown\n${USAGE}`
  }
  return o
}

/** whether something listens at a URL on this machine (a TCP connection within a second; loopback only) */
function answers(loopbackUrl: string): Promise<boolean> {
  const u = new URL(loopbackUrl)
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80))
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port, timeout: 1000 })
    const end = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.once('connect', () => end(true))
    socket.once('timeout', () => end(false))
    socket.once('error', () => end(false))
  })
}

/** the request's body, up to MAX_BODY_BYTES */
function bodyOf(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > MAX_BODY_BYTES) return req.destroy(new Error(`a body over ${MAX_BODY_BYTES} bytes`))
      chunks.push(c)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** posts the body to `target` with the headers as received (Host made the target's); the answer's status, or why not */
function forward(target: URL, req: http.IncomingMessage, body: Buffer): Promise<string> {
  const headers: string[] = []
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    headers.push(req.rawHeaders[i], req.rawHeaders[i].toLowerCase() === 'host' ? target.host : req.rawHeaders[i + 1])
  return new Promise((resolve) => {
    const client = target.protocol === 'https:' ? https : http
    const out = client.request(target, { method: req.method, headers, agent: false, timeout: FORWARD_TIMEOUT_MS })
    // a name (localhost) is resolved by the system: the address connected to must be this machine's too
    out.on('socket', (socket) =>
      socket.once('connect', () => {
        const address = (socket as net.Socket).remoteAddress ?? ''
        if (!isLoopbackAddress(address)) socket.destroy(new Error(`${address} is not on this machine`))
      }),
    )
    out.on('response', (res) => {
      res.resume()
      resolve(String(res.statusCode))
    })
    out.on('timeout', () => out.destroy(new Error(`no answer within ${FORWARD_TIMEOUT_MS} ms`)))
    out.on('error', (e) => resolve(`failed: ${e.message}`))
    out.end(body)
  })
}

async function main(): Promise<number> {
  const o = options(process.argv.slice(2))
  if (typeof o === 'string') {
    console.error(o)
    return 2
  }
  const database = await openDatabase((line) => console.error(line))
  secretKey()
  const { closeDb } = await import('../lib/db/client.ts')
  const { SiteNotFound } = await import('../lib/sites/site-tokens.ts')
  const notify = await import('../lib/notifications/site-notify.ts')
  const { checkNotification, notificationLine } = await import('../lib/notifications/notification-check.ts')
  let stopping = false
  const done = async (code: number) => {
    await closeDb()
    await database.release()
    return code
  }

  const server = http.createServer(async (req, res) => {
    if (req.method !== 'POST') return res.writeHead(405, { Allow: 'POST' }).end()
    try {
      const body = await bodyOf(req)
      const secrets = await notify.notifySecrets(o.siteId)
      const check = checkNotification(
        body.toString('utf8'),
        { signature: req.headers.signature as string, payinSignature: req.headers['payin-signature'] as string },
        [secrets.current, ...(secrets.previous ? [secrets.previous] : [])],
      )
      console.log(notificationLine(check))
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok')
      if (o.forward) {
        const s = check.summary
        console.log(
          `${s ? `${s.type} ${s.id}` : 'it'} forwarded to ${o.forward.href}: ${await forward(o.forward, req, body)}`,
        )
      }
    } catch (e) {
      if (stopping) return
      console.error(`a request to ${req.url} could not be read: ${(e as Error).message}`)
      if (!res.headersSent) res.writeHead(500).end()
    }
  })
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(o.port, '127.0.0.1', resolve)
    })
  } catch (e) {
    const inUse = (e as NodeJS.ErrnoException).code === 'EADDRINUSE'
    console.error(
      inUse ? `port ${o.port} is in use: choose another (--port N), or leave --port out for any free one` : String(e),
    )
    return done(1)
  }
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`

  let previous: string | null
  // refusals to this URL before this run (an earlier listener's on the same port) tell nothing of this one
  const refusedBefore = await notify.refusedDeliveriesTo(o.siteId, url)
  // caught before the site's URL is borrowed: a stop signal from then on (even before the listener says it is up)
  // puts the previous URL back, instead of ending the process with the URL still borrowed
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    // a Ctrl-C reaches npm, the launcher and this process, and the launcher passes it on too: every one is caught
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, () => resolve(s))
  })
  try {
    ;({ previous } = await notify.borrowNotifyUrl(o.siteId, url))
  } catch (e) {
    server.close()
    if (e instanceof SiteNotFound) console.error(`no site "${e.siteId}" (npm run site -- list shows the sites)`)
    else throw e
    return done(1)
  }
  const before = previous ?? "none: each operation's callbackUrl only"
  console.log(`listening on ${url} for the notifications of site ${o.siteId} (its URL was ${before})`)
  const forwarded = o.forward ? ` and it is forwarded to ${o.forward.href}` : ''
  console.log(
    `each one's Signature and Payin-Signature are verified with the site's signing secret${forwarded}; ` +
      'Ctrl-C puts the previous URL back',
  )

  // a refused delivery is recorded by the service that tried: looked for until one is found, or the listener stops
  let poll: NodeJS.Timeout | undefined
  let looking: Promise<void> = Promise.resolve()
  const lookForRefusal = () => {
    looking = notify.refusedDeliveriesTo(o.siteId, url).then(
      (refused) => {
        if (refused > refusedBefore) console.error(REFUSED_BY_SERVICE)
        else if (!stopping) poll = setTimeout(lookForRefusal, REFUSAL_POLL_MS)
      },
      (e: Error) => {
        if (!stopping) console.error(`the deliveries to this listener could not be read: ${e.message}`)
      },
    )
  }
  poll = setTimeout(lookForRefusal, REFUSAL_POLL_MS)

  const signal = await stopSignal
  stopping = true
  clearTimeout(poll)
  await looking
  server.close()
  server.closeAllConnections()
  // a previous URL on this machine that no longer answers is a listener stopped without putting its own back
  // (killed, or stopped before a later one): none is put back instead of a dead address
  const dead = previous !== null && isLoopbackUrl(previous) && !(await answers(previous))
  const back = dead ? null : previous
  const restored = await notify.putBackNotifyUrl(o.siteId, url, back)
  if (dead) console.log(`its previous URL, ${previous}, answers no more (a stopped listener's?): none is put back`)
  console.log(
    restored
      ? `${signal}: notifications of ${o.siteId} go to ${back ?? "each operation's callbackUrl only"} again`
      : `${signal}: the notification URL of ${o.siteId} was changed meanwhile, and is left as it is`,
  )
  return done(0)
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  },
)
