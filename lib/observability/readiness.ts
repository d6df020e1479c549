// Readiness (GET /api/ready): whether this instance should be sent requests now. Not ready while it
// drains for a shutdown, while its database does not answer (within the probe's 2 s), or while a
// migration of this build is not recorded finished in `_prisma_migrations`: "running" when an instance
// holds the migration lock meanwhile, "pending" when none does. Once every migration of this build is
// recorded, the instance is ready whatever the lock: a newer version migrating the shared database (a
// rolling deploy), or any instance's brief check at its start, takes no instance of this version out.
// Liveness (GET /api/health) stays the simpler check.
// One round trip on readiness's own probe connection (never the metrics'): the lock is looked up in
// pg_locks, never taken. Concurrent checks share one round trip (databaseReadiness).
import { probeQuery } from '../db/client'
import { MIGRATION_LOCK_KEY, migrationNames } from '../db/migrations'
import { singleFlight } from '../single-flight'
import { isDraining } from './draining'

export type Readiness = { ready: true } | { ready: false; reason: string }

// an advisory lock on a bigint key shows in pg_locks as classid (its high 32 bits), objid (its low 32 bits), objsubid 1
const LOCK_SQL = `
SELECT EXISTS (
  SELECT 1 FROM pg_locks
  WHERE locktype = 'advisory' AND granted AND objsubid = 1
    AND classid = ${Math.floor(MIGRATION_LOCK_KEY / 2 ** 32)}::oid AND objid = ${MIGRATION_LOCK_KEY % 2 ** 32}::oid
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS migrating`
const APPLIED_SQL = `SELECT migration_name::text AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`

/** this build's migrations (its files do not change while it runs): read once they could be */
let expected: string[] | undefined

/**
 * whether the migration lock is held, and which migrations are recorded finished (none: no `_prisma_migrations` yet)
 */
async function migrationState(): Promise<{ migrating: boolean; applied: Set<string> }> {
  try {
    const [[lock], applied] = await probeQuery<{ migrating: boolean; name: string }>(
      'readiness',
      `${LOCK_SQL};\n${APPLIED_SQL}`,
    )
    return { migrating: lock.migrating, applied: new Set(applied.map((r) => r.name)) }
  } catch (e) {
    // no `_prisma_migrations` table: nothing was ever migrated (or the first migration is starting)
    if ((e as { code?: string }).code !== '42P01') throw e
    const [[lock]] = await probeQuery<{ migrating: boolean }>('readiness', LOCK_SQL)
    return { migrating: lock.migrating, applied: new Set() }
  }
}

export async function readiness(): Promise<Readiness> {
  if (isDraining())
    return { ready: false, reason: 'Shutting down: this instance finishes the requests under way and takes no more' }
  return databaseReadiness()
}

/**
 * The database's part, one check at a time: concurrent readiness requests (a burst of probes, several
 * load balancers) share the check under way, so that none waits behind the others for the probe's one
 * connection. A check that starts answers within the probe's timeout; one joined answers sooner.
 */
const databaseReadiness = singleFlight(async (): Promise<Readiness> => {
  try {
    expected ??= migrationNames()
  } catch (e) {
    return {
      ready: false,
      reason: `This version's migrations cannot be read (prisma/migrations: ${(e as { code?: string }).code ?? 'unreadable'})`,
    }
  }
  let state: Awaited<ReturnType<typeof migrationState>>
  try {
    state = await migrationState()
  } catch {
    return { ready: false, reason: 'Database unreachable' }
  }
  const missing = expected.filter((name) => !state.applied.has(name))
  if (!missing.length) return { ready: true }
  const count = `${missing.length} of this version's ${expected.length} not applied`
  return {
    ready: false,
    reason: state.migrating ? `Database migrations running: ${count} yet` : `Database migrations pending: ${count}`,
  }
})
