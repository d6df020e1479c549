// npm start's METRICS_TOKEN (scripts/database.ts metricsToken): unset, one is made once into
// data/metrics.token (mode 0600) and given to the server; set, it is used; set empty, metrics stay off.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { metricsToken } from '../../scripts/database.ts'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'metrics-token-'))
after(() => fs.rmSync(tmp, { recursive: true, force: true }))

test('unset: a token is made once into the file (owner-only), and the next start reads the same one', () => {
  const file = path.join(tmp, 'data', 'metrics.token')
  const first: Record<string, string | undefined> = {}
  assert.equal(metricsToken(first, file), 'file')
  assert.match(first.METRICS_TOKEN!, /^[0-9a-f]{64}$/)
  assert.equal(fs.statSync(file).mode & 0o777, 0o600)
  assert.equal(fs.readFileSync(file, 'utf8').trim(), first.METRICS_TOKEN)

  const second: Record<string, string | undefined> = {}
  assert.equal(metricsToken(second, file), 'file')
  assert.equal(second.METRICS_TOKEN, first.METRICS_TOKEN)
})

test('set: used as it is, no file made; set empty: metrics off', () => {
  const file = path.join(tmp, 'unused', 'metrics.token')
  const set: Record<string, string | undefined> = { METRICS_TOKEN: 'a-token-of-the-operators-own' }
  assert.equal(metricsToken(set, file), 'environment')
  assert.equal(set.METRICS_TOKEN, 'a-token-of-the-operators-own')
  for (const blank of ['', '  ']) {
    const off: Record<string, string | undefined> = { METRICS_TOKEN: blank }
    assert.equal(metricsToken(off, file), 'off')
  }
  assert.equal(fs.existsSync(path.dirname(file)), false)
})
