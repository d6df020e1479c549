// The README's quick start, end to end, as a newcomer runs it on a fresh machine, on a port of the suite (not
// 3000): the service started with the settings its start command gives, with a delivery worker and a database of
// its own; the webhook listener of step 3 (`npm run webhooks -- listen`) as its own process; then every command of
// the quick start in a shell of its own, each answering as printed; and the listener printing the line step 6
// shows, both signatures verified. On SIGTERM the listener puts the demo site's notification URL back (none).
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, test } from 'node:test'
import { BASE_URL } from '../support/api.ts'
import { dropDatabase, freshDatabase } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { problemsOf, readmeCommands, readmeText, runInBash, withService } from '../support/readme-examples.ts'
import { lastLine, siteOk } from '../support/site-command.ts'
import { listeningUrl, siteNotifyUrl, startListener } from '../support/webhooks-listener.ts'

const port = Number(new URL(BASE_URL).port) + 270
const base = `http://127.0.0.1:${port}`
const database = `payin_quick_${randomBytes(4).toString('hex')}`
let databaseUrl = ''
let instance: Instance | undefined

/** the README's quick start: from its heading to the next section */
const quickStart = (() => {
  const text = readmeText()
  const from = text.indexOf('## Quick start')
  assert.ok(from >= 0, 'the README has a Quick start')
  const to = text.indexOf('\n## ', from + 1)
  return text.slice(from, to < 0 ? undefined : to)
})()

/** the start command's settings (`A=1 B=2 npm start`), which the service under test is given */
const startSettings = (() => {
  const m = /^((?:[A-Z_]+=\S*\s+)*)npm start$/m.exec(quickStart)
  assert.ok(m, 'the quick start starts the service with npm start')
  return Object.fromEntries(
    m[1]
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => kv.split(/=(.*)/s).slice(0, 2) as [string, string]),
  )
})()

/** a newcomer's shell: no setting of the suite, only where the commands reach the database */
const shellEnv = () =>
  ({
    PATH: process.env.PATH!,
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
    DATABASE_URL: databaseUrl,
    SECRET_KEY: process.env.SECRET_KEY!,
  }) as unknown as NodeJS.ProcessEnv

before(async () => {
  databaseUrl = await freshDatabase(database)
  instance = await startInstance(port, {
    ...startSettings,
    DATABASE_URL: databaseUrl,
    PUBLIC_BASE_URL: base,
    NOTIFICATIONS_WORKER: 'on',
    NOTIFY_POLL_MS: '100',
  })
})

after(async () => {
  if (instance) {
    instance.kill('SIGTERM')
    await instance.exited
  }
  await dropDatabase(database)
})

test('the quick start runs as printed, and the listener prints the webhook it shows, verified', async () => {
  // what the first npm start makes: the demo site and its token
  const token = lastLine(await siteOk(['create', 'demo'], { ...process.env, DATABASE_URL: databaseUrl }))
  assert.match(token, /^sk_/)

  // step 3, in its own terminal: the command as printed
  const listenLine = /^npm run webhooks -- listen(.*)$/m.exec(quickStart)
  assert.ok(listenLine, 'the quick start runs the listener')
  const listener = startListener(listenLine[1].split(/\s+/).filter(Boolean), shellEnv(), 'quick-start-listener')
  /** resolves once the listener's output holds `text`; rejects if it exits first */
  const printed = (text: string) => listener.until(`"${text}"`, (out) => (out.includes(text) ? true : undefined))

  try {
    await listener.until('listening', listeningUrl)

    // every other command of the quick start, in one shell, as printed
    const commands = readmeCommands(withService(quickStart, { base, token, metricsToken: '' }))
    assert.ok(commands.length >= 5, `only ${commands.length} commands in the quick start`)
    const ran = await runInBash(commands, { DATABASE_URL: databaseUrl, SECRET_KEY: process.env.SECRET_KEY! })
    const problems = problemsOf('README.md (quick start)', commands, ran)
    assert.deepEqual(problems, [])

    // step 6: the line the README shows the listener printing
    const shown = /\*\*6\. See the webhook arrive\.\*\*[\s\S]*?```\n([^\n]+)\n```/.exec(quickStart)
    assert.ok(shown, 'step 6 shows the line the listener prints')
    assert.match(shown[1], /signature OK$/)
    await printed(shown[1])
  } finally {
    if (listener.proc.exitCode === null) listener.proc.kill('SIGTERM')
    await listener.exited
  }
  assert.match(listener.lines().join('\n'), /notifications of demo go to each operation's callbackUrl only again/)
  assert.equal(await siteNotifyUrl(databaseUrl, 'demo'), null, "the demo site's URL is put back: none")
})
