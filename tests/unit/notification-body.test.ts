// The production-format notification body, rendered from rows: statuses, dates without a fraction in
// the service time zone, amounts as two-decimal JSON numbers, flags, the token slot; and the Signature
// text clients compute from it.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Capture } from '../../lib/payments/capture-store.ts'
import type { Payment } from '../../lib/payments/payment-store.ts'
import type { Refund } from '../../lib/payments/refund-store.ts'

process.env.SECRET_KEY = 'unit-test-key'
process.env.SERVICE_TIME_ZONE = 'Europe/Moscow'

const { captureNotificationBody, paymentNotificationBody, refundNotificationBody, withPaymentToken } =
  await import('../../lib/payments/notification-body.ts')
const { signedText } = await import('../../lib/notifications/signing.ts')
const { paymentTokenOf } = await import('../../lib/payments/payment-tokens.ts')

const at = new Date('2026-11-23T20:37:38.584Z')
const payment: Payment = {
  id: '0b7f4c8e-8a47-4d4f-9d1e-3f3f0c1d2e11',
  siteId: 'site-1',
  paymentId: 'order-1',
  billRef: '5a0b4c8e-8a47-4d4f-9d1e-3f3f0c1d2e11',
  billId: 'bill-1',
  fingerprint: 'x',
  methodType: 'CARD',
  maskedPan: '411111******1111',
  flags: ['SALE'],
  currency: 'RUB',
  amountMinor: 6050n,
  capturedMinor: 6050n,
  refundedMinor: 0n,
  pendingRefundMinor: 0n,
  reversed: false,
  reversedMinor: 0n,
  status: 'COMPLETED',
  statusReason: null,
  statusChangedAt: at,
  createdAt: at,
  comment: null,
  customer: { account: 'acc-1' },
  receipt: null,
  requirements: null,
  authFlow: null,
  otpAttempts: 0,
  dueAt: null,
  holdDueAt: null,
  cardProfile: { outcome: 'approved', month: 2, year: 2031 },
  recurrentMinAuthDay: null,
  recurrentExpiry: null,
  seriesRef: null,
  callbackUrl: null,
  pageAttemptKey: null,
  customFields: null,
  methodData: null,
  cardHolder: null,
  deviceData: null,
  splits: null,
  cheque: null,
}

test('a payment: SUCCESS, whole seconds in the service zone, 60.50 as a number, SALE; Signature text as written', () => {
  const body = paymentNotificationBody(payment)
  const n = JSON.parse(body)
  assert.equal(n.type, 'PAYMENT')
  assert.equal(n.version, '1')
  assert.equal(n.payment.status.value, 'SUCCESS')
  assert.equal(n.payment.createdDateTime, '2026-11-23T23:37:38+03:00')
  assert.match(body, /"amount":\{"value":60\.50,"currency":"RUB"\}/)
  assert.deepEqual(n.payment.flags, ['SALE'])
  assert.equal(n.payment.tokenData, undefined)
  assert.equal(signedText(body), 'order-1|2026-11-23T23:37:38+03:00|60.50')
})

test('two-step is AUTH; a decline carries reasonCode and reasonMessage; captures and refunds say DECLINE', () => {
  const declined = JSON.parse(
    paymentNotificationBody({ ...payment, flags: [], status: 'DECLINED', statusReason: 'ACQUIRING_DECLINED' }),
  ).payment
  assert.deepEqual(declined.flags, ['AUTH'])
  assert.equal(declined.status.value, 'DECLINED')
  assert.equal(declined.status.reasonCode, 'ACQUIRING_DECLINED')
  assert.ok(declined.status.reasonMessage)
  assert.equal(declined.paymentMethod.rrn, null)
  const capture = {
    id: 'c',
    siteId: 'site-1',
    captureId: 'cap-1',
    status: 'DECLINED',
    statusReason: 'INVALID_STATE',
    amountMinor: 100n,
    currency: 'RUB',
    createdAt: at,
    statusChangedAt: at,
  } as Capture
  const c = JSON.parse(captureNotificationBody(capture, payment))
  assert.equal(c.capture.status.value, 'DECLINE')
  assert.equal(c.capture.paymentId, 'order-1')
  assert.equal(signedText(captureNotificationBody(capture, payment)), 'cap-1|2026-11-23T23:37:38+03:00|1.00')
  const refund = {
    id: 'r',
    siteId: 'site-1',
    refundId: 'ref-1',
    status: 'COMPLETED',
    statusReason: null,
    flags: ['REVERSAL'],
    amountMinor: 6050n,
    currency: 'RUB',
    createdAt: at,
    statusChangedAt: at,
  } as unknown as Refund
  const r = JSON.parse(refundNotificationBody(refund, payment)).refund
  assert.equal(r.status.value, 'SUCCESS')
  assert.deepEqual(r.flags, ['REVERSAL'])
})

test('the token is not in the stored body; it is filled in tokenData only, whatever customFields hold', () => {
  const slotLike = { paymentToken: 'pt_(filled in when sent)', tokenData: '{"paymentToken":"pt_(filled in when sent)"' }
  const binding = { ...payment, flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customFields: slotLike }
  const stored = paymentNotificationBody(binding)
  const token = paymentTokenOf(payment.id)
  assert.ok(!stored.includes(token))
  const sent = JSON.parse(withPaymentToken(stored, 'PAYMENT', payment.id)).payment
  assert.equal(sent.tokenData.paymentToken, token)
  assert.equal(sent.tokenData.expiredDate, '2031-02-28T00:00:00+03:00')
  assert.deepEqual(sent.customFields, slotLike)
  // a payment that issued no token: nothing is filled in, the merchant's fields stay as they were
  const plain = paymentNotificationBody({ ...payment, customFields: slotLike })
  assert.equal(withPaymentToken(plain, 'PAYMENT', payment.id), plain)
})

test("a TOKEN payment's paymentMethod.paymentToken: the issuing payment's id at rest, its token when sent", () => {
  const issuedBy = '7c1d2e3f-0000-4d4f-9d1e-3f3f0c1d2e11'
  const slotLike = { paymentToken: `pt_(filled in when sent from ${issuedBy})` }
  const charged = { ...payment, methodType: 'TOKEN', methodData: { tokenOf: issuedBy }, customFields: slotLike }
  const token = paymentTokenOf(issuedBy)
  for (const stored of [
    paymentNotificationBody(charged),
    refundNotificationBody(
      {
        refundId: 'ref-2',
        status: 'COMPLETED',
        statusReason: null,
        flags: [],
        amountMinor: 100n,
        currency: 'RUB',
        createdAt: at,
        statusChangedAt: at,
      } as unknown as Refund,
      charged,
    ),
  ]) {
    assert.ok(!stored.includes(token))
    const n = JSON.parse(withPaymentToken(stored, stored.startsWith('{"payment"') ? 'PAYMENT' : 'REFUND', charged.id))
    const o = n.payment ?? n.refund
    assert.equal(o.paymentMethod.type, 'TOKEN')
    assert.equal(o.paymentMethod.paymentToken, token)
    // the merchant's look-alike value is left as it was
    assert.deepEqual(o.customFields, slotLike)
  }
  // a card payment carries no paymentToken; its holder's name and expiry as production writes them
  const card = JSON.parse(paymentNotificationBody({ ...payment, cardHolder: 'IVAN IVANOV' })).payment.paymentMethod
  assert.equal(card.paymentToken, undefined)
  assert.equal(card.cardHolder, 'IVAN IVANOV')
  assert.equal(card.cardExpireDate, '02/2031')
})
