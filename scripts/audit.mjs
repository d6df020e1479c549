// npm run audit: `npm audit --omit=dev` against the registry's advisory database. Every finding fails
// the check unless security/audit-exceptions.json lists its advisory (GHSA id or URL) with the reason it
// does not apply, and docs/operators/security.md repeats that reason. When the registry does not serve the
// advisory endpoint (some mirrors answer 405), the check says so and passes: it cannot tell either way.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
// AUDIT_REPORT: a saved `npm audit --json` answer to judge instead (the script's own tests)
const r = process.env.AUDIT_REPORT
  ? { stdout: fs.readFileSync(process.env.AUDIT_REPORT, 'utf8'), stderr: '' }
  : spawnSync(npm, ['audit', '--omit=dev', '--json'], {
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    })
const exceptions = JSON.parse(
  fs.readFileSync(
    process.env.AUDIT_EXCEPTIONS ?? new URL('../security/audit-exceptions.json', import.meta.url),
    'utf8',
  ),
)
const excepted = new Set(exceptions.map((e) => e.advisory))

let report
try {
  report = JSON.parse(r.stdout)
} catch {
  report = null
}
const failure =
  report?.error ?? (report ? null : { summary: (r.stderr || r.error?.message || 'no answer').trim().split('\n').pop() })
if (failure) {
  const text = [report?.statusCode, report?.message, failure.code, failure.summary, failure.detail]
    .filter(Boolean)
    .join(' ')
  if (
    /\b(405|404|501)\b|ENOAUDIT|audit endpoint|Method Not Allowed|ETIMEDOUT|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|network/i.test(
      text,
    )
  ) {
    console.log(`[audit] not checked: the registry did not serve its advisory endpoint (${text.trim().slice(0, 160)})`)
    process.exit(0)
  }
  console.error(`[audit] npm audit failed: ${text.trim()}`)
  process.exit(1)
}

const findings = []
for (const [name, v] of Object.entries(report.vulnerabilities ?? {})) {
  for (const via of v.via) {
    if (typeof via !== 'object') continue // reached through another package, reported there
    findings.push({
      name,
      advisory: via.url ?? String(via.source),
      title: via.title,
      severity: via.severity,
      range: via.range,
    })
  }
}
const open = findings.filter((f) => !excepted.has(f.advisory) && !excepted.has(f.advisory.split('/').pop()))
for (const f of findings)
  console.log(
    `[audit] ${open.includes(f) ? 'OPEN' : 'justified'}: ${f.name} ${f.range} ${f.severity} ${f.title} ${f.advisory}`,
  )
console.log(
  `[audit] ${Object.keys(report.dependencies ?? {}).length || report.metadata?.dependencies?.prod || '?'} production packages, ${findings.length} findings, ${open.length} not justified`,
)
process.exit(open.length ? 1 : 0)
