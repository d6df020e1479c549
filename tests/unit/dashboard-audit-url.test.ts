// What the dashboard's audit log keeps of a notification URL: never its user name or password (parsed
// as browsers parse it, so a password holding an `@` goes too), and nothing of an input that is no URL.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { auditableUrl } from '../../lib/dashboard/dashboard-audit.ts'

test('credentials never reach the audit log', () => {
  assert.equal(auditableUrl('https://shop.example/payin-hook?x=1'), 'https://shop.example/payin-hook?x=1')
  assert.equal(auditableUrl(' https://user:secret@shop.example/h '), 'https://…@shop.example/h')
  assert.equal(auditableUrl('https://user:p@ss@shop.example/h'), 'https://…@shop.example/h')
  assert.equal(auditableUrl('https://user@shop.example/h'), 'https://…@shop.example/h')
  for (const bad of ['user:pw@host', 'https:/user:pw@host', '__proto__', ''])
    assert.ok(
      !auditableUrl(bad).includes('pw') && !auditableUrl(bad).includes('proto'),
      `${bad} → ${auditableUrl(bad)}`,
    )
})
