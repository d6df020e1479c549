// Where the servers the tests start write their stdout and stderr: a file each in SERVER_LOG_DIR (set by
// scripts/run-tests.ts), which the after-suite check (tests/after/no-card-data.test.ts) reads whole, like
// the suite's own server's log. Without it (a test file run by hand) the output is dropped.
import fs from 'node:fs'
import path from 'node:path'

/** a new file's path in SERVER_LOG_DIR for one server's output, or null when no directory is set */
export function serverOutputFile(name: string): string | null {
  const dir = process.env.SERVER_LOG_DIR
  if (!dir) return null
  fs.mkdirSync(dir, { recursive: true })
  return path.join(
    dir,
    `${name.replace(/[^\w.-]+/g, '_')}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.log`,
  )
}

/**
 * stdio for a server's spawn: its output appended to a file of its own, or dropped. The descriptor
 * is the child's once spawned: call `close` after spawn().
 */
export function serverStdio(name: string): {
  stdio: ['ignore', number | 'ignore', number | 'ignore']
  close: () => void
} {
  const file = serverOutputFile(name)
  if (!file) return { stdio: ['ignore', 'ignore', 'ignore'], close: () => {} }
  const fd = fs.openSync(file, 'a')
  return { stdio: ['ignore', fd, fd], close: () => fs.closeSync(fd) }
}

/** output a test read through a pipe, kept with the others */
export function keepServerOutput(name: string, text: string): void {
  const file = serverOutputFile(name)
  if (file) fs.writeFileSync(file, text)
}
