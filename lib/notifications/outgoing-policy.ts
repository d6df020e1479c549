// Outgoing requests for merchant notifications (webhooks): http(s) only, no redirects followed, one
// timeout over connect and answer, the answer read up to a limit, and never to an address that is not
// globally reachable (it could land inside the service's own networks).
//
// Refused: every block of IANA's IPv4 and IPv6 Special-Purpose Address Registries (as of 2025), the
// multicast ranges, and every IPv6 address outside global unicast 2000::/3:
// - IPv4: 0.0.0.0/8 "this network"; private 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16; shared
//   100.64.0.0/10; loopback 127.0.0.0/8; link-local 169.254.0.0/16 (incl. the cloud metadata address
//   169.254.169.254); 192.0.0.0/24 IETF protocol assignments, whole (service continuity 192.0.0.0/29,
//   dummy 192.0.0.8, NAT64 discovery 192.0.0.170/31, and the anycast 192.0.0.9 and 192.0.0.10, see
//   below); documentation 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24; benchmarking 198.18.0.0/15;
//   192.88.99.0/24 (deprecated 6to4 relay anycast, incl. 6a44 192.88.99.2); AS112 192.31.196.0/24 and
//   192.175.48.0/24 and AMT 192.52.193.0/24 (see below); multicast 224.0.0.0/4; reserved 240.0.0.0/4,
//   incl. broadcast 255.255.255.255.
// - IPv6 outside 2000::/3 (reserved by the IETF; no global unicast address is there): unspecified ::,
//   loopback ::1, IPv4-compatible ::/96 (deprecated), IPv4-translated ::ffff:0:0:0/96, local-use NAT64
//   64:ff9b:1::/48, discard-only 100::/64, the dummy prefix 100:0:0:1::/64, SRv6 SIDs 5f00::/16, unique
//   local fc00::/7, link-local fe80::/10, site-local fec0::/10 (deprecated), multicast ff00::/8, and
//   whatever the IETF sets aside there later. The one exception is NAT64 64:ff9b::/96 (below).
// - IPv6 inside 2000::/3: 2001::/23 IETF protocol assignments, whole (Teredo 2001::/32, PCP, TURN and
//   DNS-SD SRP anycast 2001:1::1-3, benchmarking 2001:2::/48, AMT 2001:3::/32, AS112 2001:4:112::/48,
//   2001:5::/32 once listed for LISP EIDs, ORCHID 2001:10::/28, ORCHIDv2 2001:20::/28, drone DETs
//   2001:30::/28); documentation 2001:db8::/32 and 3fff::/20; 6to4 2002::/16; AS112 2620:4f:8000::/48.
// Refused although IANA marks them globally reachable (no webhook receiver lives there; refusing costs
// nothing, and when in doubt this policy refuses): the anycast service addresses of PCP (192.0.0.9,
// 2001:1::1), TURN (192.0.0.10, 2001:1::2), DNS-SD SRP (2001:1::3), AMT relays and AS112, which by design
// are answered by the nearest server, often one the local network or its provider runs, so possibly one
// inside ours; and ORCHIDv2 and DETs, identifiers rather than locators: a connection to one goes through
// a host identity layer to an address this check never sees. Teredo and 6to4 are "N/A" in the registry
// and reach their host through relays of the network's choosing: refused whole (6to4 was once judged by
// the IPv4 address it carries; it is deprecated, RFC 7526, and no receiver is expected there).
// IPv6 forms that carry an IPv4 address:
// - IPv4-mapped ::ffff:a.b.c.d (IANA's "::ffff:0:0/96", not globally reachable because it never appears
//   in a packet) is not a destination of its own: a socket given one connects to a.b.c.d over IPv4. It is
//   judged, and matched against the allow-list, exactly as a.b.c.d (so ::ffff:8.8.8.8 passes).
// - IPv4-translated ::ffff:0:a.b.c.d (::ffff:0:0:0/96, RFC 2765's SIIT format, dropped by its successors
//   RFC 6145 and RFC 6052) is a real IPv6 destination that some stateless translator turns into a.b.c.d
//   from inside its own network: refused whole, whatever it carries. (Issue 26 asks to refuse
//   "IPv4-translated ::ffff:0:0/96": the name is RFC 2765's, the prefix IANA's IPv4-mapped one. Both
//   readings are covered: translated is refused, mapped is refused wherever its IPv4 address is.)
// - IPv4-compatible ::a.b.c.d (deprecated) and local-use NAT64 64:ff9b:1::/48 are refused whole (above).
// - NAT64 64:ff9b::/96 (globally reachable per IANA: on an IPv6-only network with DNS64 every IPv4 host
//   is reached this way) is refused when the IPv4 address it carries is.
// Every refusal reads 'private address', so the merchant-visible log never tells which class answered.
// NOTIFY_ALLOW_NETWORKS (comma-separated CIDRs, default none) allows listed networks even so, e.g.
// `127.0.0.0/8,::1/128` for a receiver on the developer's machine; unset or empty, nothing is allowed, whatever
// the service's public base URL (the contract's default: a sandbox on a laptop refuses loopback like any other).
// The check is made on the addresses a name resolves to (before connecting; refused ones are dropped) and
// again on the socket's remote address at connect, before a byte is sent, so a name cannot rebind between
// the check and the connection.
import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import net, { type LookupFunction } from 'node:net'
import { publicBaseUrlOf } from '../config'

/** the one reason given for every refused address */
const REFUSED = 'private address'

type Family = 4 | 6
interface Address {
  family: Family
  value: bigint
}

/** a CIDR network; an IPv4-mapped IPv6 network of prefix ≥ 96 is kept as the IPv4 network it is */
export interface Network {
  readonly family: Family
  readonly base: bigint
  readonly prefix: number
}

export interface OutgoingPolicy {
  /** networks called even if in a refused class (NOTIFY_ALLOW_NETWORKS) */
  readonly allow: readonly Network[]
}

const V4_BITS = 0xffffffffn

/** an IP address as written by node (dotted IPv4, any IPv6 form, a %zone ignored), or null */
function parseAddress(text: string): Address | null {
  const ip = text.replace(/%.*$/, '')
  const v4 = (s: string) => s.split('.').reduce((v, part) => (v << 8n) | BigInt(part), 0n)
  if (net.isIPv4(ip)) return { family: 4, value: v4(ip) }
  if (!net.isIPv6(ip)) return null
  // a trailing dotted IPv4 becomes two groups; then '::' is filled up to 8 groups
  const s = ip.replace(/(\d+\.\d+\.\d+\.\d+)$/, (d) => {
    const n = v4(d)
    return `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`
  })
  const [head, tail] = s.split('::')
  const groups = (part: string | undefined) => (part ? part.split(':') : [])
  const all =
    tail === undefined
      ? groups(head)
      : [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)]
  return { family: 6, value: all.reduce((v, g) => (v << 16n) | BigInt(parseInt(g, 16)), 0n) }
}

/** ::ffff:a.b.c.d is a.b.c.d */
function unmapped(a: Address): Address {
  return a.family === 6 && a.value >> 32n === 0xffffn ? { family: 4, value: a.value & V4_BITS } : a
}

function parseNetwork(text: string): Network | null {
  const m = /^([^/%]+?)(?:\/(\d{1,3}))?$/.exec(text)
  const a = m ? parseAddress(m[1]) : null
  if (!m || !a) return null
  const bits = a.family === 4 ? 32 : 128
  const prefix = m[2] === undefined ? bits : Number(m[2])
  if (prefix > bits) return null
  const plain = a.family === 6 && prefix >= 96 ? unmapped(a) : a
  const p = plain.family === a.family ? prefix : prefix - 96
  const shift = BigInt((plain.family === 4 ? 32 : 128) - p)
  return { family: plain.family, base: (plain.value >> shift) << shift, prefix: p }
}

function inNetwork(a: Address, n: Network): boolean {
  if (a.family !== n.family) return false
  const shift = BigInt((a.family === 4 ? 32 : 128) - n.prefix)
  return a.value >> shift === n.base >> shift
}

const networks = (cidrs: string[]) => cidrs.map((c) => parseNetwork(c)!)
// the blocks and the reasons are in the header
const REFUSED_V4 = networks([
  '0.0.0.0/8', // "this network", incl. the unspecified 0.0.0.0
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared (carrier-grade NAT)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, incl. the cloud metadata address 169.254.169.254
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments, whole (incl. the anycast 192.0.0.9 and 192.0.0.10)
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.31.196.0/24', // AS112 (anycast)
  '192.52.193.0/24', // AMT relays (anycast)
  '192.88.99.0/24', // deprecated 6to4 relay anycast, incl. 6a44 192.88.99.2
  '192.168.0.0/16', // private
  '192.175.48.0/24', // AS112 direct delegation (anycast)
  '198.18.0.0/15', // benchmarking (not global, sometimes used inside networks)
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, incl. broadcast 255.255.255.255
])
/** IPv6 global unicast: everything outside it is refused (but NAT64, judged by its IPv4 address) */
const GLOBAL_UNICAST = parseNetwork('2000::/3')!
/** the blocks inside 2000::/3 that are refused */
const REFUSED_V6 = networks([
  '2001::/23', // IETF protocol assignments, whole: Teredo, anycast, benchmarking, AMT, AS112, ORCHID(v2), DETs
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4
  '2620:4f:8000::/48', // AS112 direct delegation (anycast)
  '3fff::/20', // documentation
])
const NAT64 = parseNetwork('64:ff9b::/96')!

/** whether the address (IPv4-mapped ones already unmapped) is in a refused class */
function refused(a: Address): boolean {
  if (a.family === 4) return REFUSED_V4.some((n) => inNetwork(a, n))
  // NAT64 leads to the IPv4 address it carries
  if (inNetwork(a, NAT64)) return refused({ family: 4, value: a.value & V4_BITS })
  return !inNetwork(a, GLOBAL_UNICAST) || REFUSED_V6.some((n) => inNetwork(a, n))
}

/** the loopback networks, as NOTIFY_ALLOW_NETWORKS names them to allow receivers on the service's own machine */
export const LOOPBACK_NETWORKS = '127.0.0.0/8,::1/128'

const LOOPBACK = networks(LOOPBACK_NETWORKS.split(','))

/** whether an IP address (a socket's remote address, a URL's literal host) is a loopback one, IPv4-mapped too */
export function isLoopbackAddress(address: string): boolean {
  const a = parseAddress(address)
  return a !== null && LOOPBACK.some((n) => inNetwork(unmapped(a), n))
}

/** whether a URL's host is localhost or a loopback address (127.0.0.0/8, ::1, ::ffff:127.x.x.x) */
export function isLoopbackUrl(url: string): boolean {
  let host: string
  try {
    host = new URL(url).hostname
  } catch {
    return false
  }
  return host === 'localhost' || isLoopbackAddress(host.startsWith('[') ? host.slice(1, -1) : host)
}

/**
 * the policy of NOTIFY_ALLOW_NETWORKS (unset or empty: nothing allowed); throws on an entry that is not a CIDR
 * network
 */
export function outgoingPolicy(env: NodeJS.ProcessEnv = process.env): OutgoingPolicy {
  const entries = (env.NOTIFY_ALLOW_NETWORKS ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  return {
    allow: entries.map((entry) => {
      const n = parseNetwork(entry)
      if (!n)
        throw new Error(
          `NOTIFY_ALLOW_NETWORKS: "${entry}" is not a network in CIDR notation (like 127.0.0.0/8 or ::1/128)`,
        )
      return n
    }),
  }
}

/** whether the policy calls receivers on this machine (127.0.0.1 or ::1) */
export const allowsLoopback = (policy: OutgoingPolicy): boolean =>
  addressRefusal('127.0.0.1', policy) === null || addressRefusal('::1', policy) === null

/**
 * The policy in words, for the commands that set notification URLs: whether receivers on this machine (loopback) are
 * allowed, and what NOTIFY_ALLOW_NETWORKS (which alone decides) says.
 */
export function policyInWords(policy: OutgoingPolicy, env: Record<string, string | undefined> = process.env): string {
  if (env.NOTIFY_ALLOW_NETWORKS === undefined)
    return (
      'receivers on this machine refused: NOTIFY_ALLOW_NETWORKS unset (the default) allows no private network ' +
      `(NOTIFY_ALLOW_NETWORKS=${LOOPBACK_NETWORKS} allows this machine's)`
    )
  const value = env.NOTIFY_ALLOW_NETWORKS.trim()
  const allows = value ? 'those networks' : 'no private network'
  const verdict = allowsLoopback(policy) ? 'allowed' : 'refused'
  return `receivers on this machine ${verdict}: NOTIFY_ALLOW_NETWORKS=${value} allows ${allows}`
}

/**
 * The start banner's line on receivers on this machine: allowed or refused, and, on a service whose public base URL is
 * local (a developer's machine) and that refuses them, the command that starts it allowing them (`start`: `npm start`
 * or `npm run dev`), the networks already allowed kept.
 */
export function receiversOnThisMachine(
  policy: OutgoingPolicy,
  start: string,
  env: Record<string, string | undefined> = process.env,
): string {
  // as the policy reads it, so that the command shown is one a shell takes whole
  const value = (env.NOTIFY_ALLOW_NETWORKS ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .join(',')
  const setting =
    env.NOTIFY_ALLOW_NETWORKS === undefined
      ? 'NOTIFY_ALLOW_NETWORKS unset, the default'
      : `NOTIFY_ALLOW_NETWORKS=${value}${value ? '' : ', none'}`
  const line = 'notification receivers on this machine'
  if (allowsLoopback(policy)) return `${line}: allowed (${setting}); npm run webhooks -- listen receives them here`
  if (!isLoopbackUrl(publicBaseUrlOf(env))) return `${line}: refused (${setting})`
  const allowing = value ? `${value},${LOOPBACK_NETWORKS}` : LOOPBACK_NETWORKS
  return (
    `${line}: refused (${setting}); to receive them here (npm run webhooks -- listen), start with ` +
    `NOTIFY_ALLOW_NETWORKS=${allowing} ${start}`
  )
}

/** null when the IP address may be connected to, else the reason ('private address'; also for what is not an IP) */
export function addressRefusal(address: string, policy: OutgoingPolicy): string | null {
  const raw = parseAddress(address)
  if (!raw) return REFUSED
  const a = unmapped(raw)
  if (policy.allow.some((n) => inNetwork(a, n))) return null
  return refused(a) ? REFUSED : null
}

/**
 * the refusal of a URL whose host is an IP literal (in any form the WHATWG parser reads), else null (names are checked
 * at connect; a non-URL is not this check's business)
 */
export function literalHostRefusal(url: string, policy: OutgoingPolicy): string | null {
  let host: string
  try {
    host = new URL(url).hostname
  } catch {
    return null
  }
  const ip = host.startsWith('[') ? host.slice(1, -1) : host
  return net.isIP(ip) ? addressRefusal(ip, policy) : null
}

export interface PostOptions {
  timeoutMs: number
  maxAnswerBytes: number
  policy: OutgoingPolicy
  /** the resolver (default dns.lookup); called with `all: true` */
  lookup?: LookupFunction
  /** opens the connection instead of a fresh agent (tests); it must use the `lookup` of its options */
  createConnection?: http.RequestOptions['createConnection']
}

export interface PostOutcome {
  httpStatus: number | null
  error: string | null
  durationMs: number
}

const REFUSED_CODE = 'ERR_NOTIFY_REFUSED_ADDRESS'
/** the error an attempt to a refused address is recorded with */
export const REFUSED_ATTEMPT = `refused: ${REFUSED}`
const refusedError = (): Error => Object.assign(new Error(REFUSED_ATTEMPT), { code: REFUSED_CODE })

/** `lookup` with the refused addresses dropped, answering in the form it is asked (one address, or all) */
function guardedLookup(lookup: LookupFunction, policy: OutgoingPolicy): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '')
      const list = typeof addresses === 'string' ? [{ address: addresses, family: net.isIP(addresses) }] : addresses
      const allowed = list.filter((a) => addressRefusal(a.address, policy) === null)
      if (!allowed.length) return callback(refusedError(), '')
      if (options?.all) callback(null, allowed)
      else callback(null, allowed[0].address, allowed[0].family)
    })
  }
}

function describe(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { errors?: Error[] }
  // node's multi-address connect fails with an AggregateError whose own message is empty
  return err?.message || err?.errors?.map((x) => x.message).join('; ') || err?.code || String(e)
}

/** one POST of a notification; never throws */
export async function postNotification(
  url: string,
  body: string,
  headers: Record<string, string>,
  o: PostOptions,
): Promise<PostOutcome> {
  const started = performance.now()
  const done = (httpStatus: number | null, error: string | null): PostOutcome => ({
    httpStatus,
    error,
    durationMs: Math.round(performance.now() - started),
  })
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return done(null, 'not a URL')
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return done(null, 'only http(s) URLs are called')
  // node does not look literal addresses up: they are judged here, before anything
  const refusal = literalHostRefusal(url, o.policy)
  if (refusal) return done(null, `refused: ${refusal}`)
  const payload = Buffer.from(body)

  return new Promise<PostOutcome>((resolve) => {
    let settled = false
    let req: http.ClientRequest | undefined
    const finish = (httpStatus: number | null, error: string | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      req?.destroy()
      resolve(done(httpStatus, error))
    }
    const timer = setTimeout(() => finish(null, `no answer within ${o.timeoutMs} ms`), o.timeoutMs)
    try {
      req = (target.protocol === 'https:' ? https : http).request(target, {
        method: 'POST',
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': payload.length,
          Connection: 'close',
        },
        lookup: guardedLookup(o.lookup ?? (dns.lookup as LookupFunction), o.policy),
        // a fresh agent (no connection reused), or none when the connection is made by createConnection
        ...(o.createConnection ? { createConnection: o.createConnection } : { agent: false }),
      })
    } catch (e) {
      return finish(null, `could not connect: ${describe(e)}`)
    }
    // the last guard: the address actually connected to, before any byte is written
    req.on('socket', (socket) => {
      const check = () => {
        if (addressRefusal((socket as net.Socket).remoteAddress ?? '', o.policy)) socket.destroy(refusedError())
      }
      if ((socket as net.Socket).connecting) socket.prependOnceListener('connect', check)
      else check()
    })
    req.on('error', (e: NodeJS.ErrnoException) =>
      finish(null, e?.code === REFUSED_CODE ? REFUSED_ATTEMPT : `could not connect: ${describe(e)}`),
    )
    req.on('response', (res) => {
      const status = res.statusCode ?? null
      const answered = () =>
        finish(status, status !== null && status >= 300 && status < 400 ? 'redirects are not followed' : null)
      // read (and drop) at most maxAnswerBytes of the answer, then stop
      let read = 0
      res.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read >= o.maxAnswerBytes) answered()
      })
      res.on('end', answered)
      // an answer cut short by the receiver still counts by its status
      res.on('error', answered)
      res.on('aborted', answered)
    })
    req.end(payload)
  })
}
