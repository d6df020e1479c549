// `npm run lint`: the tree's formatting (Prettier, .prettierrc.json), ESLint (eslint.config.mjs) and the
// dependency rules (dependency-cruiser, .dependency-cruiser.cjs), each in turn; `npm test` runs it first.
// A check that passes says so in one line; one that fails prints what its tool found. Prettier and ESLint
// keep caches under node_modules/.cache, so a run after a small change takes seconds.
// `--write` (npm run format): Prettier rewrites what it would flag.
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const log = (line: string) => console.log(`[lint] ${line}`)

/** a tool of node_modules/.bin on this process's Node.js, its output captured */
function run(tool: string, args: string[]) {
  const r = spawnSync(process.execPath, [path.join('node_modules', '.bin', tool), ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `${r.error.message}\n` : ''}` }
}

const CHECKS: { name: string; tool: string; args: string[] }[] = [
  { name: 'formatting (prettier --check)', tool: 'prettier', args: ['--check', '.', '--cache', '--log-level', 'warn'] },
  { name: 'ESLint', tool: 'eslint', args: ['--cache', '--cache-location', 'node_modules/.cache/eslint/', '.'] },
  { name: 'dependency rules (dependency-cruiser)', tool: 'depcruise', args: ['.', '--output-type', 'err'] },
]

/** every check, in turn; true when all pass */
export function lint(): boolean {
  let ok = true
  for (const check of CHECKS) {
    const started = Date.now()
    const r = run(check.tool, check.args)
    const took = `${((Date.now() - started) / 1000).toFixed(1)} s`
    if (r.ok) {
      // a rule of `warn` severity (none today: every dependency rule is an error) does not fail: its lines stay in view
      const warnings = r.output.split('\n').filter((l) => /^\s*warn /.test(l))
      log(`${check.name}: ok (${took})${warnings.length ? `, known exceptions:` : ''}`)
      for (const w of warnings) log(`  ${w.trim()}`)
    } else {
      process.stdout.write(r.output.replace(/^\n+/, ''))
      log(`${check.name}: FAILED (${took})${check.tool === 'prettier' ? ' — npm run format rewrites those files' : ''}`)
      ok = false
    }
  }
  return ok
}

if (process.argv[1]?.endsWith('lint.ts')) {
  const mode = process.argv[2]
  if (mode === '--write') {
    const r = spawnSync(process.execPath, [path.join('node_modules', '.bin', 'prettier'), '--write', '.', '--cache'], {
      stdio: 'inherit',
    })
    process.exit(r.status ?? 1)
  } else if (mode === undefined) process.exit(lint() ? 0 : 1)
  else {
    console.error('usage: scripts/lint.ts [--write]')
    process.exit(2)
  }
}
