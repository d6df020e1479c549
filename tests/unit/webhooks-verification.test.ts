// The local listener's check of a notification (lib/notifications/notification-check.ts), written from the
// protocol's description, against what the service signs (lib/notifications/signing.ts): a signed body verifies,
// also across a rotation's grace period; a changed body, another secret, an old `t` or a missing header does not,
// each saying why. Also: the refusal that names NOTIFY_ALLOW_NETWORKS has its Russian words in the dashboard.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PRIVATE_ADDRESS_REFUSAL } from '../../lib/notifications/callback-url.ts'
import { checkNotification, notificationLine } from '../../lib/notifications/notification-check.ts'
import { signatureHeaders, type SiteSecrets } from '../../lib/notifications/signing.ts'
import { settings as ruSettings } from '../../lib/i18n/ru/settings.ts'

const body =
  '{"payment":{"type":"PAYMENT","paymentId":"order-1001","createdDateTime":"2026-11-23T12:04:05+00:00",' +
  '"amount":{"value":60.50,"currency":"RUB"},' +
  '"status":{"value":"SUCCESS","changedDateTime":"2026-11-23T12:04:05+00:00"},' +
  '"billId":"b-1","customFields":{},"flags":["SALE"]},"type":"PAYMENT","version":"1"}'
const refund =
  '{"refund":{"type":"REFUND","refundId":"ref-1","paymentId":"order-1001",' +
  '"createdDateTime":"2026-11-23T12:05:00+03:00","amount":{"value":10.00,"currency":"EUR"},' +
  '"status":{"value":"DECLINE","changedDateTime":"2026-11-23T12:05:00+03:00"},' +
  '"flags":[]},"type":"REFUND","version":"1"}'
const secrets: SiteSecrets = { current: 'whsec_current', previous: null, previousUntil: null }
const now = new Date('2026-11-23T12:04:06Z')

const signed = (text: string, s: SiteSecrets = secrets, at = now) => {
  const h = signatureHeaders(s, text, at)
  return { signature: h.Signature, payinSignature: h['Payin-Signature'] }
}

test('a notification the service signed: OK, with its type, id, status and amount', () => {
  const check = checkNotification(body, signed(body), [secrets.current], now.getTime())
  assert.deepEqual(check.problems, [])
  assert.equal(notificationLine(check), 'PAYMENT order-1001 SUCCESS 60.50 RUB signature OK')
  const r = checkNotification(refund, signed(refund), [secrets.current], now.getTime())
  assert.equal(notificationLine(r), 'REFUND ref-1 DECLINE 10.00 EUR signature OK')
})

test('during a rotation: Signature made with the previous secret and a v1 for each verify with both secrets', () => {
  const rotated: SiteSecrets = {
    current: 'whsec_new',
    previous: 'whsec_old',
    previousUntil: new Date(now.getTime() + 1),
  }
  const headers = signed(body, rotated)
  assert.deepEqual(checkNotification(body, headers, ['whsec_new', 'whsec_old'], now.getTime()).problems, [])
  // the new secret alone: Signature (made with the previous one) does not match, Payin-Signature does
  const newOnly = checkNotification(body, headers, ['whsec_new'], now.getTime()).problems
  assert.equal(newOnly.length, 1)
  assert.match(newOnly[0], /^Signature does not match order-1001\|2026-11-23T12:04:05\+00:00\|60\.50/)
})

test('a changed body, another secret, an old t, missing headers: BAD, saying why', () => {
  const headers = signed(body)
  const tampered = body.replace('"value":60.50', '"value":6050.00')
  const bad = checkNotification(tampered, headers, [secrets.current], now.getTime())
  assert.deepEqual(bad.problems, [
    "Signature does not match order-1001|2026-11-23T12:04:05+00:00|6050.00 with the site's secret",
    "Payin-Signature does not match the body with the site's secret",
  ])
  assert.match(notificationLine(bad), /^PAYMENT order-1001 SUCCESS 6050\.00 RUB signature BAD: Signature does not/)
  // a change that the three fields do not cover: only Payin-Signature sees it
  const comment = checkNotification(body.replace('"b-1"', '"b-2"'), headers, [secrets.current], now.getTime())
  assert.deepEqual(comment.problems, ["Payin-Signature does not match the body with the site's secret"])

  assert.equal(checkNotification(body, headers, ['whsec_other'], now.getTime()).problems.length, 2)
  const late = checkNotification(body, headers, [secrets.current], now.getTime() + 301_000).problems
  assert.deepEqual(late, ["Payin-Signature's t is 301 s from now (a replay?)"])
  assert.deepEqual(checkNotification(body, {}, [secrets.current], now.getTime()).problems, [
    'no Signature header',
    'no Payin-Signature header',
  ])
  const notJson = checkNotification('{"payment":', headers, [secrets.current], now.getTime())
  assert.equal(notificationLine(notJson).split(' signature BAD: ')[0], '? ? ? ? ?')
  assert.match(notificationLine(notJson), /the body is not JSON/)
  assert.match(
    notificationLine(checkNotification('{"type":"OTHER"}', headers, [secrets.current], now.getTime())),
    /the body is not a notification/,
  )
})

test("the refusal naming NOTIFY_ALLOW_NETWORKS is in the dashboard's Russian words", () => {
  assert.match(
    PRIVATE_ADDRESS_REFUSAL,
    /^must not point to a private address \(.*NOTIFY_ALLOW_NETWORKS=127\.0\.0\.0\/8/,
  )
  assert.match(ruSettings.urlReasons[PRIVATE_ADDRESS_REFUSAL] ?? '', /^не должен .*NOTIFY_ALLOW_NETWORKS/)
})

test('a signature with a non-ASCII character, as long as a real one, is BAD, not an exception', () => {
  const headers = { ...signed(body), signature: `é${'a'.repeat(63)}` }
  const check = checkNotification(body, headers, [secrets.current], now.getTime())
  assert.equal(check.problems.length, 1, JSON.stringify(check.problems))
  assert.match(check.problems[0], /Signature/)
})
