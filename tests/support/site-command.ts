// `npm run site` (scripts/site.ts) as the tests run it: asynchronously. A blocking execFileSync of a few
// seconds between requests froze the test's event loop while the server closed its idle keep-alive
// connection; the next request then went out on that closed connection ("fetch failed: other side
// closed"). With the loop running, the client drops an idle connection before the server closes it.
import { execFile } from 'node:child_process'

export interface SiteCommandRun {
  code: number
  stdout: string
  stderr: string
}

/** runs the command to its end (any exit code) */
export function siteCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<SiteCommandRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/site.ts', ...args],
      { encoding: 'utf8', env },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr })
        if (typeof error.code === 'number') return resolve({ code: error.code, stdout, stderr })
        reject(new Error(`npm run site -- ${args.join(' ')}: ${error.message}`)) // did not run, or killed by a signal
      },
    )
  })
}

/** the command's output; throws with its stderr unless it exits 0 */
export async function siteOk(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const run = await siteCommand(args, env)
  if (run.code !== 0) throw new Error(`npm run site -- ${args.join(' ')} exited ${run.code}: ${run.stderr}`)
  return run.stdout
}

export const lastLine = (out: string) => out.trimEnd().split('\n').at(-1)!
