// Builds the indexes of the pending migrations without blocking writes, before those migrations run:
// `npm run db:indexes` (DATABASE_URL, else the embedded PostgreSQL under data/, as the server's). A migration runs
// in a transaction (lib/db/migrations.ts), where CREATE INDEX holds off every write of its table while it builds:
// minutes for a table of millions of rows. Here each `CREATE INDEX IF NOT EXISTS` line of a migration not yet
// applied is run as CREATE INDEX CONCURRENTLY, outside any transaction; the migration then finds every index and
// does nothing. An index a build CONCURRENTLY left invalid (it failed, or was stopped) is dropped and built again.
// No migration is applied here, and nothing else of the migrations is run.
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { startEmbeddedPostgres, stopEmbeddedPostgres } from '../lib/db/embedded-postgres.ts'
import { migrationNames } from '../lib/db/migrations.ts'
import { EMBEDDED } from './database.ts'

/** a migration's index statement on one line, as the migration maker writes them (with IF NOT EXISTS added) */
const INDEX_LINE = /^CREATE (UNIQUE )?INDEX IF NOT EXISTS "([^"]+)" ON .+;$/gm

/** the index statements of the migrations under `migrationsDir` not yet applied to the database, in their order */
export async function pendingIndexes(
  client: pg.Client,
  migrationsDir = path.resolve('prisma/migrations'),
): Promise<{ migration: string; name: string; statement: string }[]> {
  const applied = await client
    .query<{ migration_name: string }>(
      'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    )
    .then((r) => new Set(r.rows.map((row) => row.migration_name)))
    // a database no migration has reached has no index to build ahead: the first start builds them all
    .catch(() => null)
  if (!applied) return []
  return migrationNames(migrationsDir)
    .filter((m) => !applied.has(m))
    .flatMap((migration) =>
      [...fs.readFileSync(path.join(migrationsDir, migration, 'migration.sql'), 'utf8').matchAll(INDEX_LINE)].map(
        (m) => ({ migration, name: m[2], statement: m[0] }),
      ),
    )
}

/** builds them CONCURRENTLY (an invalid one of a failed build dropped first); what each did */
export async function buildConcurrently(databaseUrl: string, migrationsDir?: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const done: string[] = []
  try {
    for (const index of await pendingIndexes(client, migrationsDir)) {
      const [state] = (
        await client.query<{ valid: boolean }>(
          `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
           JOIN pg_namespace ns ON ns.oid = c.relnamespace AND ns.nspname = current_schema() WHERE c.relname = $1`,
          [index.name],
        )
      ).rows
      if (state?.valid) {
        done.push(`${index.name}: already built`)
        continue
      }
      if (state) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS "${index.name}"`)
      const started = performance.now()
      await client.query(index.statement.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX CONCURRENTLY '))
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      done.push(`${index.name}: built${state ? ' again (a failed build had left it invalid)' : ''} in ${seconds} s`)
    }
  } finally {
    await client.end()
  }
  return done
}

if (process.argv[1]?.endsWith('concurrent-indexes.ts')) {
  const embedded = process.env.DATABASE_URL ? null : await startEmbeddedPostgres(EMBEDDED)
  try {
    const done = await buildConcurrently(process.env.DATABASE_URL || embedded!.url)
    for (const line of done) console.log(`[payin] ${line}`)
    console.log(
      `[payin] ${done.length ? 'indexes ready' : 'no pending migration builds an index'}: start the new version`,
    )
  } finally {
    if (embedded?.startedHere) await stopEmbeddedPostgres(EMBEDDED)
  }
  process.exit(0)
}
