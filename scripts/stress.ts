// The stress test: two app instances on one PostgreSQL, concurrent clients sending a mixed workload
// (new payments, identical and conflicting replays, captures, partial refunds, bill payments from the
// form's endpoint, completes), one instance killed with SIGKILL half-way and restarted. Then the
// invariants are checked through the API and in the database, and the figures printed.
//   npm run test:stress [-- --requests 5000 --clients 24]
// `runStress` also runs, at a bounded size, inside `npm test` (scripts/run-tests.ts), and again with three instances
// behind HAProxy (scripts/stress-proxy.ts: `front`); `npm run test:stress` runs both, or the one `--only` names
// (`--only proxy --hops 0` shows the HAProxy run's client-limit check failing when the instances trust no proxy).
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import pg from 'pg'
import { PG_OFFSETS, testPorts } from './test-ports.ts'

export interface StressOptions {
  databaseUrl: string
  requests: number
  clients: number
  /** the instances' ports: the second is killed half-way */
  ports: number[]
  log?: (line: string) => void
  /** a load balancer in front of the instances: the clients then talk to it only */
  front?: StressFront
}

/** A load balancer in front (scripts/stress-proxy.ts) */
export interface StressFront {
  /** its port on 127.0.0.1 */
  port: number
  /** the instances' settings behind it (TRUSTED_PROXY_HOPS, the payment page's limits) */
  env: Record<string, string>
  /** resolves once it sends requests to every instance, after they started */
  serving(): Promise<void>
  /** after the workload and its checks, with the instances still running */
  afterWorkload(fleet: StressFleet): Promise<void>
}

/** the instances of a run, for what `front.afterWorkload` does with them */
export interface StressFleet {
  instances: Instance[]
  /** starts an instance (again) and resolves once it answers */
  start(inst: Instance): Promise<void>
  /** a signal to the instance's process group */
  kill(inst: Instance, signal: NodeJS.Signals): void
  /** the site's API path (`/api/sites/…`) and its token */
  api: string
  token: string
  /** payments the workload made, with their first answers */
  payments: { paymentId: string; body: unknown }[]
}

export interface StressReport {
  requests: number
  answers: Record<string, number>
  connectionFailures: number
  faults: string[]
  invariantsChecked: number
  violations: string[]
}

const CARDS_APPROVED = ['4111111111111111', '5555555555554444', '2200000000000004']
const CARDS_DECLINED = ['4000000000000002', '4000000000009995']
const OTP_CARD = '4000000000001000'

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]
const rnd = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1))
const value = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export interface Instance {
  port: number
  proc?: ChildProcess
  alive: boolean
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read field by field as each check needs
type AnswerBody = any

interface Answer {
  status: number
  body: AnswerBody
}

/** an answer as a client reads it: status, headers and text */
export interface RawAnswer {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
}

// one keep-alive agent per source address: a client of the load balancer is known by its address
const agents = new Map<string, http.Agent>()

/**
 * One request to 127.0.0.1:`port` from the loopback address `from` (127.0.0.1 unless said: Linux answers on all of
 * 127.0.0.0/8). Rejects when the connection fails or breaks.
 */
export function loopbackRequest(
  port: number,
  method: string,
  path: string,
  o: { headers?: Record<string, string>; body?: string; from?: string; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  const from = o.from ?? '127.0.0.1'
  let agent = agents.get(from)
  if (!agent) agents.set(from, (agent = new http.Agent({ keepAlive: true, localAddress: from })))
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, agent, headers: o.headers, timeout: o.timeoutMs ?? 30_000 },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        )
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in time`)))
    req.on('error', reject)
    req.end(o.body)
  })
}

/** closes the keep-alive connections loopbackRequest keeps */
export function closeLoopbackAgents(): void {
  for (const agent of agents.values()) agent.destroy()
  agents.clear()
}

/**
 * Whether an answer is the load balancer's own (a 502, 503 or 504 page of its own, not JSON): the request did not
 * reach an instance, or reached one that died under it — a connection failure, as a client sees one.
 */
export const fromTheProxy = (a: RawAnswer): boolean =>
  [502, 503, 504].includes(a.status) && !String(a.headers['content-type']).startsWith('application/json')

interface KnownPayment {
  paymentId: string
  body: unknown
  first: AnswerBody
  sale: boolean
  amountMinor: number
}

export async function runStress(o: StressOptions): Promise<StressReport> {
  const log = o.log ?? ((l: string) => console.log(`[stress] ${l}`))
  const secret = randomBytes(32).toString('hex')
  const base = `http://127.0.0.1:${o.front?.port ?? o.ports[0]}`
  const env = {
    ...process.env,
    DATABASE_URL: o.databaseUrl,
    SECRET_KEY: secret,
    PUBLIC_BASE_URL: base,
    RATE_LIMIT_PER_MINUTE: '0',
    MOBILE_OPERATOR_DELAY_MS: '500',
    DATABASE_POOL_SIZE: '8',
    NOTIFICATIONS_WORKER: 'off',
    // all its payers come from 127.0.0.1: the payment page's per-client limit would stop them
    PAGE_CLIENT_ATTEMPTS: '0',
    NEXT_TELEMETRY_DISABLED: '1',
    ...o.front?.env,
  }
  const instances: Instance[] = o.ports.map((port) => ({ port, alive: false }))

  async function start(inst: Instance): Promise<void> {
    // its output kept where the test command keeps every server's (SERVER_LOG_DIR), for the card-data check
    const out = process.env.SERVER_LOG_DIR
      ? fs.openSync(path.join(process.env.SERVER_LOG_DIR, `stress-${inst.port}-${Date.now()}.log`), 'a')
      : 'ignore'
    inst.proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/http-server.ts'], {
      env: { ...env, PORT: String(inst.port), HOST: '127.0.0.1' },
      stdio: ['ignore', out, out],
      detached: true,
    })
    if (typeof out === 'number') fs.closeSync(out)
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`http://127.0.0.1:${inst.port}/api/health`)).ok) {
          inst.alive = true
          return
        }
      } catch {
        // not listening yet: asked again
      }
      await sleep(100)
    }
    throw new Error(`instance ${inst.port} did not start`)
  }
  const kill = (inst: Instance, signal: NodeJS.Signals) => {
    inst.alive = false
    if (inst.proc?.pid && inst.proc.exitCode === null) process.kill(-inst.proc.pid, signal)
  }

  // a site and its token, straight in the database
  const { createHash } = await import('node:crypto')
  const db = new pg.Client({ connectionString: o.databaseUrl })
  await db.connect()
  const siteId = `stress-${randomUUID().slice(0, 8)}`
  const token = `sk_${randomBytes(32).toString('base64url')}`
  await db.query('INSERT INTO "Site" (id) VALUES ($1)', [siteId])
  await db.query('INSERT INTO "SiteToken" (id, "siteId", "tokenHash", hint) VALUES ($1, $2, $3, $4)', [
    randomUUID(),
    siteId,
    createHash('sha256').update(token).digest('hex'),
    token.slice(0, 9),
  ])

  await Promise.all(instances.map(start))
  await o.front?.serving()
  log(
    `${instances.length} instances on ports ${o.ports.join(', ')}${o.front ? ` behind 127.0.0.1:${o.front.port}` : ''}; ` +
      `${o.clients} clients; ${o.requests} requests`,
  )

  const report: StressReport = {
    requests: 0,
    answers: {},
    connectionFailures: 0,
    faults: [],
    invariantsChecked: 0,
    violations: [],
  }
  const violation = (what: string) => {
    if (report.violations.length < 50) log(`VIOLATION: ${what}`)
    report.violations.push(what)
  }
  let rr = 0

  /** the request to an instance in turn, or to the front; a connection failure rejects */
  async function exchange(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    from: string | undefined,
  ): Promise<{ status: number; text: string }> {
    if (o.front) {
      const a = await loopbackRequest(o.front.port, method, path, { headers, body, from })
      if (fromTheProxy(a)) throw new Error(`${a.status} from the proxy`)
      return a
    }
    const alive = instances.filter((i) => i.alive)
    const inst = alive.length ? alive[rr++ % alive.length] : instances[0]
    const res = await fetch(`http://127.0.0.1:${inst.port}${path}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(30_000),
    })
    return { status: res.status, text: await res.text() }
  }

  /**
   * one request, to the instances in turn (or through the front); a connection failure (or the front's own 502, 503
   * or 504) is retried with the same body, on another instance (replays are idempotent). `from`: the client's address
   * behind a front.
   */
  async function send(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    from?: string,
  ): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      report.requests++
      try {
        const res = await exchange(
          method,
          path,
          { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
          body === undefined ? undefined : JSON.stringify(body),
          from,
        )
        const text = res.text
        report.answers[res.status] = (report.answers[res.status] ?? 0) + 1
        let parsed: AnswerBody
        try {
          parsed = JSON.parse(text)
        } catch {
          // not JSON: the answer has no body to read
        }
        return { status: res.status, body: parsed }
      } catch {
        report.connectionFailures++
        if (attempt >= 20) throw new Error(`no instance answered ${method} ${path}`)
        await sleep(100)
      }
    }
  }

  const api = `/api/sites/${siteId}`
  const payments: KnownPayment[] = []
  const completed = () => payments.filter((p) => p.first.status?.value === 'COMPLETED')
  const refunds = new Map<string, { paymentId: string; body: unknown; first: AnswerBody }>()
  const captures = new Map<string, { paymentId: string; body: unknown; first: AnswerBody }>()
  const bills: { billId: string; invoiceUid: string }[] = []

  async function newPayment(): Promise<void> {
    const sale = Math.random() < 0.6
    const amountMinor = rnd(100, 500_000)
    const paymentId = `p-${randomUUID()}`
    const body = {
      paymentMethod: {
        type: 'CARD',
        pan: Math.random() < 0.85 ? pick(CARDS_APPROVED) : pick(CARDS_DECLINED),
        expiryDate: '12/30',
        cvv2: '123',
      },
      amount: { value: value(amountMinor), currency: 'RUB' },
      flags: sale ? ['SALE'] : [],
    }
    const a = await send('PUT', `${api}/payments/${paymentId}`, body)
    if (a.status !== 200) return violation(`new payment ${paymentId} answered ${a.status}`)
    payments.push({ paymentId, body, first: a.body, sale, amountMinor })
  }

  async function replay(conflicting: boolean): Promise<void> {
    const p = payments.length ? pick(payments) : null
    if (!p) return newPayment()
    const body = conflicting
      ? { ...(p.body as object), amount: { value: value(p.amountMinor + 1), currency: 'RUB' } }
      : p.body
    const a = await send('PUT', `${api}/payments/${p.paymentId}`, body)
    if (conflicting) {
      if (a.status !== 409) violation(`conflicting replay of ${p.paymentId} answered ${a.status}`)
    } else if (
      a.status !== 200 ||
      a.body.createdDateTime !== p.first.createdDateTime ||
      a.body.amount.value !== p.first.amount.value
    )
      violation(`replay of ${p.paymentId} answered ${a.status} ${JSON.stringify(a.body)?.slice(0, 200)}`)
  }

  async function capture(replayOne: boolean): Promise<void> {
    if (replayOne && captures.size) {
      const [captureId, c] = pick([...captures.entries()])
      const a = await send('PUT', `${api}/payments/${c.paymentId}/captures/${captureId}`, c.body)
      if (
        a.status !== 200 ||
        a.body.status.value !== c.first.status.value ||
        a.body.createdDateTime !== c.first.createdDateTime
      )
        violation(`capture replay ${captureId} answered ${a.status} ${a.body?.status?.value}`)
      return
    }
    const candidates = completed().filter((p) => !p.sale)
    if (!candidates.length) return newPayment()
    const p = pick(candidates)
    const captureId = `c-${randomUUID()}`
    const body = Math.random() < 0.5 ? {} : { amount: { value: value(rnd(1, p.amountMinor)), currency: 'RUB' } }
    const a = await send('PUT', `${api}/payments/${p.paymentId}/captures/${captureId}`, body)
    // a payment already captured refuses a new capture (the invariants below check it holds one)
    if (a.status === 409 && a.body?.errorCode === 'payin.incorrect-method-invocation') return
    if (a.status !== 200) return violation(`capture ${captureId} answered ${a.status}`)
    captures.set(captureId, { paymentId: p.paymentId, body, first: a.body })
  }

  async function refund(replayOne: boolean): Promise<void> {
    if (replayOne && refunds.size) {
      const [refundId, r] = pick([...refunds.entries()])
      const a = await send('PUT', `${api}/payments/${r.paymentId}/refunds/${refundId}`, r.body)
      if (
        a.status !== 200 ||
        a.body.status.value !== r.first.status.value ||
        a.body.createdDateTime !== r.first.createdDateTime
      )
        violation(`refund replay ${refundId} answered ${a.status} ${a.body?.status?.value}`)
      return
    }
    const candidates = completed()
    if (!candidates.length) return newPayment()
    const p = pick(candidates)
    const refundId = `r-${randomUUID()}`
    const amountMinor = Math.random() < 0.1 ? p.amountMinor : rnd(1, Math.max(1, Math.floor(p.amountMinor / 3)))
    const body = { amount: { value: value(amountMinor), currency: 'RUB' } }
    const a = await send('PUT', `${api}/payments/${p.paymentId}/refunds/${refundId}`, body)
    if (a.status !== 200) return violation(`refund ${refundId} answered ${a.status}`)
    refunds.set(refundId, { paymentId: p.paymentId, body, first: a.body })
  }

  // behind a front, each bill's payers come from an address of their own (127.16.0.1, 127.16.0.2 …): the payment
  // page's per-client limit is on there
  let payers = 0
  const payerAddress = () => {
    const n = ++payers
    return `127.${16 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`
  }

  /** a bill paid from the form's endpoint by two payers at once */
  async function billPayment(): Promise<void> {
    const billId = `b-${randomUUID()}`
    const b = await send('PUT', `${api}/bills/${billId}`, {
      amount: { value: value(rnd(100, 100_000)), currency: 'RUB' },
      expirationDateTime: new Date(Date.now() + 86400_000).toISOString(),
      flags: ['SALE'],
    })
    if (b.status !== 200) return violation(`bill ${billId} answered ${b.status}`)
    bills.push({ billId, invoiceUid: b.body.invoiceUid })
    const from = o.front ? payerAddress() : undefined
    const attempt = () =>
      send(
        'POST',
        `/pay/${b.body.invoiceUid}/attempts`,
        { method: 'card', pan: pick(CARDS_APPROVED), expiry: '12/30', cvv: '123' },
        {},
        from,
      )
    const answers = await Promise.all([attempt(), attempt()])
    for (const a of answers) if (a.status !== 200) violation(`form attempt on ${billId} answered ${a.status}`)
  }

  /** a code payment finished with `complete`, and the complete repeated */
  async function completeFlow(): Promise<void> {
    const paymentId = `o-${randomUUID()}`
    const body = {
      paymentMethod: { type: 'CARD', pan: OTP_CARD, expiryDate: '12/30', cvv2: '123' },
      amount: { value: '10.00', currency: 'RUB' },
      flags: ['SALE'],
    }
    const a = await send('PUT', `${api}/payments/${paymentId}`, body)
    if (a.status !== 200 || a.body.status.value !== 'WAITING')
      return violation(`code payment ${paymentId} answered ${a.status}`)
    const done = await send('POST', `${api}/payments/${paymentId}/complete`, { otp: { code: '1234' } })
    if (done.status !== 200 || done.body.status.value !== 'COMPLETED')
      return violation(`complete ${paymentId} answered ${done.status}`)
    payments.push({ paymentId, body, first: done.body, sale: true, amountMinor: 1000 })
    const again = await send('POST', `${api}/payments/${paymentId}/complete`, { otp: { code: '1234' } })
    if (again.status !== 200 || again.body.status.value !== 'COMPLETED')
      violation(`repeated complete ${paymentId} answered ${again.status}`)
  }

  const ops: [number, () => Promise<void>][] = [
    [28, newPayment],
    [10, () => replay(false)],
    [5, () => replay(true)],
    [12, () => capture(false)],
    [3, () => capture(true)],
    [20, () => refund(false)],
    [5, () => refund(true)],
    [9, billPayment],
    [8, completeFlow],
  ]
  const totalWeight = ops.reduce((a, [w]) => a + w, 0)
  const nextOp = () => {
    let x = Math.random() * totalWeight
    for (const [w, op] of ops) if ((x -= w) < 0) return op
    return ops[0][1]
  }

  let killed: Promise<void> | null = null
  const started = Date.now()
  await Promise.all(
    Array.from({ length: o.clients }, async () => {
      while (report.requests < o.requests) {
        if (!killed && report.requests >= o.requests / 2) {
          const victim = instances[1]
          const at = report.requests
          kill(victim, 'SIGKILL')
          const t0 = Date.now()
          killed = start(victim).then(() => {
            report.faults.push(
              `SIGKILL of the instance on port ${victim.port} at request ${at}; restarted in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
            )
          })
        }
        await nextOp()()
      }
    }),
  )
  await killed
  const seconds = (Date.now() - started) / 1000
  log(`workload done in ${seconds.toFixed(1)} s (${Math.round(report.requests / seconds)} requests/s)`)

  // --- invariants, through the API ---
  const check = (ok: boolean, what: string) => {
    report.invariantsChecked++
    if (!ok) violation(what)
  }
  for (const p of payments) {
    const a = await send('GET', `${api}/payments/${p.paymentId}`)
    check(
      a.status === 200 &&
        a.body.createdDateTime === p.first.createdDateTime &&
        a.body.amount.value === p.first.amount.value,
      `acknowledged payment ${p.paymentId} reads ${a.status}`,
    )
  }
  for (const [refundId, r] of refunds) {
    const a = await send('GET', `${api}/payments/${r.paymentId}/refunds/${refundId}`)
    check(
      a.status === 200 && a.body.status.value === r.first.status.value,
      `acknowledged refund ${refundId} reads ${a.status} ${a.body?.status?.value}`,
    )
  }
  for (const [captureId, c] of captures) {
    const a = await send('GET', `${api}/payments/${c.paymentId}/captures/${captureId}`)
    check(
      a.status === 200 && a.body.status.value === c.first.status.value,
      `acknowledged capture ${captureId} reads ${a.status}`,
    )
  }

  // --- invariants, in the database ---
  const rows = async (sql: string) => (await db.query(sql, [siteId])).rows
  for (const r of await rows(`
    SELECT p."paymentId", p."amountMinor"::bigint AS amount, p."capturedMinor"::bigint AS captured, p."refundedMinor"::bigint AS refunded,
      p."reversedMinor"::bigint AS "reversedMinor", p.reversed, p.status, p.flags,
      COALESCE((SELECT sum("amountMinor") FROM "Refund" r WHERE r."paymentRef" = p.id AND r.status = 'COMPLETED'), 0)::bigint AS refunds,
      COALESCE((SELECT sum("amountMinor") FROM "Capture" c WHERE c."paymentRef" = p.id AND c.status = 'COMPLETED'), 0)::bigint AS captures,
      (SELECT count(*) FROM "Capture" c WHERE c."paymentRef" = p.id AND c.status = 'COMPLETED')::int AS "completedCaptures"
    FROM "Payment" p WHERE p."siteId" = $1`)) {
    const [amount, captured, refunded] = [BigInt(r.amount), BigInt(r.captured), BigInt(r.refunded)]
    check(refunded === BigInt(r.refunds), `${r.paymentId}: refundedAmount ${refunded} ≠ completed refunds ${r.refunds}`)
    // reversals (partial ones included) release the hold: no part of what was captured
    const reversed = BigInt(r.reversedMinor)
    check(
      r.reversed ? refunded === amount && reversed === amount && captured === 0n : refunded - reversed <= captured,
      `${r.paymentId}: refunded ${refunded - reversed} > captured ${captured}`,
    )
    check(captured + reversed <= amount, `${r.paymentId}: captured ${captured} > amount ${amount}`)
    check(r.completedCaptures <= 1, `${r.paymentId}: ${r.completedCaptures} completed captures`)
    const sale = r.flags.includes('SALE')
    check(
      r.status !== 'COMPLETED' || (sale ? captured === amount : captured === BigInt(r.captures)),
      `${r.paymentId}: captured ${captured} does not match its captures ${r.captures}`,
    )
    check(
      r.status === 'COMPLETED' || (captured === 0n && refunded === 0n),
      `${r.paymentId}: ${r.status} payment holds money`,
    )
  }
  for (const r of await rows(`
    SELECT b."billId", b.status, (SELECT count(*) FROM "Payment" p WHERE p."billRef" = b.id AND p.status = 'COMPLETED')::int AS paid
    FROM "Bill" b WHERE b."siteId" = $1`)) {
    check(r.paid <= 1, `bill ${r.billId} has ${r.paid} COMPLETED payments`)
    check((r.status === 'PAID') === (r.paid === 1), `bill ${r.billId} is ${r.status} with ${r.paid} COMPLETED payments`)
  }
  for (const r of await rows(
    `SELECT "paymentId", status, "authFlow", "statusReason" FROM "Payment" WHERE "siteId" = $1`,
  )) {
    check(r.status !== 'WAITING' || r.authFlow !== null, `${r.paymentId}: WAITING without a way out`)
    check(r.status !== 'DECLINED' || r.statusReason !== null, `${r.paymentId}: DECLINED without a reason`)
  }
  const [{ n }] = await rows(`SELECT count(*)::int AS n FROM "Payment" WHERE "siteId" = $1`)
  check(n >= payments.length, `acknowledged payments ${payments.length} > rows ${n}`)
  log(
    `checked ${payments.length} acknowledged payments, ${refunds.size} refunds, ${captures.size} captures, ${bills.length} bills; ${n} payment rows`,
  )

  await db.end()
  try {
    await o.front?.afterWorkload({ instances, start, kill, api, token, payments })
  } finally {
    for (const inst of instances) kill(inst, 'SIGTERM')
    closeLoopbackAgents()
  }
  return report
}

export function printReport(r: StressReport, log: (line: string) => void = (l) => console.log(`[stress] ${l}`)): void {
  log(`requests sent: ${r.requests}`)
  log(
    `answers by status: ${Object.entries(r.answers)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}; connection failures (retried): ${r.connectionFailures}`,
  )
  log(`faults injected: ${r.faults.length ? r.faults.join('; ') : 'none'}`)
  log(`invariants checked: ${r.invariantsChecked}`)
  log(`violations: ${r.violations.length}`)
}

async function main() {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`)
    return i >= 0 ? process.argv[i + 1] : undefined
  }
  const { buildIfChanged } = await import('./app-build.ts')
  const { applyMigrations } = await import('../lib/db/migrations.ts')
  const { startEmbeddedPostgres, stopEmbeddedPostgres } = await import('../lib/db/embedded-postgres.ts')
  const fs = await import('node:fs')
  await buildIfChanged()
  // beside the suite's ports (4101, 4102 and 25449 for the default TEST_PORT_BASE), moved with them
  const ports = testPorts()
  const stressPort = Number(process.env.STRESS_PORT || ports.server + 102)
  const pgOpts = {
    dataDir: 'data/stress-pg',
    port: Number(process.env.STRESS_PG_PORT || ports.pg + PG_OFFSETS.stress),
    database: 'payin_stress',
  }
  let url = process.env.STRESS_DATABASE_URL
  if (!url) {
    await stopEmbeddedPostgres(pgOpts, 'immediate').catch(() => {})
    fs.rmSync(pgOpts.dataDir, { recursive: true, force: true })
    url = (await startEmbeddedPostgres(pgOpts)).url
  }
  const only = arg('only')
  if (only && !['direct', 'proxy'].includes(only)) throw new Error(`--only ${only}: direct or proxy`)
  const requests = Number(arg('requests') ?? process.env.STRESS_REQUESTS ?? 5000)
  const clients = Number(arg('clients') ?? process.env.STRESS_CLIENTS ?? 24)
  try {
    await applyMigrations(url)
    let failed = false
    if (only !== 'proxy') {
      const report = await runStress({ databaseUrl: url, requests, clients, ports: [stressPort, stressPort + 1] })
      printReport(report)
      failed ||= report.violations.length > 0
    }
    if (only !== 'direct') {
      // three instances and HAProxy beside the two above (base + 104 … + 107 by default)
      const { printProxyReport, runProxyStress } = await import('./stress-proxy.ts')
      const log = (l: string) => console.log(`[stress behind HAProxy] ${l}`)
      const report = await runProxyStress({
        databaseUrl: url,
        requests,
        clients,
        ports: [stressPort + 2, stressPort + 3, stressPort + 4],
        proxyPort: stressPort + 5,
        hops: arg('hops') === undefined ? 1 : Number(arg('hops')),
        log,
      })
      printReport(report.stress, log)
      printProxyReport(report, log)
      failed ||= report.checks.some((c) => !c.ok)
    }
    process.exitCode = failed ? 1 : 0
  } finally {
    if (!process.env.STRESS_DATABASE_URL) await stopEmbeddedPostgres(pgOpts)
  }
}

if (process.argv[1]?.endsWith('stress.ts'))
  main().catch((e) => {
    console.error(e)
    process.exit(1)
  })
