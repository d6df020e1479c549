// The database of the service and its commands: DATABASE_URL when set, else the embedded PostgreSQL
// under data/: the one running on that folder, on whatever port it was started (npm start with another
// EMBEDDED_PG_PORT, `npm run site` in another shell), else started on EMBEDDED_PG_PORT. Pending
// migrations are applied either way. The embedded database asks for a password, kept beside its folder
// (data/pg.password; see lib/db/embedded-postgres.ts); EMBEDDED_PG_NEW_PASSWORD=1 gives it a new one
// (with it stopped: when that file was lost).
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { applyMigrations } from '../lib/db/migrations.ts'
import { embeddedPasswordFile, startEmbeddedPostgres, stopEmbeddedPostgres } from '../lib/db/embedded-postgres.ts'

export const EMBEDDED = {
  dataDir: process.env.EMBEDDED_PG_DIR || 'data/pg',
  port: Number(process.env.EMBEDDED_PG_PORT || 54329),
  database: 'payin',
  newPassword: process.env.EMBEDDED_PG_NEW_PASSWORD === '1',
}

export interface Database {
  url: string
  embedded: boolean
  /** stops the embedded server if this process started it */
  release: () => Promise<void>
}

export async function openDatabase(log: (line: string) => void = () => {}): Promise<Database> {
  let url = process.env.DATABASE_URL
  let release = async () => {}
  const embedded = !url
  if (!url) {
    const pg = await startEmbeddedPostgres(EMBEDDED)
    url = pg.url
    if (pg.upgraded)
      log(
        `embedded PostgreSQL of ${EMBEDDED.dataDir}: upgraded in place, it now asks for the password kept in ${embeddedPasswordFile(EMBEDDED.dataDir)}`,
      )
    else if (EMBEDDED.newPassword)
      log(`embedded PostgreSQL of ${EMBEDDED.dataDir}: new password, kept in ${embeddedPasswordFile(EMBEDDED.dataDir)}`)
    if (pg.startedHere) {
      log(`embedded PostgreSQL started on 127.0.0.1:${pg.port} (data in ${EMBEDDED.dataDir})`)
      release = () => stopEmbeddedPostgres(EMBEDDED)
    }
    process.env.DATABASE_URL = url
  }
  const applied = await applyMigrations(url)
  if (applied.length) log(`migrations applied: ${applied.join(', ')}`)
  return { url, embedded, release }
}

/**
 * SECRET_KEY keys the request fingerprints and what the service signs; without it one is made once and
 * kept in data/secret.key (and put into this process's environment, for its commands).
 */
export function secretKey(): string {
  if (!process.env.SECRET_KEY) {
    const file = 'data/secret.key'
    if (!fs.existsSync(file)) {
      fs.mkdirSync('data', { recursive: true })
      fs.writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' })
    }
    process.env.SECRET_KEY = fs.readFileSync(file, 'utf8').trim()
  }
  return process.env.SECRET_KEY
}

/** where METRICS_TOKEN comes from for `npm start` (see metricsToken) */
export type MetricsTokenSource = 'environment' | 'file' | 'off'

/**
 * METRICS_TOKEN opens GET /api/metrics. Unset, one is made once and kept in `file` (data/metrics.token,
 * mode 0600, like data/secret.key) and put into `env`, so that `npm start` gives working metrics; set, it
 * is used as it is; set empty (`METRICS_TOKEN=`), metrics stay off. A bare scripts/http-server.ts (a
 * container given its environment only) never reads the file: there metrics are off unless it is set.
 */
export function metricsToken(
  env: Record<string, string | undefined> = process.env,
  file = 'data/metrics.token',
): MetricsTokenSource {
  if (env.METRICS_TOKEN !== undefined) return env.METRICS_TOKEN.trim() ? 'environment' : 'off'
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' })
  } catch (e) {
    // made before (or by another start at this moment): kept
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
  }
  env.METRICS_TOKEN = fs.readFileSync(file, 'utf8').trim()
  return 'file'
}
