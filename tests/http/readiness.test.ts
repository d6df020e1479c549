// GET /api/ready: 200 {"status":"ready"} when the database answers, every migration of this version is
// applied and none is being applied, and the instance is not draining; otherwise 503 service.unavailable
// naming the reason. Liveness (GET /api/health) stays as it was.
// The migration cases run on a database of this file's own (the suite's server stays ready); the
// unreachable database is a TCP proxy on loopback in front of the suite's PostgreSQL, cut and restored.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import pg from 'pg'
import { applyMigrations, MIGRATION_LOCK_KEY, migrationNames } from '../../lib/db/migrations.ts'
import {
  assertErrorShape,
  BASE_URL,
  cardPayment,
  client,
  newSite,
  request,
  rub,
  uid,
  type Answer,
} from '../support/api.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { assertDocumented } from '../support/openapi-check.ts'
import { scrape } from '../support/prometheus.ts'

const port = Number(new URL(BASE_URL).port)
const MAIN_URL = process.env.DATABASE_URL!
const DATABASE = 'payin_readiness'
const ownUrl = (database: string) => MAIN_URL.replace(/\/[^/?]+(\?|$)/, `/${database}$1`)
const instances: Instance[] = []
const cleanups: (() => Promise<unknown>)[] = []

before(async () => {
  const admin = new pg.Client({ connectionString: MAIN_URL })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`)
  await admin.query(`CREATE DATABASE ${DATABASE}`)
  await admin.end()
  await applyMigrations(ownUrl(DATABASE))
})

after(async () => {
  for (const i of instances) i.kill()
  for (const c of cleanups) await c().catch(() => {})
})

const ready = (base: string) => request('GET', '/api/ready', { base })

function assertNotReady(a: Answer, reason: RegExp): void {
  assertErrorShape(a, 503, 'service.unavailable')
  assert.match(a.body.description, reason)
}

function assertReady(a: Answer): void {
  assert.equal(a.status, 200, a.text)
  assert.deepEqual(a.body, { status: 'ready' })
}

/** a session of its own on `url` (ended after the file) */
async function session(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  cleanups.push(() => c.end())
  return c
}

/** whether a connection to the loopback port is refused (one that is accepted is closed at once) */
function refusesConnections(p: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(p, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'))
  })
}

/** polls `check` until it holds (a deadline, not a sleep: each round asks again at once after 50 ms) */
async function until(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

test("the suite's server is ready; liveness answers as before", async () => {
  assertReady(await request('GET', '/api/ready'))
  assertReady(await request('GET', '/partner/v1/ready'))
  const health = await request('GET', '/api/health')
  assert.equal(health.status, 200)
  assert.deepEqual(health.body, { status: 'ok' })
})

test('a burst of concurrent readiness checks on a healthy instance: every one ready (none queued into "Database unreachable")', async () => {
  const answers = await Promise.all(Array.from({ length: 500 }, () => request('GET', '/api/ready')))
  assertAllReady(answers, 'the burst')
})

/** every answer 200 {"status":"ready"}; else how many were not, and the first one's description */
function assertAllReady(answers: Answer[], what: string): void {
  const notReady = answers.filter((a) => a.status !== 200)
  assert.equal(
    notReady.length,
    0,
    `${what}: ${notReady.length} of ${answers.length} concurrent readiness checks answered ${notReady[0]?.status} ${notReady[0]?.body?.description}`,
  )
  for (const a of answers) assertReady(a)
}

/** the instance on this file's database, started once */
let ownInstance: Promise<Instance> | undefined
function migratingInstance(): Promise<Instance> {
  ownInstance ??= startInstance(port + 160, {
    DATABASE_URL: ownUrl(DATABASE),
    SCHEDULER: 'off',
    NOTIFICATIONS_WORKER: 'off',
  }).then((i) => {
    instances.push(i)
    return i
  })
  return ownInstance
}

test('a migration of this version not recorded finished: "running" while the migration lock is held, "pending" while it is not; ready once recorded; liveness unaffected', async () => {
  const url = ownUrl(DATABASE)
  const instance = await migratingInstance()
  assertReady(await ready(instance.base))
  const db = await session(url)
  const last = migrationNames().at(-1)!
  const { rows } = await db.query(
    `UPDATE "_prisma_migrations" SET finished_at = NULL WHERE migration_name = $1 RETURNING id`,
    [last],
  )
  assert.equal(rows.length, 1)
  try {
    assertNotReady(await ready(instance.base), /migrations pending: 1 of this version's \d+ not applied/i)
    // a session holds the migration lock, as the migration runner applying it does
    const holder = await session(url)
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    try {
      assertNotReady(await ready(instance.base), /migrations running/i)
      assert.equal((await request('GET', '/api/health', { base: instance.base })).status, 200, 'alive all the same')
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
    }
    assertNotReady(await ready(instance.base), /migrations pending/i)

    // the same lock taken on another database concerns that database's instances only
    const other = await session(ownUrl('postgres'))
    await other.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    try {
      assertNotReady(await ready(instance.base), /migrations pending/i)
    } finally {
      await other.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
    }
  } finally {
    await db.query(`UPDATE "_prisma_migrations" SET finished_at = now() WHERE migration_name = $1`, [last])
  }
  assertReady(await ready(instance.base))
})

test("every migration of this version recorded: ready whatever the lock (an instance's check at its start, a newer version migrating in a rolling deploy)", async () => {
  const url = ownUrl(DATABASE)
  const instance = await migratingInstance()
  // the lock as every instance takes it briefly at its start, to find nothing to apply
  const holder = await session(url)
  await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
  try {
    assertReady(await ready(instance.base))
  } finally {
    await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
  }

  // the migration runner of a newer version, applying its migration, which waits for a lock this test holds
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payin-migrations-'))
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }))
  fs.cpSync('prisma/migrations', dir, { recursive: true })
  const WAIT_KEY = 4_242_424
  fs.mkdirSync(path.join(dir, '99991231000000_newer_version'))
  fs.writeFileSync(
    path.join(dir, '99991231000000_newer_version', 'migration.sql'),
    `SELECT pg_advisory_xact_lock(${WAIT_KEY});\n`,
  )
  await holder.query('SELECT pg_advisory_lock($1)', [WAIT_KEY])
  const running = applyMigrations(url, dir)
  running.catch(() => {})
  // the runner holds the migration lock and waits, inside the newer migration, for the test's lock
  try {
    await until('the migration to wait', async () => {
      const { rows } = await holder.query(
        `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`,
        [WAIT_KEY],
      )
      return rows.length > 0
    })
    assertReady(await ready(instance.base))
  } finally {
    await holder.query('SELECT pg_advisory_unlock($1)', [WAIT_KEY])
  }
  assert.deepEqual(await running, ['99991231000000_newer_version'])
  // a newer version's migration recorded beside this version's: this version is still served
  assertReady(await ready(instance.base))
})

test("this version's migrations unreadable (no prisma/migrations where it runs): 503 saying so, not a 500", async () => {
  // a checkout of this build without its prisma/migrations folder
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payin-no-migrations-'))
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }))
  for (const entry of fs.readdirSync('.'))
    if (entry !== 'prisma' && entry !== 'data') fs.symlinkSync(path.resolve(entry), path.join(dir, entry))
  const instance = await startInstance(
    port + 165,
    { DATABASE_URL: ownUrl(DATABASE), SCHEDULER: 'off', NOTIFICATIONS_WORKER: 'off' },
    { cwd: dir },
  )
  instances.push(instance)
  assertNotReady(await ready(instance.base), /migrations cannot be read \(prisma\/migrations: ENOENT\)/)
  assert.equal((await request('GET', '/api/health', { base: instance.base })).status, 200, 'alive all the same')
})

// the startup parameters PgBouncer takes by default; any other it refuses ("unsupported startup parameter")
const POOLER_STARTUP_PARAMETERS = new Set([
  'user',
  'database',
  'application_name',
  'client_encoding',
  'datestyle',
  'timezone',
  'standard_conforming_strings',
])
const PROTOCOL_3 = 196_608

/** the first startup parameter of a complete startup message that a pooler would refuse, if any */
function refusedStartupParameter(message: Buffer): string | undefined {
  if (message.readInt32BE(4) !== PROTOCOL_3) return undefined // SSL, GSS or cancel request
  const fields = message.subarray(8).toString('utf8').split('\0')
  for (let i = 0; i + 1 < fields.length && fields[i]; i += 2)
    if (!POOLER_STARTUP_PARAMETERS.has(fields[i].toLowerCase())) return fields[i]
  return undefined
}

/** a FATAL ErrorResponse, as a pooler answers a startup it refuses */
function fatal(message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C08P01\0M${message}\0\0`, 'utf8')
  const head = Buffer.alloc(5)
  head.write('E')
  head.writeInt32BE(4 + fields.length, 1)
  return Buffer.concat([head, fields])
}

/**
 * A TCP proxy on loopback to PostgreSQL: cut() closes its port and every connection through it, open()
 * listens again; freeze() holds every byte (a database that stops answering), thaw() lets them through;
 * with `latencyMs`, every chunk is passed on that long after it came (a slow or distant database).
 * Like PgBouncer, it refuses a connection whose startup message carries a parameter it does not know.
 */
function databaseProxy(listenPort: number, target: URL, { latencyMs = 0 } = {}) {
  const sockets = new Set<net.Socket>()
  let server: net.Server | undefined
  let frozen = false
  const track = (s: net.Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
    s.on('error', () => s.destroy())
    if (frozen) s.pause()
  }
  return {
    url: (() => {
      const u = new URL(target)
      u.hostname = '127.0.0.1'
      u.port = String(listenPort)
      return u.toString()
    })(),
    open: () =>
      new Promise<void>((resolve, reject) => {
        server = net.createServer((downstream) => {
          track(downstream)
          // the client's startup message first, whole (its length leads it)
          let head = Buffer.alloc(0)
          const startup = (chunk: Buffer) => {
            head = Buffer.concat([head, chunk])
            if (head.length < 8 || head.length < head.readInt32BE(0)) return
            downstream.off('data', startup)
            downstream.pause()
            const refused = refusedStartupParameter(head.subarray(0, head.readInt32BE(0)))
            if (refused) return void downstream.end(fatal(`unsupported startup parameter: ${refused}`))
            const upstream = net.connect(Number(target.port), target.hostname)
            track(upstream)
            upstream.write(head)
            if (latencyMs) {
              const later = (from: net.Socket, to: net.Socket) =>
                from.on('data', (chunk) => setTimeout(() => to.destroyed || to.write(chunk), latencyMs))
              later(downstream, upstream)
              later(upstream, downstream)
              downstream.resume()
            } else downstream.pipe(upstream).pipe(downstream)
            downstream.on('close', () => upstream.destroy())
            upstream.on('close', () => downstream.destroy())
            if (frozen) for (const s of [downstream, upstream]) s.pause()
          }
          downstream.on('data', startup)
        })
        server.once('error', reject)
        server.listen(listenPort, '127.0.0.1', () => resolve())
      }),
    freeze: () => {
      frozen = true
      for (const s of sockets) s.pause()
    },
    thaw: () => {
      frozen = false
      for (const s of sockets) s.resume()
    },
    cut: () =>
      new Promise<void>((resolve) => {
        if (!server?.listening) return resolve()
        server.close(() => resolve())
        for (const s of sockets) s.destroy()
      }),
  }
}

test('not ready while the database is unreachable (not answering, its port closed, its connections cut); ready again when it is back; behind a pooler that refuses unknown startup parameters', async () => {
  const token = randomBytes(16).toString('hex')
  const proxy = databaseProxy(port + 175, new URL(MAIN_URL))
  await proxy.open()
  cleanups.push(proxy.cut)
  const instance = await startInstance(port + 170, {
    DATABASE_URL: proxy.url,
    METRICS_TOKEN: token,
    SCHEDULER: 'off',
    NOTIFICATIONS_WORKER: 'off',
  })
  instances.push(instance)
  assertReady(await ready(instance.base))
  assert.equal((await scrape(instance.base, token)).value('payin_db_stats_up'), 1)

  // a database that stops answering: readiness says so (its probe gives up after 2 s) rather than hang, which the
  // test's own timeout would catch; how fast is the bench's to measure, not a timed assertion's
  proxy.freeze()
  assertNotReady(await ready(instance.base), /database unreachable/i)
  proxy.thaw()
  await until('readiness to come back', async () => (await ready(instance.base)).status === 200)

  await proxy.cut()
  assert.ok(await refusesConnections(port + 175), "nothing listens on the database's port now")
  assertNotReady(await ready(instance.base), /database unreachable/i)
  assertNotReady(await ready(instance.base), /database unreachable/i)
  assertErrorShape(await request('GET', '/api/health', { base: instance.base }), 503, 'service.unavailable')
  // the metrics still answer: the process's own, and the database's read reported as failed
  const m = await scrape(instance.base, token)
  assert.equal(m.value('payin_db_stats_up'), 0)
  // the database's gauges have no sample (not 0: an alert on them must not see "all clear")
  for (const name of [
    'payin_payments',
    'payin_notifications',
    'payin_notification_outbox_backlog',
    'payin_notification_outbox_oldest_pending_age_seconds',
    'payin_scheduler_lag_seconds',
  ])
    assert.equal(m.samples.filter((s) => s.name === name).length, 0, `${name} has samples`)
  assert.ok(m.value('process_cpu_seconds_total')! > 0)
  assert.ok(m.count('payin_http_requests_total', { method: 'GET', route: '/api/ready', status: '503' }) >= 2)

  await proxy.open()
  await until('readiness to come back', async () => (await ready(instance.base)).status === 200)
  assertReady(await ready(instance.base))
  assert.equal((await scrape(instance.base, token)).value('payin_db_stats_up'), 1)
})

test('concurrent readiness checks on a slow database (each round trip 300 ms, well within the probe\'s 2 s): every one ready, none queued behind the others into "Database unreachable"', async () => {
  const proxy = databaseProxy(port + 177, new URL(MAIN_URL), { latencyMs: 150 })
  await proxy.open()
  cleanups.push(proxy.cut)
  const instance = await startInstance(port + 172, {
    DATABASE_URL: proxy.url,
    SCHEDULER: 'off',
    NOTIFICATIONS_WORKER: 'off',
  })
  instances.push(instance)
  assertReady(await ready(instance.base))
  // queued one behind another, 40 checks of 300 ms each would pass the probe's 2 s and answer "Database unreachable"
  for (let round = 0; round < 2; round++) {
    const answers = await Promise.all(Array.from({ length: 40 }, () => ready(instance.base)))
    assertAllReady(answers, `round ${round}`)
  }
})

/** one request on `agent` (keep-alive, one socket), with whether it reused that socket */
function send(
  agent: http.Agent,
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any; reusedSocket: boolean }>(
    (resolve, reject) => {
      const req = http.request(`${base}${target}`, { method, agent, headers }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => {
          try {
            // as the document says, like every answer a fetch receives (the request's JSON body too, for a 2xx)
            const json = /json/i.test(headers['Content-Type'] ?? '')
            assertDocumented({
              method,
              path: target,
              status: res.statusCode!,
              headers: res.headers as Record<string, string | undefined>,
              text,
              requestBody: json ? body : undefined,
            })
            resolve({
              status: res.statusCode!,
              headers: res.headers,
              body: text ? JSON.parse(text) : undefined,
              reusedSocket: req.reusedSocket,
            })
          } catch (e) {
            reject(e)
          }
        })
      })
      req.on('error', reject)
      req.end(body)
    },
  )
}

test('during the drain after SIGTERM: 503 on a connection still open, while the request in flight finishes', async () => {
  const instance = await startInstance(port + 180, { SCHEDULER: 'off', NOTIFICATIONS_WORKER: 'off' })
  instances.push(instance)
  const site = await newSite('drain')
  const paymentId = await client(site, '/api', instance.base).newPayment(cardPayment())
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  cleanups.push(async () => agent.destroy())
  const first = await send(agent, instance.base, 'GET', '/api/ready')
  assert.equal(first.status, 200)

  // the payment's row locked by the test: a refund sent on the kept-alive connection stays in flight
  const holder = await session(MAIN_URL)
  await holder.query('BEGIN')
  await holder.query('SELECT 1 FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2 FOR UPDATE', [
    site.siteId,
    paymentId,
  ])
  const refund = send(
    agent,
    instance.base,
    'PUT',
    `/api/sites/${site.siteId}/payments/${paymentId}/refunds/${uid('ref')}`,
    { Authorization: `Bearer ${site.token}`, 'Content-Type': 'application/json' },
    JSON.stringify({ amount: rub('1.00') }),
  )
  const watcher = await session(MAIN_URL)
  await until('the refund to wait for the row lock', async () => {
    const { rows } = await watcher.query(
      `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
      [`payin-${instance.proc.pid}`],
    )
    return rows.length > 0
  })

  instance.kill('SIGTERM')
  // the instance has taken the signal once it refuses new connections
  await until('new connections to be refused', () => refusesConnections(port + 180))
  await holder.query('COMMIT')
  const refunded = await refund
  assert.equal(refunded.status, 200)
  assert.equal(refunded.body.status.value, 'COMPLETED')

  // the connection is still open: readiness, asked on it, says the instance is going away
  const draining = await send(agent, instance.base, 'GET', '/api/ready')
  assert.equal(draining.reusedSocket, true, 'asked on the connection kept open')
  assert.equal(draining.status, 503)
  assert.equal(draining.body.errorCode, 'service.unavailable')
  assert.match(draining.body.description, /shutting down/i)
  assert.equal(draining.headers.connection, 'close')
  const code = await Promise.race([
    instance.exited,
    new Promise((r) => setTimeout(() => r('still running'), 15_000).unref()),
  ])
  assert.equal(code, 143, 'the instance exits once its connections are done')
})
