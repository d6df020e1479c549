// The one database pool of a process (`DATABASE_POOL_SIZE` connections), shared by the Prisma client
// and the plain statements of the hot paths (`sqlRows`: `pg` directly, without Prisma's runtime).
import { createHash } from 'node:crypto'
import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { PrismaClient, type Prisma } from '../generated/prisma/client'
import { settings } from '../config'
import { logLine } from '../log/log-line'
import { recordStatements } from './statement-log'

export type Db = PrismaClient
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>

const holder = globalThis as unknown as {
  payinDb?: PrismaClient
  payinPool?: pg.Pool
  payinProbePools?: Partial<Record<Probe, pg.Pool>>
}

/**
 * Statements are prepared once per connection (a named statement: PostgreSQL parses it once, and
 * plans it once it has seen it a few times) under a name derived from their text. Only a bounded
 * number of texts gets a name: statements are built from fixed templates, but should some code build
 * texts without bound, the rest run unnamed rather than fill every connection with prepared statements.
 */
const MAX_NAMED_STATEMENTS = 500
const statementNames = new Map<string, string>()
function statementName(text: string): string | undefined {
  let name = statementNames.get(text)
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `s${createHash('sha1').update(text).digest('base64url')}`
    statementNames.set(text, name)
  }
  return name
}

function pool(): pg.Pool {
  if (!holder.payinPool) {
    const connectionString = process.env.DATABASE_URL
    if (!connectionString) throw new Error('DATABASE_URL is not set')
    // application_name tells this instance's sessions apart in pg_stat_activity
    const created = new pg.Pool({
      connectionString,
      max: settings().databasePoolSize,
      application_name: `payin-${process.pid}`,
    })
    // an idle connection's error (the server restarted, failed over, or ended the session) is the pool's
    // to report; with no listener Node would end the process. The pool drops that connection.
    created.on('error', (e) =>
      logLine({ level: 'warn', kind: 'database', message: `idle database connection lost: ${e.message}` }),
    )
    recordStatements(created)
    holder.payinPool = created
  }
  return holder.payinPool
}

/** the request pool's numbers now (all 0 before its first use): connections open, idle, and requests waiting for one */
export function poolStats(): { max: number; total: number; idle: number; waiting: number } {
  const p = holder.payinPool
  return {
    max: settings().databasePoolSize,
    total: p?.totalCount ?? 0,
    idle: p?.idleCount ?? 0,
    waiting: p?.waitingCount ?? 0,
  }
}

/** how long a probe may wait for its connection, and its statement may run */
export const PROBE_TIMEOUT_MS = 2000

/** who reads on a probe connection: each has its own, so that a slow scrape never holds up readiness */
export type Probe = 'readiness' | 'metrics'

/**
 * a probe's connection: its connection attempt (not a wait for the pool's one connection) bounded by PROBE_TIMEOUT_MS
 */
class ProbeClient extends pg.Client {
  constructor(config: pg.ClientConfig = {}) {
    super({ ...config, connectionTimeoutMillis: PROBE_TIMEOUT_MS })
  }
}

/**
 * A probe's own connection (readiness; the metrics' reads of the database): one each, opened when needed
 * and closed after 10 s idle, so that a probe answers within PROBE_TIMEOUT_MS even when the request pool
 * is exhausted or the other probe's statement is slow, and concurrent probes of one kind never take more
 * than that one connection. Each kind runs one probe at a time (its callers share the one under way:
 * singleFlight), so a probe seldom waits for the connection; when it does, that wait is not a timeout of
 * its own (the pool's connectionTimeoutMillis would also bound it, and a busy connection would read as an
 * unreachable database): the probe ahead ends within its own timeouts. Only standard startup parameters
 * are sent (user, database, application_name): a pooler such as PgBouncer refuses others, so the statement
 * timeout is set per statement (probeQuery).
 */
function probePool(probe: Probe): pg.Pool {
  const pools = (holder.payinProbePools ??= {})
  let created = pools[probe]
  if (!created) {
    const connectionString = process.env.DATABASE_URL
    if (!connectionString) throw new Error('DATABASE_URL is not set')
    created = new pg.Pool({
      connectionString,
      max: 1,
      idleTimeoutMillis: 10_000,
      Client: ProbeClient,
      // on this side, for a database that stops answering altogether (the connection is then dropped)
      query_timeout: PROBE_TIMEOUT_MS + 500,
      application_name: `payin-${process.pid}-${probe}`,
    })
    created.on('error', (e) =>
      logLine({ level: 'warn', kind: 'database', message: `idle ${probe} probe connection lost: ${e.message}` }),
    )
    recordStatements(created)
    pools[probe] = created
  }
  return created
}

/**
 * Statements without parameters on a probe's connection, in one round trip: each statement's rows, in
 * order. They travel as one simple-query message, which PostgreSQL runs as one transaction, led by
 * `SET LOCAL statement_timeout` (that transaction's only: nothing stays set on the connection, which
 * behind a transaction-pooling PgBouncer may next serve another client).
 */
export async function probeQuery<T>(probe: Probe, text: string): Promise<T[][]> {
  const answer = (await probePool(probe).query({
    text: `SET LOCAL statement_timeout = ${PROBE_TIMEOUT_MS};\n${text}`,
    types: rowTypes,
  })) as unknown as pg.QueryResult[]
  // the first result is the SET's
  return answer.slice(1).map((r) => r.rows as T[])
}

export function db(): PrismaClient {
  if (!holder.payinDb) {
    // Prisma's statements stay unnamed: its raw reads and RETURNING * would break as named statements when
    // a migration adds a column (see PAYMENT_COLUMNS); the pool is ours to end (closeDb)
    const adapter = new PrismaPg(pool(), { disposeExternalPool: false })
    // transactions wait for a pooled connection (and row locks) under load rather than fail fast
    holder.payinDb = new PrismaClient({ adapter, transactionOptions: { maxWait: 10_000, timeout: 20_000 } })
  }
  return holder.payinDb
}

export async function closeDb(): Promise<void> {
  // the pool is ended here whether or not Prisma ever connected (its adapter ends only a pool it used)
  await holder.payinDb?.$disconnect()
  await holder.payinPool?.end()
  for (const probe of Object.values(holder.payinProbePools ?? {})) await probe.end()
  holder.payinDb = undefined
  holder.payinPool = undefined
  holder.payinProbePools = undefined
}

// rows as Prisma's $queryRaw gives them: bigint columns as BigInt (pg's default is a string); dates,
// JSON, arrays and the rest as pg parses them, which is what Prisma's adapter does too
const BIGINT_OID = 20
const rowTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === BIGINT_OID ? BigInt : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
}

/**
 * A statement (built with Prisma.sql, so its values are parameters) run on the pool directly, prepared:
 * the hot paths' one-statement reads and writes, without Prisma's query runtime. Errors are pg's
 * (isUniqueViolation and isRetryable know them). Rows as $queryRaw gives them.
 */
export async function sqlRows<T>(statement: Prisma.Sql): Promise<T[]> {
  // Prisma.sql numbers its placeholders $1, $2… for PostgreSQL in `text`
  const text = statement.text
  const query = { name: statementName(text), text, values: statement.values as unknown[], types: rowTypes }
  // a named statement prepared before a migration changed a type it returns fails before it runs (it
  // wrote nothing); pg drops the connection that held it, so the next try prepares it afresh
  for (let attempt = 1; ; attempt++) {
    try {
      return (await pool().query(query)).rows as T[]
    } catch (e) {
      if (!isStalePlan(e) || attempt > settings().databasePoolSize) throw e
    }
  }
}

/** PostgreSQL refused a prepared statement whose result type a schema change altered */
const isStalePlan = (e: unknown) =>
  (e as { code?: string })?.code === '0A000' &&
  /cached plan must not change result type/.test(String((e as Error)?.message))

/** A JSON column's value as a statement parameter (cast with `::jsonb`): SQL NULL for none. */
export const jsonParam = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value)

export function isUniqueViolation(e: unknown): boolean {
  return (e as { code?: string })?.code === 'P2002' || /duplicate key value/.test(String((e as Error)?.message ?? ''))
}

/** P2002 unique violation, P2034 write conflict / deadlock: the operation may be retried whole. */
export function isRetryable(e: unknown): boolean {
  const code = (e as { code?: string })?.code
  if (code === 'P2002' || code === 'P2034') return true
  const msg = String((e as Error)?.message ?? '')
  return /deadlock detected|could not serialize|duplicate key value/.test(msg)
}

/** Runs `work` (one transaction), again from the start when it lost a race to another request. */
export async function withRetry<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work()
    } catch (e) {
      if (i >= attempts || !isRetryable(e)) throw e
    }
  }
}
