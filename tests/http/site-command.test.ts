// `npm run site`: create prints a working token alone on the last line; revoke makes it a 401; tokens are
// stored hashed. Without DATABASE_URL it works on the embedded PostgreSQL the running server uses, on the
// port that one listens on, and never on a database of another folder that owns EMBEDDED_PG_PORT. A site
// that does not exist is one line on stderr and exit code 1. The command runs asynchronously
// (tests/support/site-command.ts): no keep-alive connection waits through a blocked event loop.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { embeddedPasswordFile, startEmbeddedPostgres, stopEmbeddedPostgres } from '../../lib/db/embedded-postgres.ts'
import { applyMigrations } from '../../lib/db/migrations.ts'
import { assertErrorShape, BASE_URL, cardPayment, client, request, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { lastLine, siteCommand, siteOk } from '../support/site-command.ts'
import { PG_OFFSETS, testPorts } from '../../scripts/test-ports.ts'

const UNKNOWN = 'no-such-site'
const unknownSiteLine = `no site "${UNKNOWN}" (npm run site -- list shows the sites)\n`
/** every command that takes an existing site, on UNKNOWN */
const ON_UNKNOWN_SITE = [
  ['notify', UNKNOWN, 'https://shop.example/hook'],
  ['notify', UNKNOWN, 'off'],
  ['secret', UNKNOWN],
  ['rotate-secret', UNKNOWN],
  ['rotate-secret', UNKNOWN, '--now'],
  ['revoke', UNKNOWN, 'sk_abcdef'],
  ['retention', UNKNOWN, '30'],
  ['retention', UNKNOWN, 'off'],
]

test('create, use, list and revoke a token', async () => {
  const siteId = uid('cli')
  const token = lastLine(await siteOk(['create', siteId]))
  assert.match(token, /^sk_[A-Za-z0-9_-]{43}$/)

  const known = await request('GET', `/api/sites/${siteId}/payments/nothing-here`, { token })
  assertErrorShape(known, 404, 'payin.resource.not.found')

  const db = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await db.connect()
  try {
    const { rows } = await db.query('SELECT "tokenHash" FROM "SiteToken" WHERE "siteId" = $1', [siteId])
    assert.equal(rows.length, 1)
    assert.notEqual(rows[0].tokenHash, token)
    const all = await db.query(`SELECT count(*)::int AS n FROM "SiteToken" WHERE "tokenHash" = $1 OR hint = $1`, [
      token,
    ])
    assert.equal(all.rows[0].n, 0, 'the token itself is not stored')
  } finally {
    await db.end()
  }

  const second = lastLine(await siteOk(['create', siteId]))
  assert.notEqual(second, token, 'a site may hold several tokens')
  assert.match(await siteOk(['list']), new RegExp(`${siteId}\\n  sk_`))

  assert.match(await siteOk(['revoke', siteId, token]), new RegExp(`revoked 1 token\\(s\\) of ${siteId}`))
  assertErrorShape(
    await request('GET', `/api/sites/${siteId}/payments/nothing-here`, { token }),
    401,
    'auth.unauthorized',
  )
  assertErrorShape(
    await request('GET', `/api/sites/${siteId}/payments/nothing-here`, { token: second }),
    404,
    'payin.resource.not.found',
  )
  // a token that matches nothing (any more) is said so, exit code 1
  const again = await siteCommand(['revoke', siteId, token])
  assert.equal(again.code, 1)
  assert.match(again.stdout, new RegExp(`no active token of ${siteId} matches`))
})

test('site ids are checked', async () => {
  const bad = await siteCommand(['create', 'bad id!'])
  assert.equal(bad.code, 1)
  assert.equal(bad.stderr, 'a site id is 1-200 characters of A-Z a-z 0-9 . _ : -\n')
})

test('a site that does not exist: one line on stderr naming it, exit code 1, nothing written', async () => {
  for (const args of ON_UNKNOWN_SITE) {
    const run = await siteCommand(args)
    assert.equal(run.code, 1, args.join(' '))
    assert.equal(run.stderr, unknownSiteLine, args.join(' '))
    assert.equal(run.stdout, '', args.join(' '))
  }
  assert.deepEqual(await sql('SELECT id FROM "Site" WHERE id = $1', [UNKNOWN]), [])
})

describe('without DATABASE_URL: the embedded PostgreSQL of the running server', () => {
  const port = Number(new URL(BASE_URL).port) + 5
  const pgPort = testPorts().pg + PG_OFFSETS.siteCommand
  const dataDir = `data/test-site-pg-${port}`
  const pidFile = path.join(dataDir, 'postmaster.pid')
  // the suite's own database stands for another checkout's that owns the default port: the command's
  // EMBEDDED_PG_PORT names it, and the command must never act on it
  const otherPort = new URL(process.env.DATABASE_URL!).port
  const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_PG_DIR: dataDir, EMBEDDED_PG_PORT: otherPort }
  delete env.DATABASE_URL
  let server: Instance | undefined
  let siteId: string

  before(async () => {
    await stopEmbeddedPostgres({ dataDir }) // left by a run cut short
    fs.rmSync(dataDir, { recursive: true, force: true })
    fs.rmSync(embeddedPasswordFile(dataDir), { force: true })
    // as `npm start` with EMBEDDED_PG_PORT=<pgPort> runs it: the embedded database on that port, migrated, and the
    // server on it
    const database = await startEmbeddedPostgres({ dataDir, port: pgPort, database: 'payin' })
    await applyMigrations(database.url)
    server = await startInstance(port, { DATABASE_URL: database.url, NOTIFICATIONS_WORKER: 'off' })
  })
  after(async () => {
    server?.kill()
    await server?.exited
    await stopEmbeddedPostgres({ dataDir })
    fs.rmSync(dataDir, { recursive: true, force: true })
    fs.rmSync(embeddedPasswordFile(dataDir), { force: true })
  })

  test('the command finds it on the port it runs on: what it makes, the server sees, and list shows', async () => {
    siteId = uid('cli-port')
    const token = lastLine(await siteOk(['create', siteId], env))
    const api = client({ siteId, token }, '/api', server!.base)
    const paymentId = await api.newPayment(cardPayment())
    const lines = (await siteOk(['list'], env)).trimEnd().split('\n')
    assert.deepEqual(
      lines.filter((l) => !l.startsWith(' ')),
      [siteId],
      'the sites of the server’s database only',
    )
    assert.match(lines[1], new RegExp(`^  ${token.slice(0, 9)}…  created `))
    // nothing of it in the database on EMBEDDED_PG_PORT
    assert.deepEqual(await sql('SELECT id FROM "Site" WHERE id = $1', [siteId]), [])
    // the command left the server's database running: it had not started it
    assert.equal((await api.paymentNow(paymentId)).amount.value, '100.00')
    assert.ok(fs.existsSync(pidFile))
  })

  test('a site that does not exist there: the same one line and exit code 1', async () => {
    for (const args of ON_UNKNOWN_SITE.slice(0, 3)) {
      const run = await siteCommand(args, env)
      assert.equal(run.code, 1, args.join(' '))
      assert.equal(run.stderr, unknownSiteLine, args.join(' '))
    }
  })

  test("with the server's database stopped: a stale postmaster.pid or a taken port never leads to another database", async () => {
    server!.kill()
    await server!.exited
    await stopEmbeddedPostgres({ dataDir })
    assert.equal(fs.existsSync(pidFile), false)

    // a lock file left behind whose process id now belongs to a live PostgreSQL process (a connection's
    // backend of the other database) and whose port is the other database's
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await other.connect()
    try {
      const [{ pid }] = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows
      fs.writeFileSync(
        pidFile,
        [
          pid,
          path.resolve(dataDir),
          Math.floor(Date.now() / 1000),
          otherPort,
          '',
          '127.0.0.1',
          '     0     0',
          'ready   ',
          '',
        ].join('\n'),
      )
      const stale = await siteCommand(['list'], env)
      assert.equal(stale.code, 1, stale.stdout)
      assert.equal(stale.stdout, '')
      assert.match(
        stale.stderr,
        new RegExp(
          `^the PostgreSQL on 127\\.0\\.0\\.1:${otherPort} serves .+, not .+${path.basename(dataDir)} \\(a stale .+postmaster\\.pid\\?\\): not using it\\n$`,
        ),
      )
    } finally {
      fs.rmSync(pidFile, { force: true })
      await other.end()
    }

    // none running, and EMBEDDED_PG_PORT is the other database's: PostgreSQL does not start there, nothing is listed
    const taken = await siteCommand(['list'], env)
    assert.equal(taken.code, 1)
    assert.equal(taken.stdout, '')
    assert.match(
      taken.stderr,
      new RegExp(
        `^PostgreSQL did not start on 127\\.0\\.0\\.1:${otherPort} \\(data in ${dataDir}\\): could not bind .*Address already in use`,
      ),
    )

    // on a free port the command starts the database for itself, and stops it when done
    const own = await siteOk(['list'], { ...env, EMBEDDED_PG_PORT: String(pgPort) })
    assert.match(own, new RegExp(`^${siteId}$`, 'm'))
    assert.equal(fs.existsSync(pidFile), false, 'stopped again')
  })
})
