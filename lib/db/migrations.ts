// Applies pending prisma/migrations/*/migration.sql in order, each in its own transaction, and records
// them in `_prisma_migrations` the way Prisma does, so the stock CLI stays usable where it can run.
// An advisory lock makes concurrent starts of several instances apply each migration once.
import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'

/**
 * the advisory lock held while migrations are applied (any constant shared by all instances; readiness looks for it)
 */
export const MIGRATION_LOCK_KEY = 7243911

/** the migrations of this build, in the order they apply (folder names under `migrationsDir`) */
export function migrationNames(migrationsDir = path.resolve('prisma/migrations')): string[] {
  // read at run time from the checkout (readiness, in the Next.js bundle, too): nothing for the bundler to trace
  return fs
    .readdirSync(/* turbopackIgnore: true */ migrationsDir, { withFileTypes: true })
    .filter(
      (d) =>
        d.isDirectory() && fs.existsSync(/* turbopackIgnore: true */ path.join(migrationsDir, d.name, 'migration.sql')),
    )
    .map((d) => d.name)
    .sort()
}

export async function applyMigrations(
  databaseUrl: string,
  migrationsDir = path.resolve('prisma/migrations'),
): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const applied: string[] = []
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`)
    const done = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    )
    const doneByName = new Map(done.rows.map((r) => [r.migration_name, r.checksum]))
    for (const name of migrationNames(migrationsDir)) {
      const sql = fs.readFileSync(/* turbopackIgnore: true */ path.join(migrationsDir, name, 'migration.sql'), 'utf8')
      const checksum = createHash('sha256').update(sql).digest('hex')
      const known = doneByName.get(name)
      if (known !== undefined) {
        if (known !== checksum) throw new Error(`migration ${name} was edited after it was applied`)
        continue
      }
      await client.query('BEGIN')
      try {
        await client.query(sql)
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), checksum, name],
        )
        await client.query('COMMIT')
      } catch (e) {
        await client.query('ROLLBACK')
        throw new Error(`migration ${name} failed: ${(e as Error).message}`, { cause: e })
      }
      applied.push(name)
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {})
    await client.end()
  }
  return applied
}
