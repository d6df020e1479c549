// The one way to write a site's data: its payments, bills, captures, refunds, completions, due changes,
// notification re-sends and delivery attempts. A write runs behind the site's gate, a PostgreSQL
// advisory lock of the site taken shared by every write and exclusively by what moves the site's clock
// (a sandbox reset, a clock advance: siteClockMove). Writes do not wait for each other; a reset or an
// advance waits for the writes under way, and the writes that start meanwhile wait behind it, then run
// on the clock it left (heavyweight locks queue in order: a waiting reset is not starved by a stream of
// writes). So no write is half deleted by a reset, and none is dated on a clock the site no longer has.
//
// The gate replaces a share lock on the site's row (FOR KEY SHARE), whose MultiXact ids (one for every
// new set of concurrent lockers of the row) forced anti-wraparound vacuums under sustained load; an
// advisory lock writes nothing. The key is two int4s, (SITE_GATE, hashtext(siteId)): a namespace of its
// own beside the bigint keys of the delivery claim and the migrations (pg_locks shows it with objsubid 2,
// theirs with objsubid 1, which readiness looks for). Two sites whose ids hash alike share a gate: a
// reset of one then also waits for the other's writes, nothing worse.
//
// siteWrite: a transaction that waits for the gate, then reads the clock in a later statement (at READ
// COMMITTED each statement has a new snapshot: the clock as a reset or an advance that was waited for left
// it), held still until the transaction ends. Statement writes (the one-statement card payment, a bill):
// statementGate, which takes the gate without waiting or closes; the caller then makes the write with
// siteWrite. The scheduler passes over a site whose gate is closed (gateOpenFor). SANDBOX_CLOCK=off: no
// clock to move, no reset: no gate, and every site on real time.
import { AsyncLocalStorage } from 'node:async_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { settings } from '../config'
import { db, withRetry, type Tx } from '../db/client'

// the transaction a write's work is given
export type { Tx }

// a write that lost a race to another (a deadlock, a serialization failure): what the retries here retry
export { isRetryable } from '../db/client'
import { Prisma } from '../generated/prisma/client'
import { serviceUnavailable } from '../http/api-error'
import { clockAt, REAL_TIME, type SiteClock } from '../time/clock'

// ---- the site's clock in statements (lib/sandbox/site-clock.ts re-exports these)

/** the clock of a site offset by `storedOffsetMs` (the column's value), as the setting allows */
export const clockOf = (storedOffsetMs: bigint | number | null | undefined): SiteClock =>
  settings().sandboxClock && storedOffsetMs ? clockAt(Number(storedOffsetMs)) : REAL_TIME

/**
 * The offset of the site row `alias` in a statement, as an interval (0 with SANDBOX_CLOCK=off): what a
 * statement adds to real time to get the site's time, e.g. `"dueAt" <= ${now} + ${siteOffset('s')}`.
 */
export const siteOffset = (alias: string): Prisma.Sql => offsetInterval(`"${alias}"."clockOffsetMs"`)

/**
 * a column holding a site's clock offset (milliseconds), as an interval (0 with SANDBOX_CLOCK=off: every site on real
 * time)
 */
export const offsetInterval = (column: string): Prisma.Sql =>
  settings().sandboxClock
    ? Prisma.raw(`(coalesce(${column}, 0) * interval '1 millisecond')`)
    : Prisma.raw(`interval '0'`)

/**
 * The ids of the rows of `table` (alias `x` in `where`) whose due time `column` has come on their site's
 * clock, or a superset of them (a statement still compares each with its own site's time): those due on
 * real time, and, of every site whose clock is ahead, those due by its own time. Each part is a range of
 * an index (`column` alone for the first, ("siteId", …, `column`) for the second): a site advanced by
 * years brings its own rows into the set, not every site's rows up to its time. The set is built whole,
 * once per statement: for statements that need every due row (the delivery claim's per-site places, the
 * metrics' backlog). To take the first due rows, a batch at a time, the scheduler scans each range in order
 * and stops after the batch (lockDue, for lib/scheduler/time-driven-changes.ts): with this set it would read the
 * whole backlog for each batch taken. Offsets only grow from 0, so a row due on real time is due on its site's
 * clock too. `now`: real time as the statement has it; `columns`: what each row gives (its id unless said).
 */
export function dueOnSiteClock(
  table: 'Payment' | 'Bill' | 'Notification',
  column: string,
  now: Prisma.Sql,
  where: Prisma.Sql,
  columns: Prisma.Sql = Prisma.sql`x.id`,
): Prisma.Sql {
  const t = Prisma.raw(`"${table}"`)
  const c = Prisma.raw(`x."${column}"`)
  const realTime = Prisma.sql`SELECT ${columns} FROM ${t} x WHERE ${c} <= ${now} AND ${where}`
  if (!settings().sandboxClock) return realTime
  return Prisma.sql`${realTime}
    UNION ALL
    SELECT ${columns} FROM "Site" ahead JOIN ${t} x ON x."siteId" = ahead.id
    WHERE ahead."clockOffsetMs" > 0 AND ${c} > ${now} AND ${c} <= ${now} + ahead."clockOffsetMs" * interval '1 millisecond' AND ${where}`
}

// ---- the site's gate

/** the first int4 of every site's gate key: "site" in ASCII */
export const SITE_GATE = 0x73697465

/** the gate's key for the site id `siteId` (a value, or a column of the statement) */
const gateKey = (siteId: string | Prisma.Sql) => Prisma.sql`${SITE_GATE}::int4, hashtext(${siteId}::text)`

/**
 * The site whose gate the running code holds through siteWrite or siteClockMove. A second one inside it would wait,
 * on another connection, for a gate the first holds — the same site's, or another's whose id hashes alike — behind
 * a reset asked for in between: a wait PostgreSQL cannot see as a deadlock. Any nested one is refused at once.
 */
const heldGate = new AsyncLocalStorage<string>()

function holdingGate<T>(siteId: string, run: () => Promise<T>): Promise<T> {
  const held = heldGate.getStore()
  if (held !== undefined)
    throw new Error(`a write of site ${siteId} was opened inside one of site ${held}: nest the work instead`)
  return heldGate.run(siteId, run)
}

/**
 * Every transaction here runs at READ COMMITTED, whatever the database's default: the clock is read in a statement
 * after the gate's wait and must see what a reset or an advance waited for left (under REPEATABLE READ the snapshot
 * of the gate's statement, from before the wait, would answer the old clock).
 */
const READ_COMMITTED = { isolationLevel: Prisma.TransactionIsolationLevel.ReadCommitted }

/**
 * How long what moves the clock waits for the gate at a time, and how often it asks: the gate's queue is fair, so
 * it gets in once the writes under way finish; a write stuck for longer (a transaction left open) keeps it out,
 * with the writes queued behind it. It then gives up, lets the site run for a moment and asks again; at the last
 * it answers 503 having done nothing — not a 500, nor a request that waits for as long as that write does.
 */
const CLOCK_MOVE_LOCK_WAIT = '2s'
const CLOCK_MOVE_TRIES = 3

/** PostgreSQL's lock timeout: what moves the clock waited CLOCK_MOVE_LOCK_WAIT for the gate in vain */
const isLockTimeout = (e: unknown) => /lock timeout/i.test(String((e as Error)?.message ?? ''))

/** how often a write that lost a race (a deadlock, a serialization failure, a unique key taken) is made */
const ATTEMPTS = 5

/**
 * A write of the site's data: `work` in one transaction behind the site's gate, given the site's clock
 * (real time for a site that does not exist), which stays still until it commits. Made again from the
 * start, `attempts` times at most, when it lost a race to another request (lib/db/client.ts isRetryable);
 * `attempts: 1` for a caller that retries itself.
 */
export async function siteWrite<T>(
  siteId: string,
  work: (tx: Tx, clock: SiteClock) => Promise<T>,
  o: { attempts?: number } = {},
): Promise<T> {
  return holdingGate(siteId, () =>
    withRetry(
      () => db().$transaction(async (tx) => work(tx, await enterShared(tx, siteId)), READ_COMMITTED),
      o.attempts ?? ATTEMPTS,
    ),
  )
}

/** the gate taken shared (waiting for a reset or an advance under way or asked for), then the clock read */
async function enterShared(tx: Tx, siteId: string): Promise<SiteClock> {
  if (!settings().sandboxClock) return REAL_TIME
  await tx.$queryRaw`SELECT pg_advisory_xact_lock_shared(${gateKey(siteId)})::text`
  // a statement of its own: its snapshot is taken after the wait
  const [row] = await tx.$queryRaw<
    { offset: bigint }[]
  >`SELECT "clockOffsetMs" AS offset FROM "Site" WHERE id = ${siteId}`
  return clockOf(row?.offset)
}

/**
 * What moves the site's clock — a sandbox reset, a clock advance — made in one transaction (READ COMMITTED)
 * holding the site's gate exclusively: the writes under way finish first, those that start meanwhile wait.
 * Waits for the gate CLOCK_MOVE_LOCK_WAIT at a time, CLOCK_MOVE_TRIES times, then throws a 503 saying `busy`.
 */
export async function siteClockMove<T>(siteId: string, work: (tx: Tx) => Promise<T>, busy: string): Promise<T> {
  return holdingGate(siteId, async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await clockMoveTransaction(siteId, work)
      } catch (e) {
        if (!isLockTimeout(e)) throw e
        if (attempt >= CLOCK_MOVE_TRIES) throw serviceUnavailable(busy)
        await sleep(Math.random() * 20 * attempt)
      }
    }
  })
}

function clockMoveTransaction<T>(siteId: string, work: (tx: Tx) => Promise<T>) {
  return db().$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${CLOCK_MOVE_LOCK_WAIT}'`)
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(${gateKey(siteId)})::text`
    await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = 0`)
    return work(tx)
  }, READ_COMMITTED)
}

/**
 * The WITH-clause part of a one-statement write of the site: `site_gate`, one row whose `open` says whether
 * the statement holds the site's gate (shared, to its end). It is taken without waiting: a reset or an
 * advance under way, or asked for, closes it; the statement then writes nothing and the caller makes the
 * write with siteWrite, which waits. Evaluated once per statement (MATERIALIZED, and volatile), and only
 * when the statement reads `gateIsOpen`: keep that among the conditions every written row passes.
 *
 * The statement's snapshot is taken before the gate, so a reset or an advance that ended in between is not
 * seen: such a statement may write only on real time (offset 0) and only while the offset it reads is 0
 * (stillOnClock), which a reset leaves and which an advance in between makes a write just before it.
 */
export const statementGate = (siteId: string): Prisma.Sql =>
  settings().sandboxClock
    ? Prisma.sql`site_gate AS MATERIALIZED (SELECT pg_try_advisory_xact_lock_shared(${gateKey(siteId)}) AS open)`
    : Prisma.sql`site_gate AS (SELECT true AS open)`

/** the condition (after a WHERE) that the statement holds the site's gate (statementGate) */
export const gateIsOpen = Prisma.sql` AND (SELECT open FROM site_gate)`

/**
 * The condition (after a WHERE) that the gate of the site in `column` is open, for a statement that picks
 * a row of any site (the scheduler's due changes): taken shared without waiting, for each row the condition
 * is evaluated on, until the transaction ends; a row of a site being reset or advanced is passed over (the
 * advance applies what it made due itself). None with SANDBOX_CLOCK=off.
 */
export const gateOpenFor = (column: string): Prisma.Sql =>
  settings().sandboxClock
    ? Prisma.sql` AND pg_try_advisory_xact_lock_shared(${gateKey(Prisma.raw(column))})`
    : Prisma.empty

/** a row the scheduler took, with its site's clock offset (null: the site is gone) */
export type DueRow<T> = T & { siteOffsetMs: bigint | null }

/** which due rows the scheduler takes: `limit` at most, none of `skip`, and only some of `only` when it is given */
export interface DueTake {
  limit: number
  skip: string[]
  only?: string[]
}

/** a batch's LIMIT, a literal: the plan is the same whatever the batch's size (an index range stopped early) */
export const dueLimit = (take: DueTake): Prisma.Sql => Prisma.raw(String(Math.max(1, Math.trunc(take.limit))))

/**
 * Locks the rows of `table` (alias `x` in `where`) whose due time `column` came first on their site's clock, `limit` at
 * most, none of `skip` (of the one site `siteId`, or of any), with their site's offset, earliest first: the
 * scheduler's batch of changes (waiting payments' due changes, holds to confirm, postponed refunds to process). They
 * are taken behind their sites' gates as every write of a site (gateOpenFor), passing over the rows of a site whose
 * sandbox reset (they are being deleted) or clock advance (which applies them itself) is under way. The gate is taken
 * for each row the condition is evaluated on, before the row's lock: a row passed over for its site is then not left
 * locked by this transaction. Only due rows are such rows: a gate per site ahead, taken before its rows were looked
 * at, would fill PostgreSQL's lock table once tens of thousands of sites run ahead.
 *
 * The offset is the statement's snapshot's, which may predate an advance that ended just before the gate was
 * taken: the change is then applied at a time before the site's, when it was due all the same (a change is dated
 * at its due time, and a reset in between deleted the row, which the row lock then passes over). Each lookup is
 * one ordered range of an index (`column`; ("siteId", `column`)), stopped after `limit` rows that are not locked, so
 * its work does not grow with the number of changes due (a backlog is drained in linear time): first the rows due
 * on real time (due on every site's clock, as offsets only grow from 0), then, only when none is left, of the sites
 * whose clock is ahead, the first rows due by each one's own time. (dueOnSiteClock builds the whole set instead.)
 */
export async function lockDue<T>(
  tx: Tx,
  q: { table: 'Payment' | 'Refund'; column: string; where?: Prisma.Sql; now: Date; take: DueTake; siteId?: string },
): Promise<DueRow<T>[]> {
  const t = Prisma.raw(`"${q.table}"`)
  const c = Prisma.raw(`x."${q.column}"`)
  const limit = dueLimit(q.take)
  const only = q.take.only ? Prisma.sql` AND x.id = ANY(${q.take.only}::uuid[])` : Prisma.empty
  const also = Prisma.sql`${q.where ? Prisma.sql` AND ${q.where}` : Prisma.empty} AND NOT (x.id = ANY(${q.take.skip}::uuid[]))${only}`
  const ofSite = q.siteId ? Prisma.sql` AND x."siteId" = ${q.siteId}` : Prisma.empty
  const onRealTime = await tx.$queryRaw<DueRow<T>[]>`
    SELECT x.*, s."clockOffsetMs" AS "siteOffsetMs" FROM ${t} x JOIN "Site" s ON s.id = x."siteId"
    WHERE ${c} <= ${q.now}::timestamptz${also}${ofSite}${gateOpenFor('x."siteId"')}
    ORDER BY ${c} LIMIT ${limit} FOR UPDATE OF x SKIP LOCKED`
  if (onRealTime.length || !settings().sandboxClock) return onRealTime
  // each site's rows come in order, one site after another: no ORDER BY over them all (it would lock every ahead
  // site's first rows before the LIMIT); the batch is put in order here
  const onSiteClock = await tx.$queryRaw<DueRow<T>[]>`
    SELECT x.*, ahead."clockOffsetMs" AS "siteOffsetMs" FROM "Site" ahead CROSS JOIN LATERAL (
      SELECT x.* FROM ${t} x
      WHERE x."siteId" = ahead.id AND ${c} > ${q.now}::timestamptz
        AND ${c} <= ${q.now}::timestamptz + ahead."clockOffsetMs" * interval '1 millisecond'${also}${gateOpenFor('x."siteId"')}
      ORDER BY ${c} LIMIT ${limit} FOR UPDATE OF x SKIP LOCKED) x
    WHERE ahead."clockOffsetMs" > 0${q.siteId ? Prisma.sql` AND ahead.id = ${q.siteId}` : Prisma.empty} LIMIT ${limit}`
  const dueOf = (row: DueRow<T>) => (row as Record<string, unknown>)[q.column] as Date
  return onSiteClock.sort((a, b) => dueOf(a).getTime() - dueOf(b).getTime())
}

/**
 * A transaction whose first statement picks the row to write, of whichever site, with gateOpenFor (the
 * scheduler's due changes): made again from the start when it lost a race.
 */
export const pickedSiteWrite = <T>(work: (tx: Tx) => Promise<T>): Promise<T> =>
  withRetry(() => db().$transaction(work, READ_COMMITTED), ATTEMPTS)

/**
 * The condition (after a WHERE) that the offset in `column` is still `clock`'s: a write judged on that clock
 * is made only while the site has it (none with SANDBOX_CLOCK=off: every site on real time).
 */
export const stillOnClock = (column: string, clock: SiteClock): Prisma.Sql =>
  settings().sandboxClock ? Prisma.sql` AND ${Prisma.raw(column)} = ${String(clock.offsetMs)}::bigint` : Prisma.empty
