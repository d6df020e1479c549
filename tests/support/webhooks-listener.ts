// The webhook listener (scripts/webhooks.ts) as the tests run it, and what it changes: the site's notification URL.
import { spawn, type ChildProcess } from 'node:child_process'
import pg from 'pg'
import { keepServerOutput } from './server-output.ts'

/**
 * `npm run webhooks -- listen <args>` as a child process in `env` (its database: DATABASE_URL), its output read as it
 * comes; kept under `name` among the servers' outputs once it ends
 */
export function startListener(args: string[], env: NodeJS.ProcessEnv, name: string) {
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/webhooks.ts', 'listen', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const changed = new Set<() => void>()
  const exited = new Promise<number | null>((r) => proc.on('close', (code) => r(code)))
  const read = (d: Buffer) => {
    output += d
    for (const f of changed) f()
  }
  proc.stdout!.on('data', read)
  proc.stderr!.on('data', read)
  proc.on('close', () => {
    keepServerOutput(name, output)
    for (const f of changed) f()
  })
  return {
    proc,
    exited,
    lines: () => output.split('\n').filter(Boolean),
    /** resolves with what `pick` finds in the output, once it does (checked at each output) */
    until<T>(what: string, pick: (output: string) => T | undefined, ms = 30_000): Promise<T> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = pick(output)
          if (found !== undefined) {
            changed.delete(check)
            clearTimeout(timer)
            resolve(found)
          } else if (proc.exitCode !== null) {
            changed.delete(check)
            clearTimeout(timer)
            reject(new Error(`the listener exited (${proc.exitCode}) before ${what}:\n${output}`))
          }
        }
        const timer = setTimeout(() => {
          changed.delete(check)
          reject(new Error(`${what}: not within ${ms} ms\n${output}`))
        }, ms)
        changed.add(check)
        check()
      })
    },
  }
}

/** the listener's own URL, once its first line is out */
export const listeningUrl = (output: string) => /listening on (http:\/\/127\.0\.0\.1:\d+\/) /.exec(output)?.[1]

/** the site's notification URL, read from its database */
export async function siteNotifyUrl(databaseUrl: string, siteId: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: databaseUrl })
  await c.connect()
  try {
    return (await c.query('SELECT "notifyUrl" FROM "Site" WHERE id = $1', [siteId])).rows[0].notifyUrl
  } finally {
    await c.end()
  }
}
