// The registry of payer-authentication flows (lib/payments/flows): each first answer starts its flow, which says
// what the payment stores, how the payer completes it (the complete request is built of those) and its due change
// (what the scheduler applies at dueAt). Pure, plus a stand-in for Prisma's transaction where a completion writes.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Payment, Tx } from '../../lib/payments/payment-store.ts'

process.env.SECRET_KEY = 'payment-flows-unit-test-key'

const { settings } = await import('../../lib/config.ts')
const { issuePares, readPareq } = await import('../../lib/acquirer/three-ds.ts')
const { apiDocument } = await import('../../lib/openapi/api-document.ts')
const { PAYMENT_FLOWS, PAYER_COMPLETIONS, completeRequestSchema, dueChangeOf, flowOf, requirementsShape, startFlow } =
  await import('../../lib/payments/flows/index.ts')
const { ApiError } = await import('../../lib/http/api-error.ts')

const REF = '0b7f4c8e-8a47-4d4f-9d1e-3f3f0c1d2e11'
const now = new Date('2026-11-23T20:37:38.584Z')

/** a WAITING payment in this flow */
const waiting = (authFlow: string, over: Partial<Payment> = {}) =>
  ({ id: REF, status: 'WAITING', authFlow, otpAttempts: 0, dueAt: now, ...over }) as Payment

/** Prisma's transaction as a completion uses it: the payment's update, recorded */
function transaction() {
  const written: unknown[] = []
  const tx = { payment: { update: async ({ data }: { data: unknown }) => written.push(data) } }
  return { tx: tx as unknown as Tx, written }
}

/** the field errors of an ApiError a call throws */
async function fieldErrors(call: () => Promise<unknown>) {
  try {
    await call()
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e))
    return e.cause
  }
  assert.fail('no error')
}

test('each authFlow belongs to one flow: 3-D Secure, one-time code, operator answer', () => {
  // the contract's flows, first (a flow added later is checked by its own tests)
  assert.deepEqual(
    PAYMENT_FLOWS.slice(0, 3).map((f) => f.authFlows),
    [['THREE_DS'], ['OTP'], ['OPERATOR_CONFIRM', 'OPERATOR_REJECT']],
  )
  for (const f of PAYMENT_FLOWS) for (const authFlow of f.authFlows) assert.equal(flowOf(authFlow), f, authFlow)
  assert.equal(flowOf(null), undefined)
  assert.equal(flowOf('NO_SUCH_FLOW'), undefined)
})

test('a first answer starts its flow: what the payment stores and when it falls due', () => {
  const threeDS = startFlow({ kind: 'threeDS' }, REF, now)
  assert.equal(threeDS.authFlow, 'THREE_DS')
  const { pareq, acsUrl } = (threeDS.requirements as { threeDS: { pareq: string; acsUrl: string } }).threeDS
  assert.equal(readPareq(pareq), REF, 'the PaReq names the payment')
  assert.equal(acsUrl, `${settings().publicBaseUrl}/acs`)
  assert.equal(threeDS.dueAt!.getTime(), now.getTime() + settings().threeDSTimeoutMs)

  assert.deepEqual(startFlow({ kind: 'otp', text: 'Enter the code' }, REF, now), {
    authFlow: 'OTP',
    requirements: { otp: 'Enter the code' },
    dueAt: null,
  })
  for (const decision of ['OPERATOR_CONFIRM', 'OPERATOR_REJECT'] as const)
    assert.deepEqual(startFlow({ kind: 'operator', decision }, REF, now), {
      authFlow: decision,
      requirements: null,
      dueAt: new Date(now.getTime() + settings().mobileOperatorDelayMs),
    })
})

test("the answer's requirements are what the flows ask the payer (threeDS, otp), in the document too", () => {
  assert.deepEqual(Object.keys(requirementsShape).slice(0, 2), ['threeDS', 'otp'])
  const doc = (apiDocument().components.schemas as Record<string, any>).Requirements
  assert.deepEqual(Object.keys(doc.properties), Object.keys(requirementsShape))
  assert.equal(flowOf('OPERATOR_REJECT')!.requirement, undefined, 'nobody is asked while the operator answers')
})

test('the due changes: 3-D Secure expires, the operator confirms or rejects; a flow without one approves', () => {
  assert.deepEqual(dueChangeOf(waiting('THREE_DS')), { kind: 'decline', reason: 'PAYMENT_EXPIRED_3DS' })
  assert.deepEqual(dueChangeOf(waiting('OPERATOR_CONFIRM')), { kind: 'approve' })
  assert.deepEqual(dueChangeOf(waiting('OPERATOR_REJECT')), { kind: 'decline', reason: 'ACQUIRING_INSUFFICIENT_FUNDS' })
  // a one-time code sets no due time; were one set, the payment would be approved, as before flows were modules
  assert.equal(flowOf('OTP')!.dueChange, undefined)
  assert.deepEqual(dueChangeOf(waiting('OTP')), { kind: 'approve' })
})

test('the complete request is built of the flows the payer completes (threeDS, otp), in the document too', () => {
  const keys = PAYER_COMPLETIONS.map((c) => c.key)
  assert.deepEqual(keys.slice(0, 2), ['threeDS', 'otp'])
  assert.equal(flowOf('OPERATOR_CONFIRM')!.completion, undefined, 'nobody completes an operator answer')
  const r = completeRequestSchema.safeParse({})
  assert.deepEqual(
    r.error?.issues.map((i) => [i.path.join('.'), i.message]),
    [[keys.at(-1), `${keys.join(' or ')} is required`]],
  )
  const doc = (apiDocument().components.schemas as Record<string, any>).CompleteRequest
  assert.deepEqual(Object.keys(doc.properties), keys)
  assert.deepEqual(
    doc.anyOf.map((branch: { required: string[] }) => branch.required),
    keys.map((key) => [key]),
  )
})

test('3-D Secure: a PaRes of this payment approves or declines DECLINED_BY_MPI; another is a 400', async () => {
  const { complete } = flowOf('THREE_DS')!.completion!
  const { tx, written } = transaction()
  const p = waiting('THREE_DS')
  assert.deepEqual(await complete(tx, p, { pares: issuePares(REF, true) }, now), { kind: 'approve' })
  assert.deepEqual(await complete(tx, p, { pares: issuePares(REF, false) }, now), {
    kind: 'decline',
    reason: 'DECLINED_BY_MPI',
  })
  const other = issuePares('5a0b4c8e-8a47-4d4f-9d1e-3f3f0c1d2e11', true)
  assert.deepEqual(await fieldErrors(() => complete(tx, p, { pares: other }, now)), {
    'threeDS.pares': ['was not issued for this payment'],
  })
  assert.deepEqual(await fieldErrors(() => complete(tx, p, undefined, now)), {
    // where a PaRes comes from: a client without one (its TermUrl never received the post) is told
    'threeDS.pares': [
      'is required: the payment awaits 3-D Secure; send the PaRes that the access-control page ' +
        '(threeDS.acsUrl of the payment) posted to your TermUrl',
    ],
  })
  assert.deepEqual(written, [])
})

test('a one-time code: the right one approves; each wrong one is counted, the third declines INVALID_OTP', async () => {
  const { complete } = flowOf('OTP')!.completion!
  const right = transaction()
  assert.deepEqual(await complete(right.tx, waiting('OTP'), { code: settings().otpCode }, now), { kind: 'approve' })
  assert.deepEqual(right.written, [])

  const expected = [
    { kind: 'refuse', field: 'otp.code', message: 'is not the code sent; 2 attempts left' },
    { kind: 'refuse', field: 'otp.code', message: 'is not the code sent; 1 attempt left' },
    { kind: 'decline', reason: 'INVALID_OTP' },
  ]
  for (const [attempts, outcome] of expected.entries()) {
    const wrong = transaction()
    assert.deepEqual(
      await complete(wrong.tx, waiting('OTP', { otpAttempts: attempts }), { code: `${settings().otpCode}9` }, now),
      outcome,
    )
    assert.deepEqual(wrong.written, [{ otpAttempts: attempts + 1 }], 'the attempt is counted')
  }
  assert.deepEqual(await fieldErrors(() => complete(right.tx, waiting('OTP'), undefined, now)), {
    'otp.code': ['is required: the payment awaits a one-time code'],
  })
})

test('the dashboard shows entering 3-D Secure and a one-time code, not the operator', () => {
  assert.deepEqual(
    ['THREE_DS', 'OTP', 'OPERATOR_CONFIRM'].map((a) => flowOf(a)?.timelineEvent),
    ['threeDS', 'code', undefined],
  )
})

test("the issuer's delayed answer (production's test cards 03, 04): WAITING 3 s, nothing asked, then its answer", () => {
  for (const [approved, authFlow] of [
    [true, 'DELAYED_APPROVAL'],
    [false, 'DELAYED_DECLINE'],
  ] as const)
    assert.deepEqual(startFlow({ kind: 'delayed', approved }, REF, now), {
      authFlow,
      requirements: null,
      dueAt: new Date(now.getTime() + 3000),
    })
  assert.deepEqual(dueChangeOf(waiting('DELAYED_APPROVAL')), { kind: 'approve' })
  assert.deepEqual(dueChangeOf(waiting('DELAYED_DECLINE')), { kind: 'decline', reason: 'ACQUIRING_DECLINED' })
  const flow = flowOf('DELAYED_DECLINE')!
  assert.equal(flow.requirement, undefined, 'nothing is asked of the payer')
  assert.equal(flow.completion, undefined, 'nobody completes it: complete is a 409')
  assert.equal(flow.dueAfterMs?.(), 3000)
})

test("CARD's holderName is in the document, optional, with the CVV's note", () => {
  const card = (apiDocument().components.schemas as Record<string, any>).CardPaymentMethod
  assert.equal(card.properties.holderName.type, 'string')
  assert.match(card.properties.holderName.description, /3ds/)
  assert.match(card.properties.cvv2.description, /849/)
  assert.ok(!card.required.includes('holderName'))
})
