// The dependency audit's verdict (scripts/audit.mjs) on saved `npm audit --json` answers: a finding
// fails it unless security/audit-exceptions.json justifies it; a registry without the advisory
// endpoint is reported as not checked.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-'))
const advisory = 'https://github.com/advisories/GHSA-aaaa-bbbb-cccc'
const withFinding = {
  auditReportVersion: 2,
  vulnerabilities: {
    'some-lib': {
      name: 'some-lib',
      severity: 'high',
      via: [
        { source: 1, name: 'some-lib', title: 'Prototype pollution', url: advisory, severity: 'high', range: '<1.2.3' },
      ],
      range: '<1.2.3',
    },
    'uses-it': { name: 'uses-it', severity: 'high', via: ['some-lib'], range: '*' },
  },
  metadata: { dependencies: { prod: 40 } },
}
const clean = { auditReportVersion: 2, vulnerabilities: {}, metadata: { dependencies: { prod: 40 } } }
const refused = {
  message: '405 Method Not Allowed - POST https://registry.example/-/npm/v1/security/advisories/bulk',
  statusCode: 405,
  error: { summary: '', detail: '' },
}

function audit(report: object, exceptions: object[] = []) {
  const reportFile = path.join(dir, `report-${Math.random()}.json`)
  const exceptionsFile = path.join(dir, `exceptions-${Math.random()}.json`)
  fs.writeFileSync(reportFile, JSON.stringify(report))
  fs.writeFileSync(exceptionsFile, JSON.stringify(exceptions))
  const r = spawnSync(process.execPath, ['scripts/audit.mjs'], {
    env: { ...process.env, AUDIT_REPORT: reportFile, AUDIT_EXCEPTIONS: exceptionsFile },
    encoding: 'utf8',
  })
  return { code: r.status, out: r.stdout + r.stderr }
}

test('a clean report passes', () => {
  const r = audit(clean)
  assert.equal(r.code, 0, r.out)
  assert.match(r.out, /0 findings, 0 not justified/)
})

test('a finding without a justification fails, naming the package and the advisory', () => {
  const r = audit(withFinding)
  assert.equal(r.code, 1, r.out)
  assert.match(
    r.out,
    /OPEN: some-lib <1\.2\.3 high Prototype pollution https:\/\/github\.com\/advisories\/GHSA-aaaa-bbbb-cccc/,
  )
  assert.match(r.out, /1 findings, 1 not justified/)
})

test('a finding justified by its advisory id passes and is still listed', () => {
  const r = audit(withFinding, [
    { advisory: 'GHSA-aaaa-bbbb-cccc', package: 'some-lib', reason: 'only reached by the build' },
  ])
  assert.equal(r.code, 0, r.out)
  assert.match(r.out, /justified: some-lib/)
})

test('a registry that refuses the advisory endpoint is reported as not checked', () => {
  const r = audit(refused)
  assert.equal(r.code, 0, r.out)
  assert.match(r.out, /not checked: .*405/)
})

test('a registry out of reach is not checked; any other failure of npm audit fails the check', () => {
  const offline = audit({
    error: {
      code: 'EAI_AGAIN',
      summary:
        'request to https://registry.example/-/npm/v1/security/advisories/bulk failed, reason: getaddrinfo EAI_AGAIN',
      detail: '',
    },
  })
  assert.equal(offline.code, 0, offline.out)
  assert.match(offline.out, /not checked/)
  const noLock = audit({
    error: {
      code: 'ENOLOCK',
      summary: 'This command requires an existing lockfile.',
      detail: 'Try creating one first with: npm i --package-lock-only',
    },
  })
  assert.equal(noLock.code, 1, noLock.out)
  assert.match(noLock.out, /npm audit failed: .*ENOLOCK/)
})
