// The embedded PostgreSQL asks for a password (issue 26): over TCP, `postgres` without a password or with
// a wrong one is refused, and the password kept beside the data folder (`<folder>.password`, mode 0600)
// opens it; pg_hba.conf trusts nobody. A folder made the old way (initdb --auth=trust) is upgraded in
// place at its next start, its data kept, whether its server was stopped or already running (started by
// another process), and an upgrade cut short is finished by the next start. A folder that asks for a
// password whose file is missing stops the start with what to do. Every connection is to 127.0.0.1.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import {
  embeddedPasswordFile,
  runPostgresProgram,
  startEmbeddedPostgres,
  stopEmbeddedPostgres,
} from '../../lib/db/embedded-postgres.ts'
import { PG_OFFSETS, testPorts } from '../../scripts/test-ports.ts'

// beside the suite's PostgreSQL port, the others' (PG_OFFSETS in scripts/test-ports.ts)
const pgPort = testPorts().pg + PG_OFFSETS.password
// in the pass on PostgreSQL 15, its binaries (TEST_PG_BIN_DIR); else the npm package's
const binDir = process.env.TEST_PG_BIN_DIR || undefined
const dataDir = `data/test-pg-auth-${pgPort}`
const passwordFile = embeddedPasswordFile(dataDir)
const database = 'payin_upgrade'

/** connects as postgres to 127.0.0.1:port with that password (none: undefined); answers 'ok' or the refusal */
async function connectAs(
  port: number,
  password: string | undefined,
  db = 'postgres',
): Promise<'ok' | { code?: string; message: string }> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: db })
  try {
    await client.connect()
  } catch (e) {
    // (refused by the client itself, for want of a password, the connection would wait for the server's
    // authentication_timeout)
    await client.end().catch(() => {})
    return { code: (e as { code?: string }).code, message: (e as Error).message }
  }
  await client.end()
  return 'ok'
}

/** refused without a password and with a wrong one; `password` lets in */
async function assertAsksForPassword(port: number, password: string): Promise<void> {
  const none = await connectAs(port, undefined)
  assert.notEqual(none, 'ok', 'no password: let in')
  // the server asked for a password (SCRAM), which the client did not have
  assert.match((none as { message: string }).message, /password/)
  const wrong = await connectAs(port, 'not-the-password')
  assert.notEqual(wrong, 'ok', 'a wrong password: let in')
  assert.equal((wrong as { code?: string }).code, '28P01', (wrong as { message: string }).message)
  assert.equal(await connectAs(port, password), 'ok')
}

/** the rules of pg_hba.conf (comments left out) */
const hbaRules = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.split('#')[0].trim())
    .filter(Boolean)

function assertNoTrust(file: string): void {
  const rules = hbaRules(file)
  assert.ok(rules.length > 0)
  for (const rule of rules) assert.match(rule, /\sscram-sha-256$/, `${file}: ${rule}`)
}

function assertPasswordFile(file: string, password: string): void {
  assert.equal((fs.statSync(file).mode & 0o777).toString(8), '600', `${file}'s mode`)
  assert.equal(fs.readFileSync(file, 'utf8').trim(), password)
  assert.match(password, /^[0-9a-f]{64}$/, '32 random bytes, hex')
}

const passwordOf = (url: string) => decodeURIComponent(new URL(url).password)

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(text)).rows
  } finally {
    await client.end()
  }
}

const pgCtl = (args: string[]) =>
  runPostgresProgram({ dataDir, binDir }, 'pg_ctl', ['-D', path.resolve(dataDir), ...args])

/**
 * A data folder as older versions made it: initdb --auth=trust, a database with a row, and its server
 * running on pgPort (as the older `npm start` leaves it) or stopped.
 */
async function oldFolder(o: { running: boolean }): Promise<void> {
  await removeFolder()
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  await runPostgresProgram({ dataDir, binDir }, 'initdb', [
    '-D',
    path.resolve(dataDir),
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C',
  ])
  await pgCtl([
    '-l',
    path.resolve(dataDir, 'server.log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-c listen_addresses=127.0.0.1 -p ${pgPort} -c unix_socket_directories=`,
    'start',
  ])
  assert.equal(await connectAs(pgPort, undefined), 'ok', 'the old way trusts')
  const admin = new pg.Client({ host: '127.0.0.1', port: pgPort, user: 'postgres', database: 'postgres' })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${database}`)
  await admin.end()
  const client = new pg.Client({ host: '127.0.0.1', port: pgPort, user: 'postgres', database })
  await client.connect()
  await client.query("CREATE TABLE kept (note text); INSERT INTO kept VALUES ('from before the upgrade')")
  await client.end()
  if (!o.running) await stopEmbeddedPostgres({ dataDir, binDir })
}

async function removeFolder(): Promise<void> {
  await stopEmbeddedPostgres({ dataDir, binDir }, 'immediate').catch(() => {})
  fs.rmSync(dataDir, { recursive: true, force: true })
  fs.rmSync(passwordFile, { force: true })
}

const hba = path.join(dataDir, 'pg_hba.conf')

async function assertDataKept(url: string): Promise<void> {
  assert.deepEqual(await query(url, 'SELECT note FROM kept'), [{ note: 'from before the upgrade' }])
}

test("the suite's database: refused without a password and with a wrong one, opened by its password file (mode 0600); pg_hba.conf trusts nobody", async () => {
  const url = new URL(process.env.DATABASE_URL!)
  assert.equal(url.hostname, '127.0.0.1')
  const password = passwordOf(url.href)
  assert.ok(password, 'the URL carries the password')
  await assertAsksForPassword(Number(url.port), password)
  const [{ data_directory, hba_file }] = await query<{ data_directory: string; hba_file: string }>(
    url.href,
    "SELECT current_setting('data_directory') AS data_directory, current_setting('hba_file') AS hba_file",
  )
  assertPasswordFile(embeddedPasswordFile(data_directory), password)
  assert.ok(
    !fs.realpathSync(embeddedPasswordFile(data_directory)).startsWith(fs.realpathSync(data_directory) + path.sep),
    'kept out of the data folder',
  )
  assertNoTrust(hba_file)
})

describe('a data folder made by an older version (initdb --auth=trust)', () => {
  /**
   * the folder upgraded: a password asked for, the URL's, kept in its file (0600); no trust; its data there. Answers
   * the password
   */
  async function assertUpgraded(url: string): Promise<string> {
    const password = passwordOf(url)
    await assertAsksForPassword(pgPort, password)
    assertPasswordFile(passwordFile, password)
    assertNoTrust(hba)
    await assertDataKept(url)
    return password
  }

  before(removeFolder)
  after(removeFolder)

  test('stopped: upgraded in place at start, its data kept; no password or a wrong one refused; the password file mode 0600', async () => {
    await oldFolder({ running: false })
    assert.equal(fs.existsSync(passwordFile), false)
    const started = await startEmbeddedPostgres({ dataDir, port: pgPort, database, binDir })
    assert.equal(started.upgraded, true)
    assert.equal(started.startedHere, true)
    const password = await assertUpgraded(started.url)
    // the next start has nothing to upgrade: same password, same data
    await stopEmbeddedPostgres({ dataDir, binDir })
    const again = await startEmbeddedPostgres({ dataDir, port: pgPort, database, binDir })
    assert.equal(again.upgraded, false)
    assert.equal(again.url, started.url)
    await assertDataKept(again.url)
    await assertAsksForPassword(pgPort, password)
  })

  test('already running with trust (started by another process): upgraded through it, its open sessions kept', async () => {
    await oldFolder({ running: true })
    const open = new pg.Client({ host: '127.0.0.1', port: pgPort, user: 'postgres', database })
    await open.connect()
    try {
      // another port asked for: the running server's is used
      const started = await startEmbeddedPostgres({
        dataDir,
        port: testPorts().pg + PG_OFFSETS.passwordAgain,
        database,
        binDir,
      })
      assert.equal(started.upgraded, true)
      assert.equal(started.startedHere, false)
      assert.equal(started.port, pgPort)
      await assertUpgraded(started.url)
      assert.deepEqual(
        (await open.query('SELECT note FROM kept')).rows,
        [{ note: 'from before the upgrade' }],
        'a session opened before still works',
      )
    } finally {
      await open.end()
    }
  })

  test('an upgrade cut short after the password was set, before pg_hba.conf was rewritten: finished by the next start', async () => {
    await oldFolder({ running: false })
    const trusting = fs.readFileSync(hba, 'utf8')
    const first = await startEmbeddedPostgres({ dataDir, port: pgPort, database, binDir })
    await stopEmbeddedPostgres({ dataDir, binDir })
    // as if stopped there: the password set and kept, pg_hba.conf still the old one
    fs.writeFileSync(hba, trusting)
    const again = await startEmbeddedPostgres({ dataDir, port: pgPort, database, binDir })
    assert.equal(again.upgraded, true)
    assert.equal(again.url, first.url, 'the same password')
    await assertAsksForPassword(pgPort, passwordOf(again.url))
    assertNoTrust(hba)
    await assertDataKept(again.url)
  })

  test('an upgrade cut short after pg_hba.conf was rewritten, before the running server reloaded it: the next start reloads it', async () => {
    await oldFolder({ running: true })
    // the password file and the password set, pg_hba.conf rewritten, no reload: the server still trusts
    const password = 'ab'.repeat(32)
    fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 })
    const admin = new pg.Client({ host: '127.0.0.1', port: pgPort, user: 'postgres', database: 'postgres' })
    await admin.connect()
    await admin.query(`ALTER ROLE postgres PASSWORD '${password}'`)
    await admin.end()
    fs.writeFileSync(hba, fs.readFileSync(hba, 'utf8').replace(/^([^#\n]*\s)trust(\s*)$/gm, '$1scram-sha-256$2'))
    assertNoTrust(hba)
    assert.equal(await connectAs(pgPort, undefined), 'ok', 'the server still trusts')
    const started = await startEmbeddedPostgres({ dataDir, port: pgPort, database, binDir })
    assert.equal(started.startedHere, false)
    assert.equal(passwordOf(started.url), password)
    await assertAsksForPassword(pgPort, password)
    await assertDataKept(started.url)
  })

  test('its password file missing: a clear error saying what to do; a new password (EMBEDDED_PG_NEW_PASSWORD) with the server stopped', async () => {
    await oldFolder({ running: false })
    const first = await startEmbeddedPostgres({ dataDir, port: pgPort, database, binDir })
    fs.rmSync(passwordFile)
    const missing = await startEmbeddedPostgres({ dataDir, port: pgPort, database, binDir }).then(
      () => assert.fail('started without its password file'),
      (e: Error) => e.message,
    )
    assert.match(
      missing,
      new RegExp(
        `asks for a password, but its password file ${passwordFile.replace(/\./g, '\\.')} is missing: put that file back`,
      ),
    )
    assert.match(missing, /EMBEDDED_PG_NEW_PASSWORD=1/)
    assert.ok(!missing.includes(passwordOf(first.url)))
    // a new password needs the server stopped
    const running = await startEmbeddedPostgres({ dataDir, port: pgPort, database, binDir, newPassword: true }).then(
      () => assert.fail('a new password with the server running'),
      (e: Error) => e.message,
    )
    assert.match(running, /stop it first/)
    assert.equal(fs.existsSync(passwordFile), false)

    await stopEmbeddedPostgres({ dataDir, binDir })
    const renewed = await startEmbeddedPostgres({ dataDir, port: pgPort, database, binDir, newPassword: true })
    const password = passwordOf(renewed.url)
    assert.notEqual(password, passwordOf(first.url))
    assertPasswordFile(passwordFile, password)
    await assertAsksForPassword(pgPort, password)
    assert.notEqual(await connectAs(pgPort, passwordOf(first.url)), 'ok', 'the old password no longer opens it')
    await assertDataKept(renewed.url)

    // a password file that is not the database's: said so
    await stopEmbeddedPostgres({ dataDir, binDir })
    fs.writeFileSync(passwordFile, `${'cd'.repeat(32)}\n`, { mode: 0o600 })
    const wrong = await startEmbeddedPostgres({ dataDir, port: pgPort, database, binDir }).then(
      () => assert.fail('started with a wrong password file'),
      (e: Error) => e.message,
    )
    assert.match(
      wrong,
      new RegExp(`refuses the password in ${passwordFile.replace(/\./g, '\\.')}.*EMBEDDED_PG_NEW_PASSWORD=1`),
    )
  })
})
