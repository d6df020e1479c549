// The stress test behind a real load balancer: three instances on one database behind HAProxy (Debian's package,
// installed by the test command when missing), started with TRUSTED_PROXY_HOPS=1 while HAProxy adds
// X-Forwarded-For and health-checks readiness (GET /api/ready). The clients talk to HAProxy only. Checked:
//   a. the stress workload's money invariants, one instance killed with SIGKILL half-way (a 502/503 of HAProxy's
//      own is a connection failure, retried with the same body);
//   b. the payment page's per-client limit counts the clients' own addresses (127.0.0.2, 127.0.0.3 …, as HAProxy
//      forwards them) across the instances, not HAProxy's address for everyone;
//   c. an instance told to stop (SIGTERM) under steady load answers readiness 503, HAProxy takes it out, and no
//      client request fails while it drains and exits.
// Run by `npm test` (scripts/run-tests.ts) after the two-instance stress test, and by `npm run test:stress`.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { ensureDebianPackage } from './debian-package.ts'
import {
  fromTheProxy,
  loopbackRequest,
  runStress,
  type RawAnswer,
  type StressFleet,
  type StressReport,
} from './stress.ts'

export const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy'

export interface ProxyStressOptions {
  databaseUrl: string
  requests: number
  clients: number
  /** the three instances' ports */
  ports: number[]
  /** HAProxy's port on 127.0.0.1 */
  proxyPort: number
  /** the instances' TRUSTED_PROXY_HOPS (1: HAProxy's entry of X-Forwarded-For names the client) */
  hops?: number
  log?: (line: string) => void
}

export interface ProxyCheck {
  name: string
  ok: boolean
  detail: string
}

export interface ProxyStressReport {
  stress: StressReport
  checks: ProxyCheck[]
}

// the payment page's per-client limit on the instances behind HAProxy: small, in a window of 10⁹ s (windows start at
// multiples of their length since 1970, so that the check never straddles two)
const CLIENT_ATTEMPTS = 4
// how long an instance told to stop keeps serving while readiness answers 503: longer than HAProxy takes to see it
// (two failed checks 500 ms apart)
const DRAIN_DELAY_SECONDS = 4

/**
 * HAProxy's configuration: one frontend on 127.0.0.1, the instances round robin, each health-checked on readiness
 * (two 503s in a row take it out, one 200 brings it back), X-Forwarded-For added, a connection refused retried on
 * another instance, the serving instance's name in X-Served-By (for the checks), a stats socket for its state.
 * docs/operators/deployment-and-scaling.md shows the same configuration.
 */
export function haproxyConfig(o: { port: number; instances: number[]; statsSocket: string }): string {
  return [
    'global',
    `  stats socket ${o.statsSocket} mode 600 level user`,
    '  maxconn 2000',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-keep-alive 60s',
    '  timeout check 3s',
    '  # a connection refused or timed out is tried again, on another instance',
    '  retries 3',
    '  option redispatch 1',
    '',
    'frontend payin',
    `  bind 127.0.0.1:${o.port}`,
    '  default_backend instances',
    '',
    'backend instances',
    '  balance roundrobin',
    '  # the client address, for instances started with TRUSTED_PROXY_HOPS=1',
    '  option forwardfor',
    '  option httpchk',
    `  http-check send meth GET uri /api/ready ver HTTP/1.1 hdr Host 127.0.0.1:${o.port}`,
    '  http-check expect status 200',
    '  default-server check inter 500ms fall 2 rise 1',
    '  http-response set-header X-Served-By %[srv_name]',
    ...o.instances.map((port, i) => `  server instance${i + 1} 127.0.0.1:${port}`),
    '',
  ].join('\n')
}

/** one line of `show stat`: a server's state as HAProxy sees it */
export interface ServerState {
  name: string
  /** UP, DOWN, "UP 1/2" (going down) … */
  status: string
  /** the last check's result (L7OK, L7STS, L4CON …) and HTTP status */
  checkStatus: string
  checkCode: string
  /** sessions sent to it so far */
  sessions: number
}

/** a command on HAProxy's stats socket, and its whole answer */
function statsCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = net.createConnection(socket)
    let out = ''
    c.setEncoding('utf8')
    c.on('connect', () => c.end(`${command}\n`))
    c.on('data', (d: string) => (out += d))
    c.on('end', () => resolve(out))
    c.on('error', reject)
  })
}

/** the backend's servers, from `show stat` */
export async function serverStates(socket: string): Promise<Map<string, ServerState>> {
  const [head, ...lines] = (await statsCommand(socket, 'show stat')).trim().split('\n')
  const fields = head.replace(/^# /, '').split(',')
  const at = (row: string[], name: string) => row[fields.indexOf(name)] ?? ''
  const states = new Map<string, ServerState>()
  for (const row of lines.map((l) => l.split(',')))
    if (at(row, 'pxname') === 'instances' && !['FRONTEND', 'BACKEND'].includes(at(row, 'svname')))
      states.set(at(row, 'svname'), {
        name: at(row, 'svname'),
        status: at(row, 'status'),
        checkStatus: at(row, 'check_status'),
        checkCode: at(row, 'check_code'),
        sessions: Number(at(row, 'stot')),
      })
  return states
}

/** polls `until` every 100 ms until it holds (its value) or `ms` pass (an Error saying `what`) */
async function poll<T>(what: string, ms: number, until: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await until().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

export async function runProxyStress(o: ProxyStressOptions): Promise<ProxyStressReport> {
  const log = o.log ?? ((l: string) => console.log(`[stress-proxy] ${l}`))
  ensureDebianPackage(HAPROXY, 'haproxy', log)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payin-haproxy-'))
  const statsSocket = path.join(dir, 'stats.sock')
  const config = path.join(dir, 'haproxy.cfg')
  fs.writeFileSync(config, haproxyConfig({ port: o.proxyPort, instances: o.ports, statsSocket }))
  const errors = path.join(dir, 'haproxy.log')
  const out = fs.openSync(errors, 'a')
  // in the foreground (-db), in a process group of its own, stopped below
  const haproxy: ChildProcess = spawn(HAPROXY, ['-db', '-f', config], {
    stdio: ['ignore', out, out],
    detached: true,
  })
  fs.closeSync(out)
  const haproxyExit = new Promise<void>((r) => haproxy.once('exit', () => r()))
  const checks: ProxyCheck[] = []
  const name = (port: number) => `instance${o.ports.indexOf(port) + 1}`
  try {
    await poll('HAProxy answering on its stats socket', 10_000, async () =>
      haproxy.exitCode === null ? serverStates(statsSocket) : undefined,
    ).catch((e) => {
      throw new Error(`${(e as Error).message}; HAProxy said: ${fs.readFileSync(errors, 'utf8').slice(0, 2000)}`)
    })
    log(`HAProxy ${o.proxyPort} → instances ${o.ports.join(', ')} (configuration: ${config})`)
    const stress = await runStress({
      databaseUrl: o.databaseUrl,
      requests: o.requests,
      clients: o.clients,
      ports: o.ports,
      log,
      front: {
        port: o.proxyPort,
        env: {
          TRUSTED_PROXY_HOPS: String(o.hops ?? 1),
          PAGE_CLIENT_ATTEMPTS: String(CLIENT_ATTEMPTS),
          PAGE_CLIENT_WINDOW_SECONDS: '1000000000',
          DRAIN_DELAY_SECONDS: String(DRAIN_DELAY_SECONDS),
        },
        // every instance checked ready by HAProxy
        serving: () =>
          poll('HAProxy seeing every instance ready', 30_000, async () => {
            const states = [...(await serverStates(statsSocket)).values()]
            return states.length === o.ports.length &&
              states.every((s) => s.status === 'UP' && s.checkStatus === 'L7OK')
              ? true
              : undefined
          }).then(() => undefined),
        afterWorkload: async (fleet) => {
          checks.push(await clientLimitCheck(o.proxyPort, fleet))
          checks.push(await drainCheck(o.proxyPort, statsSocket, fleet, name))
        },
      },
    })
    checks.unshift({
      name: 'a. money invariants, one instance killed',
      ok: stress.violations.length === 0,
      detail: `${stress.invariantsChecked} invariants checked, ${stress.violations.length} violated; ${stress.faults.join('; ')}`,
    })
    return { stress, checks }
  } finally {
    if (haproxy.pid && haproxy.exitCode === null) process.kill(-haproxy.pid, 'SIGTERM')
    await haproxyExit
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const json = (a: RawAnswer) => {
  try {
    return JSON.parse(a.text)
  } catch {
    return undefined
  }
}

/**
 * b. One client address reaches the payment page's limit across the instances (429 in the contract's shape) while
 * another is still served.
 */
async function clientLimitCheck(proxyPort: number, fleet: StressFleet): Promise<ProxyCheck> {
  const problems: string[] = []
  const send = (method: string, p: string, body: unknown, from?: string) =>
    loopbackRequest(proxyPort, method, p, {
      headers: { Authorization: `Bearer ${fleet.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      from,
    })
  const invoices: string[] = []
  for (let i = 0; i <= CLIENT_ATTEMPTS; i++) {
    const made = await send('PUT', `${fleet.api}/bills/b-limit-${randomUUID()}`, {
      amount: { value: '10.00', currency: 'RUB' },
      expirationDateTime: new Date(Date.now() + 86400_000).toISOString(),
    })
    if (made.status !== 200) throw new Error(`a bill for the limit check answered ${made.status}`)
    invoices.push(json(made).invoiceUid)
  }
  // a declined card: the bill stays open, and one attempt each stays below the bill's own streak limit
  const attempt = (invoiceUid: string, from: string) =>
    send(
      'POST',
      `/pay/${invoiceUid}/attempts`,
      { method: 'card', pan: '4000000000000002', expiry: '12/30', cvv: '123' },
      from,
    )
  const [one, another] = ['127.0.0.2', '127.0.0.3']
  const servedBy = new Set<string>()
  for (const invoiceUid of invoices.slice(0, CLIENT_ATTEMPTS)) {
    const a = await attempt(invoiceUid, one)
    servedBy.add(String(a.headers['x-served-by']))
    if (a.status !== 200) problems.push(`attempt from ${one} answered ${a.status} ${a.text.slice(0, 200)}`)
  }
  if (servedBy.size < 2) problems.push(`${one}'s attempts all went to ${[...servedBy]}`)
  const refused = await attempt(invoices[CLIENT_ATTEMPTS], one)
  const body = json(refused)
  const seconds = Number(/^client\.slowed:(\d+)$/.exec(body?.cause?.client?.[0] ?? '')?.[1])
  if (
    refused.status !== 429 ||
    body?.errorCode !== 'rate.limit.exceeded' ||
    !(seconds >= 1) ||
    refused.headers['retry-after'] !== String(seconds)
  )
    problems.push(`attempt ${CLIENT_ATTEMPTS + 1} from ${one} answered ${refused.status} ${refused.text.slice(0, 200)}`)
  const served = await attempt(invoices[CLIENT_ATTEMPTS], another)
  if (served.status !== 200)
    problems.push(`an attempt from ${another} answered ${served.status} ${served.text.slice(0, 200)}`)
  return {
    name: 'b. per-client limit counts the clients behind HAProxy',
    ok: problems.length === 0,
    detail: problems.length
      ? problems.join('; ')
      : `${one}: ${CLIENT_ATTEMPTS} attempts served by ${[...servedBy].sort().join(', ')}, the next one 429 ` +
        `client.slowed:${seconds}; ${another} still served`,
  }
}

/**
 * c. SIGTERM to one instance under steady load (reads and replays of the workload's payments, through HAProxy):
 * HAProxy sees readiness answer 503 and takes it out while it still serves, nothing is sent to it afterwards, and no
 * request fails (no 5xx, no connection failure) until it has exited and the others served on.
 */
async function drainCheck(
  proxyPort: number,
  statsSocket: string,
  fleet: StressFleet,
  name: (port: number) => string,
): Promise<ProxyCheck> {
  const victim = fleet.instances[2]
  const server = name(victim.port)
  const headers = { Authorization: `Bearer ${fleet.token}`, 'Content-Type': 'application/json' }
  const failures: string[] = []
  let done = 0
  let outAt = Infinity
  let sentAfterOut = 0
  let running = true
  // resolves once `n` more requests have been answered
  const waiters: { at: number; resolve: () => void }[] = []
  const answered = (n: number) => new Promise<void>((resolve) => waiters.push({ at: done + n, resolve }))
  const client = async () => {
    while (running) {
      const p = fleet.payments[Math.floor(Math.random() * fleet.payments.length)]
      const replay = Math.random() < 0.3
      const startedAt = Date.now()
      try {
        const a = await loopbackRequest(proxyPort, replay ? 'PUT' : 'GET', `${fleet.api}/payments/${p.paymentId}`, {
          headers,
          body: replay ? JSON.stringify(p.body) : undefined,
        })
        if (a.status >= 500 || fromTheProxy(a))
          failures.push(`${a.status} from ${a.headers['x-served-by'] ?? 'HAProxy'}`)
        else if (a.status !== 200) failures.push(`${a.status} ${a.text.slice(0, 200)}`)
        if (a.headers['x-served-by'] === server && startedAt > outAt) sentAfterOut++
      } catch (e) {
        failures.push(`connection failure: ${(e as Error).message}`)
      }
      done++
      for (const w of waiters.filter((w) => w.at <= done)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve()
      }
    }
  }
  const clients = Array.from({ length: 4 }, client)
  try {
    await answered(40)
    const exited = new Promise<number | null>((r) => victim.proc?.once('exit', (code) => r(code)))
    const signalled = Date.now()
    fleet.kill(victim, 'SIGTERM')
    const out = await poll(`HAProxy taking ${server} out`, 20_000, async () => {
      const s = (await serverStates(statsSocket)).get(server)
      return s && s.status.startsWith('DOWN') ? s : undefined
    })
    outAt = Date.now()
    const code = await Promise.race([exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 60_000).unref())])
    const exitedAt = Date.now()
    const after = (await serverStates(statsSocket)).get(server)
    // the others serve on: some more requests after it is gone
    await answered(40)
    running = false
    await Promise.all(clients)
    const problems = [...new Set(failures)].slice(0, 5)
    if (out.checkStatus !== 'L7STS' || out.checkCode !== '503')
      problems.push(`taken out by check ${out.checkStatus} ${out.checkCode}, not readiness's 503`)
    if (code === 'late') problems.push(`${server} did not exit within 60 s`)
    if (sentAfterOut) problems.push(`${sentAfterOut} requests sent to ${server} after it was out`)
    if (after && after.sessions !== out.sessions)
      problems.push(`${after.sessions - out.sessions} sessions opened to ${server} after it was out`)
    return {
      name: 'c. readiness takes a draining instance out',
      ok: problems.length === 0 && failures.length === 0,
      detail:
        `SIGTERM to ${server} (port ${victim.port}) under load; out of rotation after ` +
        `${((outAt - signalled) / 1000).toFixed(1)} s (check ${out.checkStatus} ${out.checkCode}), exited after ` +
        `${((exitedAt - signalled) / 1000).toFixed(1)} s; ${done} requests, ${failures.length} failed, ` +
        `${sentAfterOut} sent to it after it was out` +
        (problems.length ? `: ${problems.join('; ')}` : ''),
    }
  } finally {
    running = false
    await Promise.all(clients)
  }
}

export function printProxyReport(
  r: ProxyStressReport,
  log: (line: string) => void = (l) => console.log(`[stress-proxy] ${l}`),
): void {
  for (const c of r.checks) log(`${c.ok ? 'ok' : 'FAILED'}: ${c.name}: ${c.detail}`)
}
