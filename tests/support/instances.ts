// Extra app instances on the test database, for tests that kill, stop or count instances.
import { spawn, type ChildProcess } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { serverStdio } from './server-output.ts'

export interface Instance {
  base: string
  proc: ChildProcess
  exited: Promise<number | string>
  kill: (signal?: NodeJS.Signals) => void
}

/**
 * an instance of the service on 127.0.0.1:port, once its health answers; `cwd`: the checkout it runs from (this one)
 */
export async function startInstance(
  port: number,
  env: Record<string, string> = {},
  opts: { cwd?: string } = {},
): Promise<Instance> {
  const output = serverStdio(`instance-${port}`)
  const proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/http-server.ts'], {
    cwd: opts.cwd,
    // no delivery worker unless the test asks for one (WORKER_ENV): on the suite's database, a worker of an
    // instance started for something else would take other tests' notifications and, not allowed to post to
    // their loopback receivers, put them off by its retry delays
    // and, as on the suite's server, no per-client limit unless the test sets one: every test's payer and sign-in
    // comes from 127.0.0.1, and the windows are counted in the shared database, so another file's page attempts
    // would otherwise fill this instance's window (a 429 seen in documented-examples)
    env: {
      ...process.env,
      NOTIFICATIONS_WORKER: 'off',
      PAGE_CLIENT_ATTEMPTS: '100000',
      DASHBOARD_SIGN_IN_FAILURES_PER_CLIENT: '100000',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    // its output kept for the after-suite check (no card number in any server's output)
    stdio: output.stdio,
    detached: true,
  })
  output.close()
  const exited = new Promise<number | string>((r) => proc.on('exit', (code, signal) => r(code ?? signal ?? -1)))
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break
    if (proc.exitCode !== null) throw new Error(`instance on ${port} exited`)
    await sleep(100)
  }
  const kill = (signal: NodeJS.Signals = 'SIGKILL') => {
    if (proc.exitCode !== null || proc.signalCode !== null || !proc.pid) return
    try {
      process.kill(-proc.pid, signal)
    } catch (e) {
      // its process group is gone already (it exited and the exit is not yet reported): nothing to stop
      if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e
    }
  }
  return { base, proc, exited, kill }
}
