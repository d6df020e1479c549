// The registry of payment methods (lib/payments/methods) drives every list of methods: the request's union and
// its "must be one of" message, the OpenAPI oneOf and examples, the answer's and notification's type values and
// the flags' rules; and each method keeps the contract's properties (what approval captures, which payments issue
// a token, how a payment shows its card in answers and notifications; RECURRENT stored as CARD).
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Payment } from '../../lib/payments/payment-store.ts'

process.env.SECRET_KEY = 'payment-methods-unit-test-key'

const { apiDocument } = await import('../../lib/openapi/api-document.ts')
const { METHOD_TYPES, PAYMENT_METHODS, STORED_METHOD_TYPES, methodOf, storedMethodOf } =
  await import('../../lib/payments/methods/index.ts')
const { paymentRequestSchema } = await import('../../lib/payments/payment-request.ts')
const { capturedOnApproval } = await import('../../lib/payments/payment-lifecycle.ts')
const { issuesToken } = await import('../../lib/payments/payment-tokens.ts')
const { renderPayment } = await import('../../lib/payments/payment-wire.ts')
const { paymentNotificationBody } = await import('../../lib/payments/notification-body.ts')

type Json = Record<string, any>
const schemas = () => (apiDocument().components.schemas as Json) ?? {}
const amount = { value: '100.00', currency: 'RUB' }
/** the contract's methods and stored types (a method added later is checked by its own tests) */
const KNOWN = ['CARD', 'TOKEN', 'RECURRENT', 'MOBILE']
const KNOWN_STORED = ['CARD', 'TOKEN', 'MOBILE']
const known = (types: readonly string[], of: string[]) => types.filter((t) => of.includes(t))

/** the 400's messages of a request, by field */
function problems(body: unknown): Record<string, string[]> {
  const r = paymentRequestSchema.safeParse(body)
  assert.equal(r.success, false, 'the request was taken')
  const out: Record<string, string[]> = {}
  for (const issue of r.error!.issues) (out[issue.path.join('.')] ??= []).push(issue.message)
  return out
}

/** a COMPLETED payment row stored with this methodType */
const row = (methodType: string, over: Partial<Payment> = {}): Payment =>
  ({
    id: '0b7f4c8e-8a47-4d4f-9d1e-3f3f0c1d2e11',
    siteId: 'site-1',
    paymentId: 'order-1',
    billRef: '5a0b4c8e-8a47-4d4f-9d1e-3f3f0c1d2e11',
    billId: 'bill-1',
    fingerprint: 'x',
    methodType,
    maskedPan: methodType === 'MOBILE' ? null : '411111******1111',
    flags: ['BIND_PAYMENT_TOKEN'],
    currency: 'RUB',
    amountMinor: 10000n,
    capturedMinor: 0n,
    refundedMinor: 0n,
    pendingRefundMinor: 0n,
    reversed: false,
    reversedMinor: 0n,
    status: 'COMPLETED',
    statusReason: null,
    statusChangedAt: new Date('2026-11-23T20:37:38.584Z'),
    createdAt: new Date('2026-11-23T20:37:38.584Z'),
    comment: null,
    customer: { account: 'acc-1' },
    receipt: null,
    requirements: null,
    authFlow: null,
    otpAttempts: 0,
    dueAt: null,
    holdDueAt: null,
    customFields: null,
    cardProfile: { outcome: 'approved', month: 12, year: 2040 },
    recurrentMinAuthDay: null,
    recurrentExpiry: null,
    seriesRef: null,
    callbackUrl: null,
    pageAttemptKey: null,
    ...over,
  }) as Payment

test('the registry lists CARD, TOKEN, RECURRENT and MOBILE, each type once, each schema of its own type', () => {
  assert.deepEqual(known(METHOD_TYPES, KNOWN), KNOWN)
  assert.equal(new Set(METHOD_TYPES).size, METHOD_TYPES.length)
  for (const m of PAYMENT_METHODS) {
    assert.equal(m.schema.shape.type.value, m.type, `${m.type}: its schema's literal`)
    assert.equal(methodOf(m.type), m)
    // a charge with nothing read, or one lookup in the payment's transaction
    assert.equal(['direct', 'lookup'].filter((k) => k in m.charge).length, 1, `${m.type}: one way to charge`)
  }
})

test("the OpenAPI document's paymentMethod oneOf is the registry's schemas, in its order", () => {
  const s = schemas()
  const oneOf = s.PaymentRequest.properties.paymentMethod.oneOf as { $ref: string }[]
  assert.equal(oneOf.length, PAYMENT_METHODS.length)
  for (const [i, m] of PAYMENT_METHODS.entries()) {
    const id = oneOf[i].$ref.replace('#/components/schemas/', '')
    assert.equal(s[id]?.properties?.type?.const, m.type, `oneOf ${i}: ${id} is ${m.type}`)
  }
})

test('an unknown type is a 400 naming every registered type, in order', () => {
  assert.deepEqual(problems({ paymentMethod: { type: 'SAMSUNG_PAY' }, amount }), {
    'paymentMethod.type': [`must be one of ${METHOD_TYPES.join(', ')}`],
  })
})

test("the answer's and notification's paymentMethod.type values are the stored methods (RECURRENT stored as CARD)", () => {
  assert.deepEqual(known(STORED_METHOD_TYPES, KNOWN), KNOWN_STORED)
  const s = schemas()
  assert.deepEqual(s.PaymentMethod.properties.type.examples, STORED_METHOD_TYPES)
  assert.deepEqual(s.NotificationPaymentMethod.properties.type.examples, STORED_METHOD_TYPES)
  assert.equal(methodOf('RECURRENT')!.storedAs, methodOf('CARD')!.storedAs)
})

test("every method's request examples are valid requests, and the create endpoint shows them all, in order", () => {
  const op = (apiDocument().paths as Json)['/sites/{siteId}/payments/{paymentId}'].put
  const shown = op.requestBody.content['application/json'].examples as Record<string, { value: unknown }>
  const expected = PAYMENT_METHODS.flatMap((m) => Object.keys(m.requestExamples))
  assert.deepEqual(Object.keys(shown), expected)
  for (const [name, example] of Object.entries(shown))
    assert.ok(paymentRequestSchema.safeParse(example.value).success, `example ${name}`)
  assert.match(op.description, /^Charges a card \(`CARD`\), a payment token \(`TOKEN`\), .*\(`MOBILE`\).*\./)
})

test('the flags follow each method: BIND_PAYMENT_TOKEN for CARD, RECURRENT_FIRST for CARD and TOKEN, TOKEN needs an account', () => {
  const mobile = { type: 'MOBILE', phone: '79001234567' }
  assert.deepEqual(
    problems({ paymentMethod: mobile, amount, flags: ['BIND_PAYMENT_TOKEN'], customer: { account: 'a' } }),
    {
      flags: ['BIND_PAYMENT_TOKEN is for CARD payments'],
    },
  )
  assert.deepEqual(
    problems({
      paymentMethod: mobile,
      amount,
      flags: ['RECURRENT_FIRST'],
      recurrent: { minAuthDay: 1, expiryDate: '2099-01-01' },
    }),
    { flags: ['RECURRENT_FIRST is for CARD and TOKEN payments'] },
  )
  assert.deepEqual(problems({ paymentMethod: { type: 'TOKEN', paymentToken: 'pt_x' }, amount }), {
    'customer.account': ['is required for TOKEN payments: a token is bound to its account'],
  })
  const expected = {
    CARD: { canBindToken: true, canStartRecurrent: true, needsAccount: false },
    TOKEN: { canBindToken: false, canStartRecurrent: true, needsAccount: true },
    RECURRENT: { canBindToken: false, canStartRecurrent: false, needsAccount: false },
    MOBILE: { canBindToken: false, canStartRecurrent: false, needsAccount: false },
  }
  for (const [type, properties] of Object.entries(expected)) {
    const m = methodOf(type)!
    assert.deepEqual(
      { canBindToken: m.canBindToken, canStartRecurrent: m.canStartRecurrent, needsAccount: !!m.needsCustomerAccount },
      properties,
      type,
    )
  }
})

test('approval captures the whole amount for SALE, and for MOBILE whatever the flags', () => {
  const captured = (methodType: string, flags: string[]) => capturedOnApproval({ methodType, flags, amountMinor: 100n })
  for (const methodType of STORED_METHOD_TYPES) assert.equal(captured(methodType, ['SALE']), 100n, methodType)
  // the contract's stored types; a method added later says its own (capturesOnApproval)
  assert.deepEqual(Object.fromEntries(KNOWN_STORED.map((t) => [t, captured(t, [])])), {
    CARD: 0n,
    TOKEN: 0n,
    MOBILE: 100n,
  })
})

test('only a card payment (also a recurrent charge: stored as CARD) issues a token', () => {
  assert.deepEqual(Object.fromEntries(KNOWN_STORED.map((t) => [t, issuesToken(row(t))])), {
    CARD: true,
    TOKEN: false,
    MOBILE: false,
  })
  assert.equal(issuesToken(row('CARD', { customer: null })), false)
  assert.equal(issuesToken(row('CARD', { status: 'WAITING' })), false)
})

test('answers show the masked card of CARD alone; notifications that of CARD and TOKEN, with rrn and card info', () => {
  const answered = (t: string) => JSON.parse(JSON.stringify(renderPayment(row(t)).paymentMethod))
  // both charged a card: its authorisation is answered, the same as notified
  const { rrn, authCode } = JSON.parse(paymentNotificationBody(row('CARD'))).payment.paymentMethod
  assert.deepEqual(answered('CARD'), { type: 'CARD', maskedPan: '411111******1111', rrn, authCode })
  assert.deepEqual(answered('TOKEN'), { type: 'TOKEN', rrn, authCode })
  assert.deepEqual(answered('MOBILE'), { type: 'MOBILE' })
  const notified = (t: string) => JSON.parse(paymentNotificationBody(row(t))).payment
  for (const t of ['CARD', 'TOKEN']) {
    const n = notified(t)
    assert.equal(n.paymentMethod.type, t)
    assert.equal(n.paymentMethod.maskedPan, '411111******1111', t)
    assert.match(n.paymentMethod.rrn, /^\d{12}$/, t)
    assert.ok(n.paymentCardInfo, t)
  }
  const mobile = notified('MOBILE')
  assert.deepEqual(mobile.paymentMethod, { type: 'MOBILE', maskedPan: null, rrn: null, authCode: null })
  assert.equal(mobile.paymentCardInfo, undefined)
  assert.deepEqual(mobile.flags, ['SALE'])
})

test("the payment page's card, mobile and SBP tabs pay with CARD, MOBILE, SBP; flags exclude MOBILE, USD SBP", async () => {
  const { payFormMethods } = await import('../../lib/pay-form/methods/index.ts')
  const { offeredMethods } = await import('../../lib/pay-form/form-service.ts')
  // the known ones (the registry may hold more): the card first, the page's default tab
  const types = new Map(payFormMethods.map((m) => [m.method, m.type]))
  assert.equal(payFormMethods[0].method, 'card')
  assert.equal(types.get('card'), 'CARD')
  assert.equal(types.get('mobile'), 'MOBILE')
  // every page method pays with a registered method; the default is allowed with every flag
  for (const m of payFormMethods) assert.ok(methodOf(m.type), m.type)
  const offered = (flags: string[], currency = 'RUB') => offeredMethods({ flags, currency }).map((m) => m.method)
  assert.deepEqual(offered(['SALE']).slice(0, 2), ['card', 'mobile'])
  // SBP pays roubles only: its tab is offered on RUB bills alone
  assert.equal(types.get('sbp'), 'SBP')
  assert.ok(offered(['SALE']).includes('sbp'))
  assert.ok(!offered(['SALE'], 'USD').includes('sbp'))
  assert.deepEqual(offered(['SALE'], 'USD').slice(0, 2), ['card', 'mobile'])
  assert.equal(offered(['SALE', 'BIND_PAYMENT_TOKEN', 'RECURRENT_FIRST'])[0], 'card')
  for (const flag of ['BIND_PAYMENT_TOKEN', 'RECURRENT_FIRST']) assert.ok(!offered([flag]).includes('mobile'), flag)
  assert.equal(storedMethodOf('WALLET'), undefined)
})
