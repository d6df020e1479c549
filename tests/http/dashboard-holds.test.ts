// The dashboard's hold setting over HTTP (issue 30): the settings page shows what the site's holds do at the end of
// their period; POST /dashboard/actions/settings/holds changes it (a period outside 1 h – 5 days or an unknown action
// is a 400 naming the field), the change applies to the site's open holds and is in the audit log.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { client, newSite, rub, twoStepPayment } from '../support/api.ts'
import { asSession, assertError, dashboardPage, post, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'

test('the hold setting: shown, changed for the open holds too, refused outside its range, audited', async () => {
  const site = await newSite('settings-holds')
  const api = client(site)
  const cookie = await signIn(site)
  const page = async () => (await dashboardPage(cookie, '/dashboard/settings')).text()
  assert.match(await page(), /Captured in full 72 h after the authorisation/)

  const paymentId = await api.newPayment(twoStepPayment())
  const set = await post('/dashboard/actions/settings/holds', { action: 'reverse', hours: 3 }, asSession(cookie))
  assert.equal(set.status, 200, set.text)
  assert.deepEqual(set.body, { action: 'reverse', hours: 3 })
  assert.match(await page(), /Reversed 3 h after the authorisation/)

  for (const [body, field] of [
    [{ action: 'reverse', hours: 0 }, 'hours'],
    [{ action: 'reverse', hours: 121 }, 'hours'],
    [{ action: 'reverse', hours: 1.5 }, 'hours'],
    [{ action: 'keep', hours: 5 }, 'action'],
    [{ action: 'capture' }, 'hours'],
  ] as const) {
    const r = await post('/dashboard/actions/settings/holds', body, asSession(cookie))
    assertError(r, 400, 'validation.error')
    assert.ok(r.body.cause?.[field], `${JSON.stringify(body)}: ${r.text}`)
  }
  assertError(
    await post('/dashboard/actions/settings/holds', { action: 'capture', hours: 5 }, {}),
    401,
    'auth.unauthorized',
  )

  // the open hold is reversed 3 h after its authorisation
  const authorisedAt = Date.parse((await api.paymentNow(paymentId)).status.changedDateTime)
  const seconds = Math.ceil((authorisedAt + 3 * 3600_000 + 60_000 - Date.now()) / 1000)
  assert.equal((await api.post('/sandbox/clock/advance', { seconds })).status, 200)
  const p = await api.paymentNow(paymentId)
  assert.deepEqual(p.refundedAmount, rub('100.00'))
  assert.deepEqual(p.capturedAmount, rub('0.00'))

  const audit = await sql(`SELECT action, subject, outcome, detail FROM "AuditEntry" WHERE "siteId" = $1`, [
    site.siteId,
  ])
  assert.deepEqual(
    audit.filter((e) => e.action === 'holds').map((e) => [e.outcome, e.detail?.hours]),
    [['reverse', '3']],
  )
  assert.match(await page(), /reverse after 3 h/)
})
