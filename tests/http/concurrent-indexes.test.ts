// Building a migration's indexes on a live database (docs/operators/deployment-and-scaling.md): npm run db:indexes
// builds the pending migrations' indexes CONCURRENTLY, the migration then finds them and builds nothing, and an
// index a failed build left invalid is never taken for built — the migration refuses it until the command has
// built it again. On a database of this file's own, migrated up to the migration before scale_indexes (the indexes of
// the migrations after it are pending too).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import pg from 'pg'
import { applyMigrations, migrationNames } from '../../lib/db/migrations.ts'
import { buildConcurrently } from '../../scripts/concurrent-indexes.ts'
import { dropDatabase } from '../support/db.ts'

const DATABASE = 'payin_concurrent_indexes'
const MIGRATION = migrationNames().find((m) => m.endsWith('_scale_indexes'))!
let url: string
const older = fs.mkdtempSync(path.join(os.tmpdir(), 'payin-migrations-'))

/** the validity of the migration's indexes, by name (absent: not there) */
async function indexes(): Promise<Record<string, boolean>> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string; valid: boolean }>(
      `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE c.relname = ANY($1::text[])`,
      [NAMES],
    )
    return Object.fromEntries(rows.map((r) => [r.name, r.valid]))
  } finally {
    await client.end()
  }
}
/** the indexes a migration builds with CREATE INDEX IF NOT EXISTS, in its order */
const indexesOf = (migration: string) =>
  [
    ...fs
      .readFileSync(path.resolve('prisma/migrations', migration, 'migration.sql'), 'utf8')
      .matchAll(/^CREATE INDEX IF NOT EXISTS "([^"]+)"/gm),
  ].map((m) => m[1])
/** scale_indexes' own */
const OWN = indexesOf(MIGRATION)
/** those of every migration the database lacks: scale_indexes' and those of the migrations after it */
const NAMES = migrationNames()
  .filter((m) => m >= MIGRATION)
  .flatMap(indexesOf)

before(async () => {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${DATABASE}`)
  await admin.end()
  url = process.env.DATABASE_URL!.replace(/\/[^/?]+(\?|$)/, `/${DATABASE}$1`)
  // the database as the version before this migration left it
  for (const m of migrationNames().filter((m) => m < MIGRATION))
    fs.cpSync(path.resolve('prisma/migrations', m), path.join(older, m), { recursive: true })
  await applyMigrations(url, older)
})

after(async () => {
  fs.rmSync(older, { recursive: true, force: true })
  await dropDatabase(DATABASE)
})

test('indexes built CONCURRENTLY ahead; a failed build is refused by the migration, then built again', async () => {
  assert.equal(OWN.length, 7)
  assert.deepEqual(NAMES.slice(0, 7), OWN)
  assert.deepEqual(await indexes(), {})
  const built = await buildConcurrently(url)
  assert.deepEqual(
    built.map((line) => line.replace(/ in [\d.]+ s$/, '')),
    NAMES.map((name) => `${name}: built`),
  )
  assert.deepEqual(await indexes(), Object.fromEntries(NAMES.map((n) => [n, true])))
  // run again: nothing to build
  assert.deepEqual(
    await buildConcurrently(url),
    NAMES.map((name) => `${name}: already built`),
  )

  // what a build CONCURRENTLY stopped midway leaves: an index of the name, marked invalid
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(
    `UPDATE pg_index SET indisvalid = false WHERE indexrelid = '"Payment_siteId_createdAt_id_idx"'::regclass`,
  )
  await client.end()
  await assert.rejects(applyMigrations(url), /invalid index left by a failed build: Payment_siteId_createdAt_id_idx/)
  const again = await buildConcurrently(url)
  assert.match(
    again.find((l) => l.startsWith('Payment_siteId_createdAt_id_idx'))!,
    /built again/,
  )

  // the migration finds every index, and the command has nothing left to do
  // (it and those after it: the database was migrated up to the one before it)
  assert.deepEqual(await applyMigrations(url), migrationNames().slice(migrationNames().indexOf(MIGRATION)))
  assert.deepEqual(await indexes(), Object.fromEntries(NAMES.map((n) => [n, true])))
  assert.deepEqual(await buildConcurrently(url), [])
})
