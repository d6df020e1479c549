// The outgoing-request policy of notification deliveries: which addresses are refused (every class,
// IPv4-mapped forms, the rest of IANA's special-purpose registries, the allow-list), literal hosts in URLs, and
// postNotification against loopback
// receivers only. No test connects outside 127.0.0.0/8: names resolve through stub lookups, and the
// connections go through a guard that refuses (and records) any address outside loopback, so even a
// broken policy cannot reach another host.
import assert from 'node:assert/strict'
import { once } from 'node:events'
import http from 'node:http'
import net, { type LookupFunction } from 'node:net'
import { test } from 'node:test'
import {
  addressRefusal,
  isLoopbackUrl,
  literalHostRefusal,
  outgoingPolicy,
  LOOPBACK_NETWORKS,
  policyInWords,
  postNotification,
  receiversOnThisMachine,
  type PostOptions,
} from '../../lib/notifications/outgoing-policy.ts'

/**
 * the policy of NOTIFY_ALLOW_NETWORKS = `networks` (unset when undefined), on a service whose public base URL is local
 * (http://localhost:3000, as `npm start` on a developer's machine): the setting alone decides
 */
const policyOf = (networks?: string) => outgoingPolicy({ NODE_ENV: 'test', NOTIFY_ALLOW_NETWORKS: networks })
const none = policyOf()
const loopbackAllowed = policyOf('127.0.0.0/8')

test('every refused class answers the same "private address"; public addresses pass', () => {
  const refused = [
    '127.0.0.1',
    '127.255.255.254',
    '::1', // loopback
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    'fc00::1',
    'fd12:3456::1', // private
    '169.254.169.254',
    '169.254.0.1',
    'fe80::1',
    'fe80::1%eth0', // link-local (incl. cloud metadata)
    '100.64.0.1',
    '100.127.255.255', // shared
    '0.0.0.0',
    '0.1.2.3',
    '::', // unspecified
    '224.0.0.1',
    '239.255.255.250',
    'ff02::1',
    'ff05::1:3', // multicast
    '255.255.255.255',
    '240.0.0.1', // broadcast, reserved
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:0001',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '::ffff:0.0.0.0', // IPv4-mapped
    '::127.0.0.1',
    '::a00:1',
    '::808:808', // IPv4-compatible (deprecated): refused whole
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::808:808', // NAT64 of refused, local-use NAT64
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::',
    '2002:808:808::1', // 6to4, whatever it carries
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '192.0.0.170',
    '198.18.0.1',
    'fec0::1', // other non-global
  ]
  for (const a of refused) assert.equal(addressRefusal(a, none), 'private address', a)
  for (const a of [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '223.255.255.255',
    '2001:4860::8888',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])
    assert.equal(addressRefusal(a, none), null, a)
  for (const notAnIp of ['', 'localhost', 'example.com', '1.2.3', '010.0.0.1', '256.0.0.1', '[::1]', '::g'])
    assert.equal(addressRefusal(notAnIp, none), 'private address', notAnIp)
})

// Issue 26: the rest of IANA's special-purpose registries. Each block: addresses inside it (its edges),
// addresses just outside it that pass, and neighbours refused for another reason (IPv6 outside 2000::/3
// is refused whole, and so is all of 2001::/23).
const SPECIAL: Array<[block: string, inside: string[], outsidePasses: string[], neighboursRefused?: string[]]> = [
  ['192.0.2.0/24 documentation', ['192.0.2.0', '192.0.2.1', '192.0.2.255'], ['192.0.1.255', '192.0.3.0']],
  [
    '198.51.100.0/24 documentation',
    ['198.51.100.0', '198.51.100.1', '198.51.100.255'],
    ['198.51.99.255', '198.51.101.0'],
  ],
  ['203.0.113.0/24 documentation', ['203.0.113.0', '203.0.113.7', '203.0.113.255'], ['203.0.112.255', '203.0.114.0']],
  ['198.18.0.0/15 benchmarking', ['198.18.0.0', '198.19.255.255'], ['198.17.255.255', '198.20.0.0']],
  [
    '192.88.99.0/24 deprecated 6to4 relay anycast, 6a44',
    ['192.88.99.0', '192.88.99.1', '192.88.99.2', '192.88.99.255'],
    ['192.88.98.255', '192.88.100.0'],
  ],
  [
    '192.0.0.0/24 IETF protocol assignments, whole (PCP .9 and TURN .10 anycast included)',
    ['192.0.0.0', '192.0.0.7', '192.0.0.8', '192.0.0.9', '192.0.0.10', '192.0.0.170', '192.0.0.171', '192.0.0.255'],
    ['191.255.255.255', '192.0.1.0'],
  ],
  [
    '192.31.196.0/24 AS112 anycast',
    ['192.31.196.0', '192.31.196.1', '192.31.196.255'],
    ['192.31.195.255', '192.31.197.0'],
  ],
  [
    '192.52.193.0/24 AMT relay anycast',
    ['192.52.193.0', '192.52.193.1', '192.52.193.255'],
    ['192.52.192.255', '192.52.194.0'],
  ],
  [
    '192.175.48.0/24 AS112 direct delegation',
    ['192.175.48.0', '192.175.48.6', '192.175.48.255'],
    ['192.175.47.255', '192.175.49.0'],
  ],
  ['0.0.0.0/8 this network', ['0.0.0.0', '0.255.255.255'], ['1.0.0.0']],
  [
    '::ffff:0:0/96 IPv4-mapped: as its IPv4 address',
    [
      '::ffff:192.0.2.1',
      '::ffff:c633:6401',
      '::ffff:203.0.113.7',
      '::ffff:192.88.99.1',
      '::ffff:192.0.0.9',
      '::ffff:192.175.48.1',
    ],
    ['::ffff:192.0.3.0', '::ffff:8.8.8.8', '0:0:0:0:0:ffff:808:808'],
  ],
  [
    '::ffff:0:0:0/96 IPv4-translated, whatever it carries',
    ['::ffff:0:0:0', '::ffff:0:7f00:1', '::ffff:0:8.8.8.8', '0:0:0:0:ffff:0:ffff:ffff', '::ffff:0:1.1.1.1'],
    ['::ffff:8.8.8.8'],
    ['::fffe:ffff:ffff:ffff', '::ffff:1:0:0'],
  ],
  [
    '100::/64 discard-only',
    ['100::', '100::1', '100::ffff:ffff:ffff:ffff'],
    [],
    ['ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '100:0:0:1::', '100:0:0:1::1' /* the dummy prefix */, '100:0:0:2::'],
  ],
  [
    '5f00::/16 SRv6 SIDs',
    ['5f00::', '5f00::1', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    [],
    ['5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '5f01::'],
  ],
  [
    'outside 2000::/3 (IETF reserved)',
    ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '4000::', '4000::1', '8000::1', 'e000::1', '1::1', '::1:0:0:0'],
    ['2000::1', '3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ],
  [
    '2001::/23 IETF protocol assignments, whole',
    [
      '2001::',
      '2001:0:4136:e378::1',
      '2001:1::1',
      '2001:1::2',
      '2001:1::3',
      '2001:1::4',
      '2001:3::1',
      '2001:4:112::1',
      '2001:5::1',
      '2001:20::1',
      '2001:30::1',
      '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff',
    ],
    ['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:200::', '2001:200::1'],
  ],
  [
    '2001:2::/48 benchmarking',
    ['2001:2::', '2001:2::1', '2001:2:0:ffff:ffff:ffff:ffff:ffff'],
    [],
    ['2001:1:ffff:ffff:ffff:ffff:ffff:ffff', '2001:2:1::'],
  ],
  [
    '2001:10::/28 deprecated ORCHID',
    ['2001:10::', '2001:10::1', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff'],
    [],
    ['2001:f:ffff:ffff:ffff:ffff:ffff:ffff', '2001:20::' /* ORCHIDv2 */],
  ],
  [
    '2001:db8::/32 documentation',
    ['2001:db8::', '2001:db8::1', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::'],
  ],
  [
    '3fff::/20 documentation',
    ['3fff::', '3fff::1', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '3fff:1000::'],
  ],
  [
    '2002::/16 6to4, whatever it carries',
    ['2002::', '2002:808:808::1', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2003::'],
  ],
  [
    '2620:4f:8000::/48 AS112 direct delegation',
    ['2620:4f:8000::', '2620:4f:8000::1', '2620:4f:8000:ffff:ffff:ffff:ffff:ffff'],
    ['2620:4f:7fff:ffff:ffff:ffff:ffff:ffff', '2620:4f:8001::'],
  ],
  [
    '64:ff9b::/96 NAT64: by the IPv4 address it carries',
    [
      '64:ff9b::192.0.2.1',
      '64:ff9b::c633:6401',
      '64:ff9b::203.0.113.7',
      '64:ff9b::192.88.99.1',
      '64:ff9b::192.31.196.1',
      '64:ff9b::192.0.0.9',
    ],
    ['64:ff9b::192.0.3.0', '64:ff9b::8.8.8.8'],
    ['64:ff9b::1:808:808', '64:ff9b:1::808:808'],
  ],
]

test('the rest of the special-purpose registries: each block refused up to its edges, its neighbours judged on their own', () => {
  for (const [block, inside, outsidePasses, neighboursRefused = []] of SPECIAL) {
    for (const a of inside) assert.equal(addressRefusal(a, none), 'private address', `${a} inside ${block}`)
    for (const a of outsidePasses) assert.equal(addressRefusal(a, none), null, `${a} just outside ${block}`)
    for (const a of neighboursRefused) assert.equal(addressRefusal(a, none), 'private address', `${a} next to ${block}`)
  }
})

test('NOTIFY_ALLOW_NETWORKS opens the newly refused blocks too, and only what it names', () => {
  const p = policyOf('192.0.2.0/24, 2001:db8::/32, 100::/64, ::ffff:0:0:0/96, 2002::/16, 2001:2::/48')
  for (const a of [
    '192.0.2.7',
    '::ffff:192.0.2.7',
    '2001:db8::7',
    '100::7',
    '::ffff:0:7f00:1',
    '::ffff:0:8.8.8.8',
    '2002:808:808::1',
    '2001:2::7',
  ])
    assert.equal(addressRefusal(a, p), null, a)
  for (const a of ['192.0.3.0' /* public anyway */, '2001:db9::']) assert.equal(addressRefusal(a, p), null, a)
  for (const a of [
    '198.51.100.7',
    '203.0.113.7',
    '100:0:0:1::1',
    '3fff::1',
    '2001:2:1::',
    '2001:1::1',
    '::ffff:1:0:0',
    '127.0.0.1',
  ])
    assert.equal(addressRefusal(a, p), 'private address', a)
})

test('the allow-list opens its networks, IPv4-mapped forms included, and nothing else', () => {
  assert.equal(addressRefusal('127.0.0.1', loopbackAllowed), null)
  assert.equal(addressRefusal('127.3.4.5', loopbackAllowed), null)
  assert.equal(addressRefusal('::ffff:127.0.0.1', loopbackAllowed), null)
  assert.equal(addressRefusal('::ffff:7f00:1', loopbackAllowed), null)
  assert.equal(addressRefusal('10.0.0.1', loopbackAllowed), 'private address')
  assert.equal(addressRefusal('::1', loopbackAllowed), 'private address')
  // IPv4-compatible is not the IPv4 address
  assert.equal(addressRefusal('::127.0.0.1', loopbackAllowed), 'private address')
  assert.equal(addressRefusal('8.8.8.8', loopbackAllowed), null)

  const several = policyOf(' ::1/128 , 10.1.0.0/16,, fd00::/8 , ::ffff:192.168.0.0/112 ')
  assert.equal(addressRefusal('::1', several), null)
  assert.equal(addressRefusal('0:0:0:0:0:0:0:1', several), null)
  assert.equal(addressRefusal('10.1.200.3', several), null)
  assert.equal(addressRefusal('::ffff:10.1.0.1', several), null)
  assert.equal(addressRefusal('10.2.0.1', several), 'private address')
  assert.equal(addressRefusal('fd00::5', several), null)
  assert.equal(addressRefusal('fc00::5', several), 'private address')
  assert.equal(addressRefusal('192.168.7.7', several), null) // a mapped network is the IPv4 network
  assert.equal(addressRefusal('192.169.0.1', several), null) // public anyway
  assert.equal(addressRefusal('127.0.0.1', several), 'private address')

  assert.equal(addressRefusal('127.0.0.1', policyOf('127.0.0.1')), null) // a bare address is its own network
  assert.equal(addressRefusal('127.0.0.2', policyOf('127.0.0.1')), 'private address')
  assert.deepEqual(policyOf('').allow, [])
  assert.deepEqual(policyOf(' , ').allow, [])
})

test('a malformed NOTIFY_ALLOW_NETWORKS throws, naming the setting', () => {
  for (const bad of [
    '127.0.0.0/33',
    '::1/129',
    'localhost',
    '127.0.0/8',
    '127.0.0.0/8/8',
    '127.0.0.0/-1',
    '127.0.0.0/x',
    '10.0.0.0/8;127.0.0.0/8',
    'fe80::/10%eth0',
    '0x7f.0.0.1/8',
  ])
    assert.throws(() => policyOf(`10.0.0.0/8,${bad}`), /NOTIFY_ALLOW_NETWORKS/, bad)
})

test('literalHostRefusal: literal refused hosts in every form the URL parser reads; names and public addresses pass', () => {
  const refused = [
    'http://127.0.0.1:5432/',
    'http://169.254.169.254/latest',
    'http://10.0.0.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://127.1/',
    'http://127.0.0.1./',
    'https://[::1]:8443/x',
    'http://[::]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[0:0:0:0:0:ffff:a9fe:a9fe]/',
    'http://user:pw@192.168.0.1/',
    'HTTP://0251.0376.0251.0376/', // 169.254.169.254 in octal
    'http://192.0.2.1/',
    'http://3325256705/',
    'https://203.0.113.7:8443/',
    'http://[2001:db8::1]/',
    'http://[3fff::1]/',
    'http://[100::1]/',
    'http://[5f00::1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[::ffff:0:808:808]/',
    'http://[2002:808:808::1]/',
    'http://[2001:1::1]/',
    'http://192.0.0.9/',
    'http://[2620:4f:8000::1]/',
    'http://[64:ff9b::c000:201]/',
  ]
  for (const url of refused) assert.equal(literalHostRefusal(url, none), 'private address', url)
  for (const url of [
    'http://example.com/',
    'http://localhost/',
    'https://8.8.8.8/',
    'http://[2001:4860::8888]/',
    'http://192.0.3.1/',
    'http://[::ffff:808:808]/',
    'http://[64:ff9b::808:808]/',
    'not a url',
  ])
    assert.equal(literalHostRefusal(url, none), null, url)
  assert.equal(literalHostRefusal('http://2130706433/', loopbackAllowed), null)
  assert.equal(literalHostRefusal('http://[::ffff:7f00:1]/', loopbackAllowed), null)
  assert.equal(literalHostRefusal('http://10.0.0.1/', loopbackAllowed), 'private address')
})

// --- postNotification, against loopback only ---

/** the test's own judgement, independent of the code under test: 127.0.0.0/8 or ::1 */
const isLoopback = (a: string) =>
  (net.isIPv4(a) && a.startsWith('127.')) || a === '::1' || (net.isIPv6(a) && /^::ffff:127\.\d+\.\d+\.\d+$/i.test(a))

/** a lookup that knows only its table (never real DNS), answering in both of node's forms */
function stubLookup(table: Record<string, string[]>) {
  const asked: string[] = []
  const lookup: LookupFunction = (hostname, options, callback) => {
    asked.push(hostname)
    process.nextTick(() => {
      const list = table[hostname]
      if (!list)
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '')
      const entries = list.map((address) => ({ address, family: net.isIP(address) }))
      if (options?.all) callback(null, entries)
      else callback(null, entries[0].address, entries[0].family)
    })
  }
  return { lookup, asked }
}

/** a createConnection that records what is connected and refuses (as a test failure) anything outside loopback */
function guardedConnections() {
  const hosts: string[] = []
  const forms: string[] = []
  const connected: string[] = []
  const violations: string[] = []
  const createConnection: PostOptions['createConnection'] = (opts) => {
    const host = String(opts.host)
    hosts.push(host)
    if (net.isIP(host) && !isLoopback(host)) {
      violations.push(host)
      throw new Error('test guard: not loopback')
    }
    const given = opts.lookup
    if (!given) {
      violations.push(`no lookup for ${host}`)
      throw new Error('test guard: no lookup')
    }
    const lookup: LookupFunction = (name, lo, cb) => {
      forms.push(lo?.all ? 'all' : 'one')
      given(name, lo, (err, address, family) => {
        if (err) return cb(err, '')
        const outside = (typeof address === 'string' ? [address] : address.map((a) => a.address)).filter(
          (a) => !isLoopback(a),
        )
        if (outside.length) {
          violations.push(...outside)
          return cb(new Error('test guard: not loopback'), '')
        }
        cb(null, address, family)
      })
    }
    const socket = net.createConnection({ host, port: Number(opts.port), lookup })
    socket.on('connect', () => connected.push(String(socket.remoteAddress)))
    return socket
  }
  return { createConnection, hosts, forms, connected, violations }
}

interface Received {
  method?: string
  url?: string
  headers: http.IncomingHttpHeaders
  body: string
}

/** an http server on 127.0.0.1 that records each request and answers with `answer` once it is read */
async function receiver(answer: (res: http.ServerResponse) => void = (res) => res.end('ok')) {
  const requests: Received[] = []
  const arrived: Array<() => void> = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (body += c))
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers, body })
      arrived.splice(0).forEach((f) => f())
      answer(res)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    port: (server.address() as net.AddressInfo).port,
    requests,
    /** resolves when a request has been read */
    arrival: () => new Promise<void>((r) => (requests.length ? r() : arrived.push(r))),
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((r) => server.close(() => r()))
    },
  }
}

const body = '{"payment":{"paymentId":"p-1","amount":{"value":60.50}},"type":"PAYMENT","version":"1"}'
const headers = { Signature: 'abc123', 'User-Agent': 'payin-sandbox-notifications/1', 'Payin-Signature': 't=1,v1=ff' }
const base = { timeoutMs: 5000, maxAnswerBytes: 64 * 1024 }

test('(a) a name resolving to 10.0.0.1: refused, nothing connected', async () => {
  const dns = stubLookup({ 'internal.test': ['10.0.0.1'] })
  const g = guardedConnections()
  const o = await postNotification('http://internal.test/hook', body, headers, {
    ...base,
    policy: none,
    lookup: dns.lookup,
    createConnection: g.createConnection,
  })
  assert.equal(o.error, 'refused: private address')
  assert.equal(o.httpStatus, null)
  assert.deepEqual(dns.asked, ['internal.test'])
  assert.deepEqual(g.connected, [])
  assert.deepEqual(g.violations, [])
  // even with 127.0.0.0/8 allowed, 10.0.0.1 is not
  const again = await postNotification('http://internal.test/hook', body, headers, {
    ...base,
    policy: loopbackAllowed,
    lookup: dns.lookup,
    createConnection: g.createConnection,
  })
  assert.equal(again.error, 'refused: private address')
  assert.deepEqual(g.connected, [])
  assert.deepEqual(g.violations, [])
})

test('(b) a name resolving to 127.0.0.1 without the allow-list: refused, nothing connected', async () => {
  const r = await receiver()
  try {
    const dns = stubLookup({
      'receiver.test': ['127.0.0.1'],
      'metadata.test': ['169.254.169.254', 'fe80::1', '::ffff:10.0.0.1'],
    })
    const g = guardedConnections()
    for (const url of [
      `http://receiver.test:${r.port}/hook`,
      'http://metadata.test/latest',
      `https://receiver.test:${r.port}/`,
    ]) {
      const o = await postNotification(url, body, headers, {
        ...base,
        policy: none,
        lookup: dns.lookup,
        createConnection: g.createConnection,
      })
      assert.equal(o.error, 'refused: private address', url)
    }
    assert.deepEqual(g.connected, [])
    assert.deepEqual(g.violations, [])
    assert.equal(r.requests.length, 0)
  } finally {
    await r.close()
  }
})

test('(b2) a name resolving to the newly refused blocks: refused, nothing connected; beside loopback, only loopback is connected', async () => {
  const r = await receiver()
  try {
    const special = [
      '192.0.2.10',
      '198.51.100.10',
      '203.0.113.10',
      '192.88.99.1',
      '192.0.0.9',
      '192.31.196.1',
      '2001:db8::10',
      '3fff::10',
      '100::1',
      '5f00::1',
      '::ffff:0:7f00:1',
      '::ffff:0:808:808',
      '2002:808:808::1',
      '2001:1::1',
      '2001:20::1',
      '2620:4f:8000::1',
      '64:ff9b::c000:20a',
    ]
    const dns = stubLookup({ 'special.test': special, 'beside.test': [...special, '127.0.0.1'] })
    const g = guardedConnections()
    for (const policy of [none, loopbackAllowed]) {
      const o = await postNotification(`http://special.test:${r.port}/hook`, body, headers, {
        ...base,
        policy,
        lookup: dns.lookup,
        createConnection: g.createConnection,
      })
      assert.deepEqual([o.httpStatus, o.error], [null, 'refused: private address'])
    }
    assert.deepEqual(g.connected, [])
    assert.deepEqual(g.violations, [])
    const beside = await postNotification(`http://beside.test:${r.port}/hook`, body, headers, {
      ...base,
      policy: loopbackAllowed,
      lookup: dns.lookup,
      createConnection: g.createConnection,
    })
    assert.deepEqual([beside.httpStatus, beside.error], [200, null])
    assert.deepEqual(g.connected, ['127.0.0.1'])
    assert.deepEqual(g.violations, [])
    assert.equal(r.requests.length, 1)
  } finally {
    await r.close()
  }
})

test('(c) with 127.0.0.0/8 allowed, a name resolving to 127.0.0.1 gets the POST with its body and headers; 200 is delivered', async () => {
  const r = await receiver((res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('thanks'))
  try {
    const dns = stubLookup({ 'receiver.test': ['127.0.0.1'] })
    const g = guardedConnections()
    const o = await postNotification(`http://receiver.test:${r.port}/hook?site=1`, body, headers, {
      ...base,
      policy: loopbackAllowed,
      lookup: dns.lookup,
      createConnection: g.createConnection,
    })
    assert.deepEqual([o.httpStatus, o.error], [200, null])
    assert.ok(o.durationMs >= 0)
    assert.deepEqual(g.connected, ['127.0.0.1'])
    assert.deepEqual(g.violations, [])
    assert.equal(r.requests.length, 1)
    const got = r.requests[0]
    assert.equal(got.method, 'POST')
    assert.equal(got.url, '/hook?site=1')
    assert.equal(got.body, body)
    assert.equal(got.headers['content-type'], 'application/json')
    assert.equal(got.headers['content-length'], String(Buffer.byteLength(body)))
    assert.equal(got.headers.connection, 'close')
    assert.equal(got.headers.host, `receiver.test:${r.port}`)
    assert.equal(got.headers.signature, 'abc123')
    assert.equal(got.headers['payin-signature'], 't=1,v1=ff')
    assert.equal(got.headers['user-agent'], 'payin-sandbox-notifications/1')

    // the same through the default connection (a fresh agent). The name is `localhost`, so that even
    // an agent that skipped the stub would only reach loopback; `asked` shows the stub answered.
    const local = stubLookup({ localhost: ['127.0.0.1'] })
    const plain = await postNotification(`http://localhost:${r.port}/hook`, body, headers, {
      ...base,
      policy: loopbackAllowed,
      lookup: local.lookup,
    })
    assert.deepEqual([plain.httpStatus, plain.error], [200, null])
    assert.deepEqual(local.asked, ['localhost'])
    assert.equal(r.requests.length, 2)
    assert.equal(r.requests[1].body, body)
  } finally {
    await r.close()
  }
})

test('the default https and http agents resolve through the guarded lookup', async () => {
  const r = await receiver()
  try {
    for (const scheme of ['https', 'http']) {
      // `localhost`, so that an agent that skipped the stub would only reach loopback (and the last guard)
      const local = stubLookup({ localhost: ['127.0.0.1'] })
      const o = await postNotification(`${scheme}://localhost:${r.port}/`, body, headers, {
        ...base,
        policy: none,
        lookup: local.lookup,
      })
      assert.deepEqual([o.httpStatus, o.error], [null, 'refused: private address'], scheme)
      assert.deepEqual(local.asked, ['localhost'], scheme)
    }
    assert.equal(r.requests.length, 0)
  } finally {
    await r.close()
  }
})

test("(d) a mixed answer [10.0.0.1, 127.0.0.1] connects only to 127.0.0.1, in both of node's lookup forms", async () => {
  const r = await receiver()
  const autoSelect = net.getDefaultAutoSelectFamily()
  try {
    const dns = stubLookup({ 'mixed.test': ['10.0.0.1', '127.0.0.1'] })
    for (const auto of [true, false]) {
      net.setDefaultAutoSelectFamily(auto)
      const g = guardedConnections()
      const o = await postNotification(`http://mixed.test:${r.port}/`, body, headers, {
        ...base,
        policy: loopbackAllowed,
        lookup: dns.lookup,
        createConnection: g.createConnection,
      })
      assert.deepEqual([o.httpStatus, o.error], [200, null], `autoSelectFamily ${auto}`)
      assert.deepEqual(g.forms, [auto ? 'all' : 'one'])
      assert.deepEqual(g.connected, ['127.0.0.1'])
      assert.deepEqual(g.violations, [])
    }
    assert.equal(r.requests.length, 2)
  } finally {
    net.setDefaultAutoSelectFamily(autoSelect)
    await r.close()
  }
})

test('(e) a redirect is not followed', async () => {
  const r = await receiver((res) => res.writeHead(302, { Location: 'http://10.0.0.1/elsewhere' }).end())
  try {
    const dns = stubLookup({ 'receiver.test': ['127.0.0.1'] })
    const g = guardedConnections()
    const o = await postNotification(`http://receiver.test:${r.port}/`, body, headers, {
      ...base,
      policy: loopbackAllowed,
      lookup: dns.lookup,
      createConnection: g.createConnection,
    })
    assert.deepEqual([o.httpStatus, o.error], [302, 'redirects are not followed'])
    assert.deepEqual(g.hosts, ['receiver.test'])
    assert.deepEqual(dns.asked, ['receiver.test'])
    assert.deepEqual(g.violations, [])
    assert.equal(r.requests.length, 1)
  } finally {
    await r.close()
  }
})

test('(f) a receiver that never answers: the timeout', async () => {
  const r = await receiver(() => {}) // reads the request, never answers
  try {
    const dns = stubLookup({ 'receiver.test': ['127.0.0.1'] })
    const g = guardedConnections()
    const o = await postNotification(`http://receiver.test:${r.port}/`, body, headers, {
      ...base,
      timeoutMs: 300,
      policy: loopbackAllowed,
      lookup: dns.lookup,
      createConnection: g.createConnection,
    })
    assert.deepEqual([o.httpStatus, o.error], [null, 'no answer within 300 ms'])
    assert.ok(o.durationMs >= 290, String(o.durationMs))
    assert.equal(r.requests.length, 1)
  } finally {
    await r.close()
  }
})

test('(g) an endless answer is read up to the limit, then dropped (no hang)', async () => {
  let written = 0
  const r = await receiver((res) => {
    res.on('error', () => {})
    res.writeHead(200)
    const chunk = Buffer.alloc(16 * 1024, 'x')
    const pump = () => {
      while (!res.destroyed) {
        written += chunk.length
        if (!res.write(chunk)) return
      }
    }
    res.on('drain', pump)
    pump()
  })
  try {
    const dns = stubLookup({ 'receiver.test': ['127.0.0.1'] })
    const o = await postNotification(`http://receiver.test:${r.port}/`, body, headers, {
      timeoutMs: 20_000,
      maxAnswerBytes: 100_000,
      policy: loopbackAllowed,
      lookup: dns.lookup,
    })
    assert.deepEqual([o.httpStatus, o.error], [200, null])
    assert.ok(written >= 100_000, String(written)) // more was written than the limit; the answer was cut
  } finally {
    await r.close()
  }
})

test('(h) a literal 127.0.0.1 (or other refused literal) without the allow-list: refused before any lookup or connection', async () => {
  const dns = stubLookup({})
  const g = guardedConnections()
  for (const url of [
    'http://127.0.0.1:5432/',
    'http://2130706433/',
    'http://[::ffff:127.0.0.1]/',
    'https://169.254.169.254/latest',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://192.0.2.1/',
    'http://[2001:db8::1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[100::1]/',
  ]) {
    const o = await postNotification(url, body, headers, {
      ...base,
      policy: none,
      lookup: dns.lookup,
      createConnection: g.createConnection,
    })
    assert.deepEqual([o.httpStatus, o.error], [null, 'refused: private address'], url)
  }
  assert.deepEqual(dns.asked, [])
  assert.deepEqual(g.hosts, [])
})

test('the last guard: a connection that lands on a refused address is closed before a byte is sent', async () => {
  const received: Buffer[] = []
  const closed: Array<Promise<unknown>> = []
  const raw = net.createServer((socket) => {
    socket.on('data', (d) => received.push(Buffer.from(d)))
    socket.on('error', () => {})
    closed.push(once(socket, 'close'))
  })
  raw.listen(0, '127.0.0.1')
  await once(raw, 'listening')
  const port = (raw.address() as net.AddressInfo).port
  const accepted = once(raw, 'connection')
  try {
    // a connection made past the resolver (as a rebinding name would land): straight to 127.0.0.1
    const createConnection: PostOptions['createConnection'] = () => net.createConnection({ host: '127.0.0.1', port })
    const o = await postNotification(`http://receiver.test:${port}/`, body, headers, {
      ...base,
      policy: none,
      lookup: stubLookup({}).lookup,
      createConnection,
    })
    assert.deepEqual([o.httpStatus, o.error], [null, 'refused: private address'])
    await accepted
    await Promise.all(closed)
    assert.equal(Buffer.concat(received).length, 0)
  } finally {
    await new Promise<void>((r) => raw.close(() => r()))
  }
})

test('only http(s); connection errors are told without the body', async () => {
  const dns = stubLookup({ 'receiver.test': ['127.0.0.1'] })
  for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'gopher://127.0.0.1/', 'javascript:alert(1)'])
    assert.equal(
      (await postNotification(url, body, headers, { ...base, policy: none, lookup: dns.lookup })).error,
      'only http(s) URLs are called',
      url,
    )
  assert.equal((await postNotification('not a url', body, headers, { ...base, policy: none })).error, 'not a URL')

  // a port nothing listens on (taken, then released)
  const probe = net.createServer().listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const port = (probe.address() as net.AddressInfo).port
  await new Promise<void>((r) => probe.close(() => r()))
  const g = guardedConnections()
  const refused = await postNotification(`http://receiver.test:${port}/`, body, headers, {
    ...base,
    policy: loopbackAllowed,
    lookup: dns.lookup,
    createConnection: g.createConnection,
  })
  assert.equal(refused.httpStatus, null)
  assert.match(refused.error!, /^could not connect: .*ECONNREFUSED/)
  assert.doesNotMatch(refused.error!, /payment|60\.50/)

  const unknown = await postNotification('http://nowhere.test/', body, headers, {
    ...base,
    policy: loopbackAllowed,
    lookup: dns.lookup,
    createConnection: g.createConnection,
  })
  assert.equal(unknown.error, 'could not connect: getaddrinfo ENOTFOUND nowhere.test')
  assert.deepEqual(g.violations, [])
})

// The contract's default: NOTIFY_ALLOW_NETWORKS unset (or empty) allows nothing, loopback included, whatever the
// public base URL (a sandbox on a developer's machine too); set, it alone decides.
const withBase = (env: Record<string, string | undefined>) => outgoingPolicy({ NODE_ENV: 'test', ...env })
const LOCAL_BASES = [
  {},
  { PORT: '4000' },
  { PUBLIC_BASE_URL: 'http://localhost:3000' },
  { PUBLIC_BASE_URL: 'http://127.0.0.1:4999/' },
  { PUBLIC_BASE_URL: 'http://[::1]:3000' },
]

test('NOTIFY_ALLOW_NETWORKS unset or empty allows nothing, whatever the base URL; set, it alone decides', () => {
  for (const base of [...LOCAL_BASES, { PUBLIC_BASE_URL: 'https://payin.example' }])
    for (const setting of [{}, { NOTIFY_ALLOW_NETWORKS: '' }, { NOTIFY_ALLOW_NETWORKS: ' , ' }]) {
      const env = { ...base, ...setting }
      const p = withBase(env)
      assert.deepEqual(p, { allow: [] }, JSON.stringify(env))
      for (const a of ['127.0.0.1', '127.200.3.4', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])
        assert.equal(addressRefusal(a, p), 'private address', `${a} ${JSON.stringify(env)}`)
      for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]:3000/hook', 'http://2130706433/hook'])
        assert.equal(literalHostRefusal(url, p), 'private address', `${url} ${JSON.stringify(env)}`)
      assert.equal(addressRefusal('8.8.8.8', p), null)
    }
  // the refusal in words names the setting and the value that allows this machine's receivers
  assert.equal(
    policyInWords(withBase({}), {}),
    'receivers on this machine refused: NOTIFY_ALLOW_NETWORKS unset (the default) allows no private network ' +
      "(NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128 allows this machine's)",
  )
  assert.equal(
    policyInWords(withBase({ NOTIFY_ALLOW_NETWORKS: '' }), { NOTIFY_ALLOW_NETWORKS: '' }),
    'receivers on this machine refused: NOTIFY_ALLOW_NETWORKS= allows no private network',
  )
  const set = { NOTIFY_ALLOW_NETWORKS: LOOPBACK_NETWORKS }
  assert.equal(
    policyInWords(withBase(set), set),
    'receivers on this machine allowed: NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128 allows those networks',
  )
  assert.equal(addressRefusal('127.0.0.1', withBase({ NOTIFY_ALLOW_NETWORKS: '10.0.0.0/8' })), 'private address')
  assert.equal(addressRefusal('127.0.0.1', withBase({ NOTIFY_ALLOW_NETWORKS: '127.0.0.1' })), null)
  // a malformed one throws, on a local service too
  assert.throws(() => withBase({ NOTIFY_ALLOW_NETWORKS: 'localhost' }), /NOTIFY_ALLOW_NETWORKS/)
})

test('loopback networks allowed: loopback alone; private, link-local (metadata) and the rest stay refused', () => {
  const local = withBase({ NOTIFY_ALLOW_NETWORKS: LOOPBACK_NETWORKS })
  for (const a of ['127.0.0.1', '127.200.3.4', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1', '8.8.8.8'])
    assert.equal(addressRefusal(a, local), null, a)
  for (const a of [
    '10.0.0.1',
    '172.16.0.1',
    '192.168.1.20',
    '169.254.169.254',
    'fe80::1',
    'fc00::1',
    '100.64.0.1',
    '0.0.0.0',
    '::',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '::ffff:0:7f00:1',
    '64:ff9b::a00:1',
  ])
    assert.equal(addressRefusal(a, local), 'private address', a)
  assert.equal(literalHostRefusal('http://[::1]:3000/hook', local), null)
  assert.equal(literalHostRefusal('http://2130706433/hook', local), null)
  assert.equal(literalHostRefusal('http://169.254.169.254/latest', local), 'private address')
})

test("the start banner's line: refused by default, with the command that allows this machine's receivers", () => {
  const line = (env: Record<string, string | undefined>, start = 'npm start') =>
    receiversOnThisMachine(withBase(env), start, env)
  for (const env of LOCAL_BASES)
    assert.equal(
      line(env),
      'notification receivers on this machine: refused (NOTIFY_ALLOW_NETWORKS unset, the default); to receive them ' +
        'here (npm run webhooks -- listen), start with NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128 npm start',
      JSON.stringify(env),
    )
  assert.equal(
    line({ NOTIFY_ALLOW_NETWORKS: '' }, 'npm run dev'),
    'notification receivers on this machine: refused (NOTIFY_ALLOW_NETWORKS=, none); to receive them here ' +
      '(npm run webhooks -- listen), start with NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128 npm run dev',
  )
  // networks already allowed are kept in the command, written as a shell takes them
  assert.equal(
    line({ NOTIFY_ALLOW_NETWORKS: ' 10.0.0.0/8 , fd00::/8' }),
    'notification receivers on this machine: refused (NOTIFY_ALLOW_NETWORKS=10.0.0.0/8,fd00::/8); to receive them ' +
      'here (npm run webhooks -- listen), start with NOTIFY_ALLOW_NETWORKS=10.0.0.0/8,fd00::/8,127.0.0.0/8,::1/128 ' +
      'npm start',
  )
  // allowed: said so, with the listener
  for (const value of [LOOPBACK_NETWORKS, '127.0.0.1', '::1/128'])
    assert.equal(
      line({ NOTIFY_ALLOW_NETWORKS: value }),
      `notification receivers on this machine: allowed (NOTIFY_ALLOW_NETWORKS=${value}); ` +
        'npm run webhooks -- listen receives them here',
    )
  // a service with a public base URL: refused, and no advice to start it otherwise
  assert.equal(
    line({ PUBLIC_BASE_URL: 'https://payin.example' }),
    'notification receivers on this machine: refused (NOTIFY_ALLOW_NETWORKS unset, the default)',
  )
})

test('isLoopbackUrl: localhost and loopback literals, nothing else', () => {
  for (const u of [
    'http://localhost:3000',
    'http://LOCALHOST/x',
    'http://127.0.0.1',
    'http://[::1]:1',
    'http://0x7f.1/',
  ])
    assert.equal(isLoopbackUrl(u), true, u)
  for (const u of ['http://localhost.example', 'http://10.0.0.1', 'http://[::]', 'not a url', 'http://example.com'])
    assert.equal(isLoopbackUrl(u), false, u)
})

test('delivery: a name resolving to loopback is refused by default, called once allowed; 10.0.0.1 never', async () => {
  const r = await receiver()
  try {
    const dns = stubLookup({ 'shop.test': ['127.0.0.1'], 'inside.test': ['10.0.0.1'] })
    const g = guardedConnections()
    const post = (url: string, policy: ReturnType<typeof outgoingPolicy>) =>
      postNotification(url, body, headers, {
        ...base,
        policy,
        lookup: dns.lookup,
        createConnection: g.createConnection,
      })
    // the default on a local service: refused before connecting
    const byDefault = await post(
      `http://shop.test:${r.port}/hook`,
      withBase({ PUBLIC_BASE_URL: 'http://localhost:3000' }),
    )
    assert.deepEqual([byDefault.httpStatus, byDefault.error], [null, 'refused: private address'])
    assert.deepEqual(g.connected, [])
    assert.equal(r.requests.length, 0)
    // NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128: called; a name resolving to a private address is not
    const allowing = withBase({ NOTIFY_ALLOW_NETWORKS: LOOPBACK_NETWORKS })
    const shop = await post(`http://shop.test:${r.port}/hook`, allowing)
    assert.deepEqual([shop.httpStatus, shop.error], [200, null])
    const inside = await post(`http://inside.test:${r.port}/hook`, allowing)
    assert.deepEqual([inside.httpStatus, inside.error], [null, 'refused: private address'])
    assert.deepEqual(g.connected, ['127.0.0.1'])
    assert.deepEqual(g.violations, [])
    assert.equal(r.requests.length, 1)
  } finally {
    await r.close()
  }
})
