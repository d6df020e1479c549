// `next build` when the app's sources differ from those of the last build (a hash kept beside it).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

function sourceHash(): string {
  const h = createHash('sha256')
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else h.update(p).update(fs.readFileSync(p))
    }
  }
  for (const d of ['app', 'components', 'lib']) walk(d)
  for (const f of ['proxy.ts', 'global.d.ts']) if (fs.existsSync(f)) h.update(f).update(fs.readFileSync(f))
  for (const f of ['next.config.mjs', 'package-lock.json', 'tsconfig.json', 'prisma/schema.prisma']) if (fs.existsSync(f)) h.update(f).update(fs.readFileSync(f))
  return h.digest('hex')
}

/** `next build` when the sources differ from those of the last build (always with `force`; `verbose` shows Next's report) */
export function buildIfChanged(log: (line: string) => void = console.log, { force = false, verbose = false } = {}): void {
  const dist = process.env.NEXT_DIST_DIR || '.next'
  const stamp = path.join(dist, 'source-hash')
  const hash = sourceHash()
  if (!force && fs.existsSync(path.join(dist, 'BUILD_ID')) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return
  log('building the app (next build) ...')
  execFileSync('node_modules/.bin/next', ['build'], { stdio: ['ignore', verbose ? 'inherit' : 'ignore', 'inherit'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } })
  fs.writeFileSync(stamp, hash)
}

