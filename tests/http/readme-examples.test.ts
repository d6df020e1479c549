// The shell examples of README.md and of every page under docs/ run as printed, each page's in order in a
// shell of its own, the pages one after the other (in path order) on one fresh start: one database (migrated,
// with the demo site and a token, as `npm start` leaves it; the pages share it, so their ids differ) and an
// instance of the service on it, on a port of the suite's, with the default settings the pages describe. Only the host (http://localhost:3000, which the pages name only where they
// export BASE) and the tokens npm start makes (the demo site's, kept in data/demo.token, and
// data/metrics.token) are replaced; the shell has no setting of the suite's, only DATABASE_URL and
// SECRET_KEY, so the site command reaches this database. Each command must exit 0, each of its curl requests
// answer the status its comment names (else 2xx), the answer's status be the one named, and an answer
// printed in a ```json block match it (tests/support/readme-examples.ts). Blocks marked
// `<!-- readme-examples: skip -->` are not run.
// The instance runs no notification worker, so the examples' https://shop.example URLs are never
// looked up or connected to.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { BASE_URL } from '../support/api.ts'
import { dropDatabase, freshDatabase } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { docFiles, problemsOf, readmeCommands, readmeText, runInBash, withService } from '../support/readme-examples.ts'

const port = Number(new URL(BASE_URL).port) + 200
const base = `http://127.0.0.1:${port}`
const database = `payin_readme_${randomBytes(4).toString('hex')}`
let databaseUrl = ''
// the metrics example's token, in the service's settings and the shell's, as the README says
const metricsToken = randomBytes(16).toString('hex')
let instance: Instance | undefined

// what npm start does on a fresh machine: a migrated database, the demo site with a token, the server
before(async () => {
  databaseUrl = await freshDatabase(database)
  instance = await startInstance(port, {
    DATABASE_URL: databaseUrl,
    PUBLIC_BASE_URL: base,
    METRICS_TOKEN: metricsToken,
    NOTIFICATIONS_WORKER: 'off',
    // the settings the README's examples assume are the defaults, not the suite's
    MOBILE_OPERATOR_DELAY_MS: '3000',
    THREE_DS_TIMEOUT_MS: '900000',
    SANDBOX_OTP_CODE: '1234',
    RATE_LIMIT_PER_MINUTE: '6000',
  })
})

after(async () => {
  if (instance) {
    instance.kill('SIGTERM')
    await instance.exited
  }
  await dropDatabase(database)
})

/** the demo site's token, as npm start makes it at the first start */
let demoToken: Promise<string> | undefined
function demoSiteToken(): Promise<string> {
  demoToken ??= promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/site.ts', 'create', 'demo'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  }).then((created) => {
    const token = created.stdout.trimEnd().split('\n').at(-1)!
    assert.match(token, /^sk_/)
    return token
  })
  return demoToken
}

const pages = docFiles().map((file) => ({
  file,
  commands: readmeCommands(withService(readmeText(file), { base, token: 'sk_', metricsToken })),
}))

test('the pages hold enough examples to run', () => {
  const count = pages.reduce((n, p) => n + p.commands.length, 0)
  assert.ok(count >= 30, `only ${count} commands found in README.md and docs/`)
})

for (const { file, commands: listed } of pages.filter((p) => p.commands.length)) {
  test(`${file}: its examples run as printed, in order, on a fresh start`, { timeout: 10 * 60_000 }, async () => {
    const token = await demoSiteToken()
    const commands = readmeCommands(withService(readmeText(file), { base, token, metricsToken }))
    assert.equal(commands.length, listed.length)
    const ran = await runInBash(commands, { DATABASE_URL: databaseUrl, SECRET_KEY: process.env.SECRET_KEY! })

    const problems = problemsOf(file, commands, ran)
    if (problems.length)
      assert.fail(`${file}: the examples do not run as printed (${problems.length}):\n${problems.join('\n')}`)
  })
}
