// Outgoing requests for merchant notifications (webhooks): http(s) only, no redirects followed, one
// timeout over connect and answer, the answer read up to a limit, and never to an address inside the
// service's own networks. Refused: loopback, private (RFC 1918, fc00::/7), link-local (incl.
// 169.254.169.254), shared (100.64.0.0/10), unspecified, multicast, broadcast and reserved
// (240.0.0.0/4), the other non-global IPv4 blocks 192.0.0.0/24 and 198.18.0.0/15, IPv6 site-local
// (fec0::/10), and the IPv6 forms that carry an IPv4 address:
// - IPv4-mapped (::ffff:a.b.c.d) is that IPv4 address: judged, and matched against the allow-list,
//   exactly as a.b.c.d;
// - IPv4-compatible (::a.b.c.d, deprecated, incl. :: and ::1), local-use NAT64 (64:ff9b:1::/48) and
//   Teredo (2001::/32) are refused whole;
// - NAT64 (64:ff9b::/96) and 6to4 (2002::/16) are refused when the IPv4 address they carry is.
// Every refusal reads 'private address', so the merchant-visible log never tells which class answered.
// NOTIFY_ALLOW_NETWORKS (comma-separated CIDRs, default none) allows listed networks even so, e.g.
// `127.0.0.0/8` for a receiver on the developer's machine. The check is made on the addresses a name
// resolves to (before connecting; refused ones are dropped) and again on the socket's remote address
// at connect, before a byte is sent, so a name cannot rebind between the check and the connection.
import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import net, { type LookupFunction } from 'node:net'

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
  const all = tail === undefined ? groups(head) : [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)]
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
const REFUSED_V4 = networks([
  '0.0.0.0/8', // unspecified, "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared (carrier-grade NAT)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, incl. the cloud metadata address 169.254.169.254
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments (not global)
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking (not global, sometimes used inside networks)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, incl. broadcast 255.255.255.255
])
const REFUSED_V6 = networks([
  '::/96', // IPv4-compatible (deprecated), incl. unspecified :: and loopback ::1
  '64:ff9b:1::/48', // local-use NAT64
  '2001::/32', // Teredo (a tunnel to an IPv4 address)
  'fc00::/7', // unique local (private)
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
])
const NAT64 = parseNetwork('64:ff9b::/96')!
const SIX_TO_FOUR = parseNetwork('2002::/16')!

/** the IPv4 address a NAT64 or 6to4 address leads to */
function carriedV4(a: Address): Address | null {
  if (inNetwork(a, NAT64)) return { family: 4, value: a.value & V4_BITS }
  if (inNetwork(a, SIX_TO_FOUR)) return { family: 4, value: (a.value >> 80n) & V4_BITS }
  return null
}

/** the policy of NOTIFY_ALLOW_NETWORKS; throws on an entry that is not a CIDR network */
export function outgoingPolicy(env: NodeJS.ProcessEnv = process.env): OutgoingPolicy {
  const entries = (env.NOTIFY_ALLOW_NETWORKS ?? '').split(',').map((e) => e.trim()).filter(Boolean)
  return {
    allow: entries.map((entry) => {
      const n = parseNetwork(entry)
      if (!n) throw new Error(`NOTIFY_ALLOW_NETWORKS: "${entry}" is not a network in CIDR notation (like 127.0.0.0/8 or ::1/128)`)
      return n
    }),
  }
}

/** null when the IP address may be connected to, else the reason ('private address'; also for what is not an IP) */
export function addressRefusal(address: string, policy: OutgoingPolicy): string | null {
  const raw = parseAddress(address)
  if (!raw) return REFUSED
  const a = unmapped(raw)
  if (policy.allow.some((n) => inNetwork(a, n))) return null
  if (a.family === 4) return REFUSED_V4.some((n) => inNetwork(a, n)) ? REFUSED : null
  if (REFUSED_V6.some((n) => inNetwork(a, n))) return REFUSED
  const v4 = carriedV4(a)
  return v4 && REFUSED_V4.some((n) => inNetwork(v4, n)) ? REFUSED : null
}

/** the refusal of a URL whose host is an IP literal (in any form the WHATWG parser reads), else null (names are checked at connect; a non-URL is not this check's business) */
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
const refusedError = (): Error => Object.assign(new Error(`refused: ${REFUSED}`), { code: REFUSED_CODE })

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
export async function postNotification(url: string, body: string, headers: Record<string, string>, o: PostOptions): Promise<PostOutcome> {
  const started = performance.now()
  const done = (httpStatus: number | null, error: string | null): PostOutcome => ({ httpStatus, error, durationMs: Math.round(performance.now() - started) })
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
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': payload.length, Connection: 'close' },
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
    req.on('error', (e: NodeJS.ErrnoException) => finish(null, e?.code === REFUSED_CODE ? `refused: ${REFUSED}` : `could not connect: ${describe(e)}`))
    req.on('response', (res) => {
      const status = res.statusCode ?? null
      const answered = () => finish(status, status !== null && status >= 300 && status < 400 ? 'redirects are not followed' : null)
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
