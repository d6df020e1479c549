// Readiness (GET /api/ready): whether this instance should be sent requests now. Not ready while it
// drains for a shutdown, while its database does not answer (within the probe's 2 s), while a migration
// is being applied (another instance holds the migration lock), or while any migration of this build is
// not recorded finished in `_prisma_migrations`. Liveness (GET /api/health) stays the simpler check.
// One statement on the probes' connection: the lock is looked up in pg_locks, never taken.
import { probeQuery } from '../db/client'
import { MIGRATION_LOCK_KEY, migrationNames } from '../db/migrations'
import { isDraining } from './draining'

export type Readiness = { ready: true } | { ready: false; reason: string }

// an advisory lock on a bigint key shows in pg_locks as classid (its high 32 bits), objid (its low 32 bits), objsubid 1
const READINESS_SQL = `
SELECT
  EXISTS (
    SELECT 1 FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND classid = $1::oid AND objid = $2::oid
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS migrating,
  (SELECT coalesce(array_agg(migration_name::text), '{}') FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL) AS applied`

const LOCK_HIGH = Math.floor(MIGRATION_LOCK_KEY / 2 ** 32)
const LOCK_LOW = MIGRATION_LOCK_KEY % 2 ** 32

/** this build's migrations (its files do not change while it runs) */
let expected: string[] | undefined

export async function readiness(): Promise<Readiness> {
  if (isDraining()) return { ready: false, reason: 'Shutting down: this instance finishes the requests under way and takes no more' }
  let row: { migrating: boolean; applied: string[] }
  try {
    ;[[row]] = await probeQuery<{ migrating: boolean; applied: string[] }>(READINESS_SQL, [LOCK_HIGH, LOCK_LOW])
  } catch (e) {
    // no `_prisma_migrations` table: nothing was ever migrated
    if ((e as { code?: string }).code === '42P01') return { ready: false, reason: 'Database migrations pending: the database has none applied' }
    return { ready: false, reason: 'Database unreachable' }
  }
  if (row.migrating) return { ready: false, reason: 'Database migrations running' }
  expected ??= migrationNames()
  const applied = new Set(row.applied)
  const missing = expected.filter((name) => !applied.has(name))
  if (missing.length) return { ready: false, reason: `Database migrations pending: ${missing.length} of this version's ${expected.length} not applied` }
  return { ready: true }
}
