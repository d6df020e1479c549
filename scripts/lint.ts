// `npm run lint`: the tree's formatting (Prettier, .prettierrc.json), ESLint (eslint.config.mjs) and the
// dependency rules (dependency-cruiser, .dependency-cruiser.cjs), each in turn; `npm test` runs it first.
// A check that passes says so in one line; one that fails prints what its tool found. Prettier and ESLint
// keep caches under node_modules/.cache, so a run after a small change takes seconds.
// `--write` (npm run format): Prettier rewrites what it would flag.
// `--target` (npm run deps:target): where lib/ does not follow the target layering of issue 27 yet
// (.dependency-cruiser-target.cjs); a report, it fails on nothing.
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
      // a known exception of the dependency rules warns without failing: its line is kept in view
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

interface Violation {
  from: string
  to: string
  dependencyTypes?: string[]
  rule: { name: string }
}

/** the target layering's violations, by rule (a report: always exits 0 unless the tool itself fails) */
function targetReport(): boolean {
  const r = spawnSync(
    process.execPath,
    [
      path.join('node_modules', '.bin', 'depcruise'),
      '.',
      '--config',
      '.dependency-cruiser-target.cjs',
      '--output-type',
      'json',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
  if (r.status !== 0 || !r.stdout) {
    process.stderr.write(r.stderr ?? '')
    return false
  }
  const result = JSON.parse(r.stdout) as {
    summary: { violations: Violation[]; ruleSetUsed: { forbidden: { name: string; comment: string }[] } }
  }
  const { violations } = result.summary
  console.log(`The target layering of issue 27 (.dependency-cruiser-target.cjs): ${violations.length} violation(s)`)
  for (const rule of result.summary.ruleSetUsed.forbidden) {
    const own = violations.filter((v) => v.rule.name === rule.name)
    console.log(`\n${rule.name}: ${own.length ? `${own.length} violation(s)` : 'holds'}\n  ${rule.comment}`)
    for (const v of own)
      console.log(`  - ${v.from} → ${v.to}${v.dependencyTypes?.includes('type-only') ? ' (types only)' : ''}`)
  }
  return true
}

if (process.argv[1]?.endsWith('lint.ts')) {
  const mode = process.argv[2]
  if (mode === '--write') {
    const r = spawnSync(process.execPath, [path.join('node_modules', '.bin', 'prettier'), '--write', '.', '--cache'], {
      stdio: 'inherit',
    })
    process.exit(r.status ?? 1)
  } else if (mode === '--target') process.exit(targetReport() ? 0 : 1)
  else if (mode === undefined) process.exit(lint() ? 0 : 1)
  else {
    console.error('usage: scripts/lint.ts [--write | --target]')
    process.exit(2)
  }
}
