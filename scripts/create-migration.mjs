#!/usr/bin/env node
// Creates a new migration: diffs prisma/migrations against prisma/schema.prisma and writes
// prisma/migrations/<timestamp>_<name>/migration.sql.   usage: npm run db:migration -- <name>
// Prisma 7's CLI downloads a native schema engine for every migrate command, which cannot work
// offline; this drives the WebAssembly schema engine from npm (@prisma/schema-engine-wasm, the same
// engine the CLI bundles) through the pg driver adapter. It works on a scratch embedded database
// (or DATABASE_URL when set) and leaves the service's own database alone.
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils'
import { startEmbeddedPostgres, stopEmbeddedPostgres } from '../lib/db/embedded-postgres.ts'

const require = createRequire(import.meta.url)
const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]/gi, '_')
if (!name) throw new Error('usage: npm run db:migration -- <name>')
const schemaPath = path.resolve('prisma/schema.prisma')
const migrationsDir = path.resolve('prisma/migrations')
const scratch = { dataDir: 'data/migration-scratch-pg', port: 25499, database: 'scratch' }
let url = process.env.DATABASE_URL
if (!url) {
  fs.rmSync(scratch.dataDir, { recursive: true, force: true })
  url = (await startEmbeddedPostgres(scratch)).url
}
const schemaText = fs.readFileSync(schemaPath, 'utf8')
const provider = 'postgresql'

const opened = []
const track = (adapter) => (opened.push(adapter), adapter)

async function makeAdapterFactory() {
  if (provider === 'postgresql') {
    const { PrismaPg } = await import('@prisma/adapter-pg')
    // Pass discrete fields, not { connectionString }: adapter-pg's connectToShadowDb() spreads
    // { ...config, database: shadowName }, and node-postgres lets connectionString win, so the
    // "shadow" pool would silently point at the main database.
    // (pg-connection-string is pg's own URL parser; keeps sslmode/ssl/options from the URL)
    const { parseIntoClientConfig } = await import('pg-connection-string')
    const config = parseIntoClientConfig(url)
    const factory = new PrismaPg(config)
    // The engine's schema describer selects pg_catalog columns of type "char" (OID 18, e.g.
    // pg_constraint.contype), which @prisma/adapter-pg 7.10 rejects ("Column type 'char' could
    // not be deserialized from the database"). Let them through as text, then re-label those
    // columns as ColumnType.Character (6), which the describer reads with get_char().
    // Patched once on the shared PgQueryable prototype.
    const { AsyncLocalStorage } = await import('node:async_hooks')
    const als = new AsyncLocalStorage()
    let patched = false
    const patch = (adapter) => {
      if (patched) return adapter
      let proto = Object.getPrototypeOf(adapter)
      while (proto && !Object.hasOwn(proto, 'performIO')) proto = Object.getPrototypeOf(proto)
      const { performIO, queryRaw } = proto
      proto.performIO = async function (q) {
        const r = await performIO.call(this, q)
        const store = als.getStore()
        ;(r?.fields ?? []).forEach((f, i) => {
          if (f.dataTypeID === 18) {
            f.dataTypeID = 25
            store?.push(i)
          }
        })
        return r
      }
      // adapter-pg splits a migration script at every ';', which breaks a dollar-quoted function body (the
      // triggers of 20261127104817_payment_stats): send the script whole, as one simple query, as
      // lib/db/migrations.ts applies it
      let owner = Object.getPrototypeOf(adapter)
      while (owner && !Object.hasOwn(owner, 'executeScript')) owner = Object.getPrototypeOf(owner)
      if (owner)
        owner.executeScript = async function (script) {
          try {
            await this.client.query(script)
          } catch (error) {
            this.onError(error)
          }
        }
      proto.queryRaw = function (q) {
        const charCols = []
        return als.run(charCols, async () => {
          const r = await queryRaw.call(this, q)
          for (const i of charCols) r.columnTypes[i] = 6 // ColumnTypeEnum.Character
          return r
        })
      }
      patched = true
      return adapter
    }
    const connect = factory.connect.bind(factory)
    factory.connect = async () => track(patch(await connect()))
    // adapter-pg 7.10's own connectToShadowDb() drops the shadow database while its pool is
    // still connected ("database ... is being accessed by other users"); do it in order.
    factory.connectToShadowDb = async () => {
      const { default: pg } = await import('pg')
      const admin = new pg.Client(config)
      await admin.connect()
      const name = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID()}`
      await admin.query(`CREATE DATABASE "${name}"`)
      const shadow = patch(await new PrismaPg({ ...config, database: name }).connect())
      const dispose = shadow.dispose.bind(shadow)
      let disposed = false
      shadow.dispose = async () => {
        if (disposed) return
        disposed = true
        await dispose()
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
        await admin.end()
      }
      return track(shadow)
    }
    return factory
  }
  throw new Error(`unsupported provider ${provider}`)
}

// the wasm engine reports Rust panics through this global (set up by @prisma/internals in the CLI)
globalThis.PRISMA_WASM_PANIC_REGISTRY ??= {
  message: '',
  set_message(m) {
    this.message = m
  },
}
process.on('uncaughtException', (e) => {
  console.error('schema engine panic:', globalThis.PRISMA_WASM_PANIC_REGISTRY.message || '(none)')
  console.error(e)
  process.exit(1)
})

async function loadEngine(adapterFactory) {
  // same loading sequence as @prisma/internals' wasmSchemaEngineLoader
  // (the package's own entry uses an ESM .wasm import, which Node 20 lacks)
  const runtime = await import('@prisma/schema-engine-wasm/schema_engine_bg')
  const wasmPath = path.join(
    path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
    'schema_engine_bg.wasm',
  )
  const instance = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(wasmPath)), {
    './schema_engine_bg.js': runtime,
  })
  runtime.__wbg_set_wasm(instance.exports)
  instance.exports.__wbindgen_start()
  const debug = (msg) => process.env.DEBUG && console.error('[schema-engine]', msg)
  const bound = bindMigrationAwareSqlAdapterFactory(adapterFactory)
  globalThis.__boundAdapter = bound
  return runtime.SchemaEngine.new({ datamodels: [[schemaPath, schemaText]] }, debug, bound)
}

function migrationsList() {
  fs.mkdirSync(migrationsDir, { recursive: true })
  const lockPath = path.join(migrationsDir, 'migration_lock.toml')
  const dirs = fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
  return {
    baseDir: migrationsDir,
    lockfile: {
      path: 'migration_lock.toml',
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null,
    },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((d) => {
      const f = path.join(migrationsDir, d, 'migration.sql')
      return {
        path: d,
        migrationFile: {
          path: 'migration.sql',
          content: fs.existsSync(f)
            ? { tag: 'ok', value: fs.readFileSync(f, 'utf8') }
            : { tag: 'error', value: 'missing' },
        },
      }
    }),
  }
}

const filters = { externalTables: [], externalEnums: [] }
const schema = { files: [{ path: schemaPath, content: schemaText }] }
const stamp = () => new Date().toISOString().replace(/\D/g, '').slice(0, 14)

const engine = await loadEngine(await makeAdapterFactory())
try {
  await engine.applyMigrations({ migrationsList: migrationsList(), filters })
  const diag = await engine.devDiagnostic({ migrationsList: migrationsList(), filters })
  if (diag.action.tag === 'reset') throw new Error(`the scratch database drifted: ${diag.action.reason}`)
  const loss = await engine.evaluateDataLoss({ migrationsList: migrationsList(), schema, filters })
  if (loss.unexecutableSteps.length) throw new Error(loss.unexecutableSteps.map((w) => w.message).join('\n'))
  for (const w of loss.warnings) console.warn(`warning: ${w.message}`)
  const out = await engine.createMigration({
    draft: true,
    migrationName: name,
    migrationsList: migrationsList(),
    schema,
    filters,
  })
  if (!out.migrationScript || !out.migrationScript.replace(/--.*$/gm, '').trim()) {
    console.log('no schema changes; no migration created')
  } else {
    const dir = path.join(migrationsDir, `${stamp()}_${name}`)
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, 'migration.sql'), out.migrationScript)
    fs.writeFileSync(
      path.join(migrationsDir, 'migration_lock.toml'),
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${provider}"\n`,
    )
    console.log(`created ${path.relative(process.cwd(), dir)}/migration.sql`)
  }
} catch (e) {
  const m = /External error id#(\d+)/.exec(String(e?.message))
  if (m) console.error('driver adapter error:', globalThis.__boundAdapter.errorRegistry.consumeError(Number(m[1])))
  if (globalThis.PRISMA_WASM_PANIC_REGISTRY.message)
    console.error('schema engine panic:', globalThis.PRISMA_WASM_PANIC_REGISTRY.message)
  console.error(e)
  process.exitCode = 1
} finally {
  engine.free?.()
  await Promise.allSettled(opened.map((a) => a.dispose?.()))
  if (!process.env.DATABASE_URL) await stopEmbeddedPostgres(scratch, 'immediate')
  // the wasm engine leaves ~10 s setTimeout()s behind on Postgres; don't wait for them
  setImmediate(() => process.exit(process.exitCode ?? 0))
}
