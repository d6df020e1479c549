// Debian's Chromium as the bench and the page-weight test start it: headless, nothing fetched from
// outside. Background networking, component updates, sync and first-run pages are off, and every host
// (a name or an address written out) but 127.0.0.1 and localhost maps to "not found"
// (--host-resolver-rules): a page, Chromium or Lighthouse cannot reach past the loopback by mistake.
// Checked with strace -f over BENCH_ONLY=lighthouse: every connect() of the bench, the server,
// Lighthouse and Chromium is to 127.0.0.1 or a Unix socket, but for Chromium's IPv6 probe — a UDP
// connect() to a public IPv6 address that only asks the kernel for a route and sends no packet.
import { execFileSync } from 'node:child_process'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-dev-shm-usage',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
]

/** "Chromium 156.0.8078.79 …" as the binary reports it, or "unknown" */
export function chromiumVersion(): string {
  try {
    // Debian's wrapper script prints a warning of its own on stderr: only stdout is read
    return execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return 'unknown'
  }
}
