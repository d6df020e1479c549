// Runs after the HTTP suite, with the server stopped: no card number used by any test may appear in
// the database (every row of every table), in the server's log, in anything another server the tests
// started wrote (SERVER_LOG_DIR: tests/support/server-output.ts), or in the statement texts recorded
// (STATEMENT_LOG_DIR: lib/db/statement-log.ts).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import pg from 'pg'
import { luhnValid, PRODUCTION_TEST_CARDS, TEST_CARDS } from '../../lib/acquirer/sandbox-acquirer.ts'
import { writtenForms } from '../support/card-numbers.ts'

/** every Luhn-valid 13–19 digit string written in the tests, and the contract's and production's test cards */
function cardNumbersUsed(): string[] {
  const found = new Set([...Object.keys(TEST_CARDS), ...Object.values(PRODUCTION_TEST_CARDS).flat()])
  for (const dir of ['tests/http', 'tests/support', 'e2e']) {
    if (!fs.existsSync(dir)) continue
    for (const f of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!fs.statSync(path.join(dir, f)).isFile()) continue // e2e/helpers/ and the like: their files are listed too
      const text = fs.readFileSync(path.join(dir, f), 'utf8')
      for (const m of text.matchAll(/(?<!\d)\d{13,19}(?!\d)/g)) if (luhnValid(m[0])) found.add(m[0])
    }
  }
  return [...found]
}

/** every database of the suite's PostgreSQL (the suite's, the stress test's, and those tests make for themselves) */
async function databaseDump(): Promise<string> {
  const main = process.env.DATABASE_URL!
  const client = new pg.Client({ connectionString: main })
  await client.connect()
  const { rows } = await client.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE NOT datistemplate AND datname <> 'postgres'",
  )
  await client.end()
  // (the run on PostgreSQL 15 has no stress test)
  assert.ok(
    rows.length >= (process.env.STRESS_DATABASE_URL ? 2 : 1),
    'the suite and the stress test each have a database',
  )
  let dump = ''
  for (const { datname } of rows) dump += await dumpOf(main.replace(/\/[^/?]+(\?|$)/, `/${datname}$1`))
  return dump
}

async function dumpOf(connectionString: string): Promise<string> {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    const tables = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    )
    let dump = ''
    for (const { table_name } of tables.rows) {
      const rows = await client.query(`SELECT row_to_json(t)::text AS row FROM "${table_name}" t`)
      dump += rows.rows.map((r) => r.row).join('\n') + '\n'
    }
    return dump
  } finally {
    await client.end()
  }
}

test("no card number reaches any database of the suite (its own, the stress test's, those tests make)", async () => {
  const dump = await databaseDump()
  // the suite did store card payments: masked numbers are there
  assert.match(dump, /411111\*{6}1111/, 'the dump holds no masked card: did the suite run?')
  const leaked = cardNumbersUsed().filter((pan) => dump.includes(pan))
  assert.deepEqual(leaked, [], 'card numbers found in the database')
})

test("no card number reaches the suite's server's output (its log lines and whatever else it wrote)", () => {
  const log = fs.readFileSync(process.env.SERVER_LOG!, 'utf8')
  assert.match(log, /"method":"PUT"/, 'the server log holds no request line: did the suite run?')
  const leaked = cardNumbersUsed().filter((pan) => writtenForms(pan).test(log))
  assert.deepEqual(leaked, [], 'card numbers found in the server log')
})

test('no card number reaches the output of any other server the tests started (instances, the stress test, the development server)', () => {
  const dir = process.env.SERVER_LOG_DIR!
  const files = fs.readdirSync(dir).map((f) => path.join(dir, f))
  // instances started by the HTTP tests wrote here: an empty folder would mean nothing was kept
  assert.ok(
    files.some((f) => /^instance-/.test(path.basename(f)) && fs.statSync(f).size > 0),
    `no instance's output in ${dir}: are the servers' outputs kept?`,
  )
  const pans = cardNumbersUsed()
  const leaks = files.flatMap((f) => {
    const text = fs.readFileSync(f, 'utf8')
    return pans.filter((pan) => writtenForms(pan).test(text)).map((pan) => `${path.basename(f)}: ${pan.slice(0, 6)}…`)
  })
  assert.deepEqual(leaks, [], "card numbers found in a server's output")
})

test('no card number reaches the statement texts the suite recorded (lib/db/statement-log.ts)', () => {
  const dir = process.env.STATEMENT_LOG_DIR!
  const files = fs.readdirSync(dir).map((f) => path.join(dir, f))
  assert.ok(files.length > 0, `no statement recorded in ${dir}: did the suite run?`)
  const pans = cardNumbersUsed()
  const leaks = files.flatMap((f) => {
    const text = fs.readFileSync(f, 'utf8')
    return pans.filter((pan) => writtenForms(pan).test(text)).map((pan) => `${path.basename(f)}: ${pan.slice(0, 6)}…`)
  })
  assert.deepEqual(leaks, [], 'card numbers found in a recorded statement')
})
