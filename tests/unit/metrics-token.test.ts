// npm start's METRICS_TOKEN (scripts/database.ts metricsToken): unset, one is made once into
// data/metrics.token (mode 0600) and given to the server; set, it is used; set empty, metrics stay off.
// The setting as every server reads it (lib/config.ts): trimmed; a value no bearer header can match is
// refused at the start, in one line that does not show it.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { metricsToken } from '../../scripts/database.ts'
import { readSettings } from '../../lib/config.ts'

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

test('a token no Authorization header can carry (a space or tab inside it, a control or non-ASCII character) is refused at the start, in one line that does not show it', () => {
  const refusal =
    /^METRICS_TOKEN has a character a bearer token cannot carry \(a space or tab inside it, a control or non-ASCII character\): use a long random value/
  for (const token of [
    'correct horse battery staple',
    'tab\tseparated-token-12345',
    'a-long-token-with-\u0007-bell',
    'pässwort-für-metriken-2026',
    'token-with-nbsp\u00a0inside-it',
    'line\nbreak-inside-the-token',
  ]) {
    assert.throws(
      () => readSettings({ METRICS_TOKEN: token }),
      (e: Error) => {
        assert.match(e.message, refusal, JSON.stringify(token))
        assert.ok(!e.message.includes('\n') && !e.message.includes(token), 'one line, without the token')
        return true
      },
    )
  }
  // around it, spaces and line ends are trimmed; inside it, any visible ASCII character
  assert.equal(
    readSettings({ METRICS_TOKEN: ' \t0123456789abcdef0123456789abcdef\n' }).metricsToken,
    '0123456789abcdef0123456789abcdef',
  )
  assert.equal(
    readSettings({ METRICS_TOKEN: 'A~z!"#$%&()*+,-./:;<=>?@[]^_`{|}0' }).metricsToken,
    'A~z!"#$%&()*+,-./:;<=>?@[]^_`{|}0',
  )
  assert.equal(readSettings({ METRICS_TOKEN: '  ' }).metricsToken, '')
})
