// Each module owns its tables (issue 27): only its stores (lib/<module>/<aggregate>-store.ts) run statements.
// The dependency rules (.dependency-cruiser.cjs only-stores-reach-the-database) keep the database client and
// Prisma out of every other module's imports, but a store hands its callers the transaction (`Tx`) to pass back
// in, and a module holding one could run a statement on it: this scan of lib/ fails when code outside the stores
// and the infrastructure below them runs raw SQL or a model's query on any client.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

const ROOT = new URL('../../', import.meta.url).pathname

/** the TypeScript files under `dir`, generated code aside, as paths from the repository's root */
function files(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name)
    if (e.isDirectory()) return e.name === 'generated' || e.name === 'node_modules' ? [] : files(rel)
    return /\.tsx?$/.test(e.name) ? [rel] : []
  })
}

/** the code of a file without its comments (a comment may name what the code must not do) */
const code = (file: string) =>
  fs
    .readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')

/** where statements may run: the stores, and the infrastructure the dependency rules let reach the database */
const MAY_RUN_STATEMENTS = [
  /^lib\/[a-z-]+\/[a-z-]+-store\.ts$/,
  /^lib\/db\//,
  /^lib\/sandbox\/site-write\.ts$/,
  /^lib\/health\.ts$/,
  /^lib\/observability\/(database-metrics|readiness)\.ts$/,
]

// raw SQL, a transaction, or a model's query (`tx.payment.findMany(`, `db().bill.update(`)
const STATEMENT =
  /\.\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|transaction)\b|\b(tx|db\(\)|client)\.[a-z][A-Za-z]*\.(find\w*|create\w*|update\w*|upsert|delete\w*|count|aggregate|groupBy)\(/

test('statements run only in the stores and the infrastructure below them', () => {
  const outside = ['lib', 'app', 'components', 'pages']
    .filter((d) => fs.existsSync(path.join(ROOT, d)))
    .flatMap((d) => files(d))
    .filter((f) => !MAY_RUN_STATEMENTS.some((allowed) => allowed.test(f)))
    .filter((f) => STATEMENT.test(code(f)))
  assert.deepEqual(outside, [])
})

test('the scan sees a statement: raw SQL on a transaction and a model query are both caught', () => {
  assert.ok(STATEMENT.test('await tx.$executeRaw`DELETE FROM "Payment"`'))
  assert.ok(STATEMENT.test('await tx.payment.deleteMany({ where: { siteId } })'))
  assert.ok(STATEMENT.test('await db().bill.findFirst({ where: { id } })'))
  assert.ok(!STATEMENT.test('await paymentStore.deleteSiteData(tx, siteId)'))
})
