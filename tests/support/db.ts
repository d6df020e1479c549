// Direct database access for tests that move stored time back (no waiting 15 minutes or days) or that
// check what was written.
import { after, before } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'

export async function sql<T extends pg.QueryResultRow = any>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    return (await client.query<T>(text, params)).rows
  } finally {
    await client.end()
  }
}

/**
 * A database of the test's own beside the suite's (on the same server), made afresh and migrated: its
 * URL. For tests whose instances must see no other test's rows (or whose rows no other instance may take).
 */
export async function freshDatabase(name: string): Promise<string> {
  const main = process.env.DATABASE_URL!
  const admin = new pg.Client({ connectionString: main })
  await admin.connect()
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  const url = main.replace(/\/[^/?]+(\?|$)/, `/${name}$1`)
  const { applyMigrations } = await import('../../lib/db/migrations.ts')
  await applyMigrations(url)
  return url
}

/** drops a database freshDatabase made (its connections ended) */
export async function dropDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await admin.connect()
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  } finally {
    await admin.end()
  }
}

/**
 * Two sessions of the test's own on the suite's database, connected before the tests of the file (or of the describe
 * this is called in) and ended after them: `holder` holds the locks a step is made to wait for, `watcher` sees who
 * waits (pg_locks).
 */
export function lockSessions(): { readonly holder: pg.Client; readonly watcher: pg.Client } {
  const s = {} as { holder: pg.Client; watcher: pg.Client }
  before(async () => {
    s.holder = new pg.Client({ connectionString: process.env.DATABASE_URL })
    s.watcher = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await s.holder.connect()
    await s.watcher.connect()
  })
  after(async () => {
    await s.holder?.end()
    await s.watcher?.end()
  })
  return s
}

/** the sessions waiting, directly or behind another waiter, for the locks `holder` holds */
async function lockWaiters(watcher: pg.Client, holder: pg.Client): Promise<number> {
  const { rows } = await watcher.query(
    `WITH RECURSIVE chain(pid) AS (
       SELECT $1::int
       UNION SELECT a.pid FROM pg_stat_activity a JOIN chain c ON c.pid = ANY (pg_blocking_pids(a.pid)))
     SELECT count(*)::int - 1 AS n FROM chain`,
    [(holder as unknown as { processID: number }).processID],
  )
  return rows[0].n
}

/** polls until at least `n` sessions wait for the holder's locks (deadline 10 s) */
export async function untilWaiting(watcher: pg.Client, holder: pg.Client, n: number): Promise<void> {
  const deadline = Date.now() + 10_000
  while ((await lockWaiters(watcher, holder)) < n) {
    if (Date.now() > deadline) throw new Error(`fewer than ${n} sessions wait for the test's lock`)
    await sleep(20)
  }
}

/** what PostgreSQL has counted on a table: rows read (by index or whole), inserted and updated */
export interface TableStats {
  reads: number
  inserts: number
  updates: number
}

/** `table`'s counts (backends report theirs when they go idle, within seconds: poll with `until`) */
export async function tableStats(table: string): Promise<TableStats> {
  const [row] = await sql<TableStats>(
    `SELECT (coalesce(idx_tup_fetch, 0) + seq_tup_read)::int AS reads, n_tup_ins::int AS inserts, n_tup_upd::int AS updates
     FROM pg_stat_user_tables WHERE relname = $1`,
    [table],
  )
  return row
}

/** polls `read` (a deadline, not a sleep for ordering) until `check` holds of what it answers; that answer */
export async function until<T>(
  what: string,
  read: () => Promise<T> | T,
  check: (v: T) => boolean,
  ms = 120_000,
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await read()
    if (check(v)) return v
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)}`)
    await sleep(100)
  }
}
