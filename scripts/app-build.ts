// The payment page's script (scripts/pay-form-bundle.ts) and `next build`, when the app's sources differ
// from those of the last build (a hash kept beside it).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PAY_FORM_OUT_DIR, payFormScriptBuilt } from '../lib/pay-form/pay-form-script.ts'
import { bundlePayForm } from './pay-form-bundle.ts'

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
  for (const d of ['app', 'pages', 'components', 'lib']) walk(d)
  for (const f of ['proxy.ts', 'instrumentation.ts', 'global.d.ts'])
    if (fs.existsSync(f)) h.update(f).update(fs.readFileSync(f))
  for (const f of [
    'next.config.mjs',
    'package-lock.json',
    'tsconfig.json',
    'prisma/schema.prisma',
    'scripts/pay-form-bundle.ts',
  ])
    if (fs.existsSync(f)) h.update(f).update(fs.readFileSync(f))
  return h.digest('hex')
}

/**
 * the payment page's script and `next build` when the sources differ from those of the last build (always with `force`;
 * `verbose` shows Next's report)
 */
export async function buildIfChanged(
  log: (line: string) => void = console.log,
  { force = false, verbose = false } = {},
): Promise<void> {
  const dist = process.env.NEXT_DIST_DIR || '.next'
  const stamp = path.join(dist, 'source-hash')
  const hash = sourceHash()
  const built = fs.existsSync(path.join(dist, 'BUILD_ID')) && payFormScriptBuilt()
  if (!force && built && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return
  log("building the payment page's script (esbuild) ...")
  const script = await bundlePayForm()
  log(`${PAY_FORM_OUT_DIR}/${script}`)
  log('building the app (next build) ...')
  execFileSync('node_modules/.bin/next', ['build'], {
    stdio: ['ignore', verbose ? 'inherit' : 'ignore', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  })
  fs.writeFileSync(stamp, hash)
}
