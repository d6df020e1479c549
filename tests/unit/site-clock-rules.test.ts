// Every time rule of a site reads the site's sandbox clock (lib/sandbox/site-clock.ts), never real time:
// each rule is judged here on a clock ahead of real time, where real time would decide otherwise (so each
// test fails should the rule read `new Date()` instead of the clock it is given). Pure functions, plus —
// where a rule lives in a transaction — a stand-in for Prisma's transaction with just the methods it calls.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { describe, test } from 'node:test'
import {
  cardOutcome,
  cardProfile,
  chargeOutcome,
  isExpired,
  type CardProfile,
} from '../../lib/acquirer/sandbox-acquirer.ts'
import { billState, implicitBill } from '../../lib/settlement/bill-for-payment.ts'
import { billRequestSchema, newBillProblems } from '../../lib/bills/bill-request.ts'
import { renderBill } from '../../lib/bills/bill-wire.ts'
import { settings } from '../../lib/config.ts'
import type { Tx } from '../../lib/db/client.ts'
import { Prisma, type Bill, type Payment } from '../../lib/generated/prisma/client.ts'
import { afterAttempt, claimStatement } from '../../lib/notifications/delivery.ts'
import { paymentNotificationInsert } from '../../lib/payments/payment-notify.ts'
import { payFormSchema } from '../../lib/pay-form/form-schema.ts'
import { directInstrument, resolveInstrument } from '../../lib/payments/payment-instrument.ts'
import { dueAtFor, isDue, settle } from '../../lib/payments/payment-lifecycle.ts'
import { paymentRequestSchema, type PaymentRequest } from '../../lib/payments/payment-request.ts'
import { paymentRow } from '../../lib/payments/payment-service.ts'
import { renderPayment } from '../../lib/payments/payment-wire.ts'
import { clockAt, clockOf, dueOnSiteClock, REAL_TIME, siteOffset } from '../../lib/sandbox/site-clock.ts'
import { paymentTime } from '../../lib/time/wire-time.ts'
import { recurrentExpiryProblem } from '../../lib/wire/common-schemas.ts'

// settings are read once per process, on first use (no module reads them on import): the clock on, as by
// default, whatever the shell says; a 3-D Secure PaReq is signed with SECRET_KEY
process.env.SANDBOX_CLOCK = 'on'
process.env.SECRET_KEY ||= 'site-clock-rules-unit-test-key'

const MINUTE = 60_000
const DAY = 24 * 3600_000
/** what a refusal on a clock ahead of real time adds, `now` being its reading */
const onTheSiteClock = (now: Date) =>
  `: the site's sandbox clock, advanced ahead of real time, reads ${paymentTime(now)}`
/** how far two readings of "now" in one test may be apart */
const SLACK = 10_000

const inDays = (days: number) => new Date(Date.now() + days * DAY)
/** `actual` is `expected`, give or take the time the test took */
function near(actual: Date | number | null | undefined, expected: number, what: string) {
  assert.ok(actual != null, `${what}: missing`)
  const ms = typeof actual === 'number' ? actual : actual.getTime()
  assert.ok(
    Math.abs(ms - expected) < SLACK,
    `${what}: ${new Date(ms).toISOString()}, expected about ${new Date(expected).toISOString()}`,
  )
}
/** a wire date-time (with its offset) as epoch milliseconds */
const wire = (text: string | undefined) => Date.parse(text ?? 'missing')
/** the UTC date `days` from real now, YYYY-MM-DD */
const utcDate = (days: number) => inDays(days).toISOString().slice(0, 10)

/** the clock whose time is the 15th of next month (UTC), and this month's card expiry MM/YY */
function nextMonth() {
  const now = new Date()
  const offset = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15, 12) - now.getTime()
  const month = now.getUTCMonth() + 1
  const year = now.getUTCFullYear()
  return {
    clock: clockAt(offset),
    expiry: { month, year },
    text: `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`,
  }
}

const threeDaysAhead = clockAt(3 * DAY)

// ---- rows and requests --------------------------------------------------------------------------------

function billRow(over: Partial<Bill>): Bill {
  const now = new Date()
  return {
    id: '7f1d0a9e-5b7c-4c1e-9c1a-000000000001',
    siteId: 'site-1',
    billId: 'bill-1',
    invoiceUid: '7f1d0a9e-5b7c-4c1e-9c1a-000000000002',
    fingerprint: null,
    currency: 'RUB',
    amountMinor: 10000n,
    comment: null,
    flags: [],
    successUrl: null,
    failedUrl: null,
    customer: null,
    recurrent: null,
    receipt: null,
    customFields: null,
    status: 'CREATED',
    statusChangedAt: now,
    createdAt: now,
    expiresAt: inDays(2),
    ...over,
  } as Bill
}

const cardRequest = (expiry: string): PaymentRequest =>
  paymentRequestSchema.parse({
    paymentMethod: { type: 'CARD', pan: '4111111111111111', expiryDate: expiry, cvv2: '123' },
    amount: { value: '100.00', currency: 'RUB' },
  })

const billRequest = (expirationDateTime: Date, recurrent?: { minAuthDay: number; expiryDate: string }) =>
  billRequestSchema.parse({
    amount: { value: '100.00', currency: 'RUB' },
    expirationDateTime: expirationDateTime.toISOString(),
    recurrent,
  })

/** a WAITING payment of this flow, due at `dueAt` */
function waitingPayment(authFlow: string, dueAt: Date): Payment {
  const row = paymentRow(
    'site-1',
    'pay-1',
    cardRequest('12/40'),
    'print',
    { methodType: 'CARD', answer: { kind: 'approved' } },
    { kind: 'otp', text: '' },
    { id: 'b1', billId: 'bill-1' },
    new Date(),
  )
  return {
    ...row,
    methodType: authFlow.startsWith('OPERATOR') ? 'MOBILE' : 'CARD',
    authFlow,
    requirements: null,
    dueAt,
  }
}

/**
 * Prisma's transaction, as far as settling a payment uses it: the payment's and the bill's updates, the
 * bill read with its lock (`bill`), the bill's other due payments (none), the notification's INSERT. What
 * was written is in `written`.
 */
function transaction(p: Payment, bill = { status: 'CREATED', expiresAt: inDays(30) }) {
  const written: string[] = []
  const tx = {
    payment: {
      update: async ({ data }: { data: Partial<Payment> }) => {
        written.push(`payment ${data.status}`)
        return { ...p, ...data }
      },
    },
    bill: {
      update: async ({ data }: { data: { status: string } }) => {
        written.push(`bill ${data.status}`)
        return {}
      },
    },
    paymentToken: { create: async () => written.push('token') },
    $queryRaw: async (strings: TemplateStringsArray) => (strings.join('?').includes('FROM "Bill"') ? [bill] : []),
    $executeRaw: async () => {
      written.push('notification')
      return 1
    },
  }
  return { tx: tx as unknown as Tx, written }
}

// ---- the clock itself ------------------------------------------------------------------------------------

describe('the site clock', () => {
  test('clockAt(offset) shows real time plus the offset', () => {
    const clock = clockAt(30 * DAY)
    assert.equal(clock.offsetMs, 30 * DAY)
    near(clock.now(), Date.now() + 30 * DAY, 'a clock 30 days ahead')
    near(REAL_TIME.now(), Date.now(), 'real time')
  })

  test("clockOf: a site's stored offset is its clock; a site never advanced (0, no row) is on real time", () => {
    assert.equal(settings().sandboxClock, true)
    assert.equal(clockOf(BigInt(3 * DAY)).offsetMs, 3 * DAY)
    near(clockOf(BigInt(3 * DAY)).now(), Date.now() + 3 * DAY, 'a site 3 days ahead')
    for (const none of [0n, 0, null, undefined]) assert.equal(clockOf(none), REAL_TIME, String(none))
  })

  test("siteOffset: what a statement adds to real time for the site row's time (0 for a site without a row)", () => {
    assert.equal(siteOffset('s').sql, `(coalesce("s"."clockOffsetMs", 0) * interval '1 millisecond')`)
  })

  test('SANDBOX_CLOCK=off: every site on real time, whatever its stored offset (a process of its own: settings are read once)', () => {
    const script = `
      const { Prisma } = await import(${JSON.stringify(new URL('../../lib/generated/prisma/client.ts', import.meta.url).href)})
      const { clockOf, siteOffset, dueOnSiteClock } = await import(${JSON.stringify(new URL('../../lib/sandbox/site-clock.ts', import.meta.url).href)})
      const clock = clockOf(${3 * DAY}n)
      console.log(JSON.stringify({ offsetMs: clock.offsetMs, aheadMs: clock.now().getTime() - Date.now(), siteOffset: siteOffset('s').sql, due: dueOnSiteClock('Bill', 'expiresAt', Prisma.raw('now()'), Prisma.raw('true')).sql }))`
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      env: { ...process.env, SANDBOX_CLOCK: 'off' },
      encoding: 'utf8',
    })
    assert.equal(r.status, 0, r.stderr)
    const off = JSON.parse(r.stdout.trim().split('\n').at(-1)!)
    assert.equal(off.offsetMs, 0)
    assert.ok(Math.abs(off.aheadMs) < SLACK, `on real time: ${off.aheadMs} ms ahead`)
    assert.equal(off.siteOffset, `interval '0'`)
    // only the rows due on real time are candidates: no site's offset is read
    assert.ok(!off.due.includes('clockOffsetMs'), off.due)
    assert.match(off.due, /x\."expiresAt" <= now\(\)/)
  })
})

// ---- 1. bills ---------------------------------------------------------------------------------------------

describe('1. bill expiry and a new bill’s deadline', () => {
  test('a bill due in 2 days is EXPIRED on a clock 3 days ahead (changed when its deadline passed), CREATED on real time', () => {
    const bill = billRow({ expiresAt: inDays(2) })
    assert.equal(billState(bill, REAL_TIME.now()), 'CREATED')
    assert.equal(billState(bill, threeDaysAhead.now()), 'EXPIRED')
    assert.equal(renderBill(bill, REAL_TIME.now()).status.value, 'CREATED')
    const answered = renderBill(bill, threeDaysAhead.now())
    assert.equal(answered.status.value, 'EXPIRED')
    assert.equal(answered.status.changedDateTime, answered.expirationDateTime)
  })

  test('a paid bill stays PAID on any clock', () => {
    assert.equal(billState(billRow({ status: 'PAID', expiresAt: inDays(2) }), threeDaysAhead.now()), 'PAID')
  })

  test('"must be in the future": a deadline 2 days ahead of real time is already past on a clock 3 days ahead', () => {
    const req = billRequest(inDays(2))
    assert.equal(newBillProblems(req, REAL_TIME), null)
    // the refusal names the site's time, the cause a client reading its own clock cannot see
    const now = threeDaysAhead.now()
    assert.deepEqual(newBillProblems(req, threeDaysAhead, now), {
      expirationDateTime: [`must be in the future${onTheSiteClock(now)}`],
    })
  })

  test('"must be in the future" on real time stays as it was: the client\'s clock reads the same', () => {
    assert.deepEqual(newBillProblems(billRequest(inDays(-1)), REAL_TIME), {
      expirationDateTime: ['must be in the future'],
    })
  })

  test('the 45-day window counts from the site’s time: 47 days ahead of real time is 44 days ahead of a clock 3 days ahead', () => {
    const req = billRequest(inDays(47))
    assert.deepEqual(newBillProblems(req, REAL_TIME), { expirationDateTime: ['must be at most 45 days ahead'] })
    assert.equal(newBillProblems(req, threeDaysAhead), null)
    // and 50 days ahead of a site 30 days ahead is too far, though 80 days ahead of real time
    const thirtyDaysAhead = clockAt(30 * DAY)
    const now = thirtyDaysAhead.now()
    assert.deepEqual(newBillProblems(billRequest(inDays(80)), thirtyDaysAhead, now), {
      expirationDateTime: [`must be at most 45 days ahead${onTheSiteClock(now)}`],
    })
    assert.equal(newBillProblems(billRequest(inDays(74)), thirtyDaysAhead), null)
  })

  test("a new bill's recurrent series must end after the site's today", () => {
    const req = billRequest(inDays(10), { minAuthDay: 1, expiryDate: utcDate(2) })
    assert.equal(newBillProblems(req, REAL_TIME), null)
    const now = threeDaysAhead.now()
    assert.deepEqual(newBillProblems(req, threeDaysAhead, now), {
      'recurrent.expiryDate': [`must be in the future${onTheSiteClock(now)}`],
    })
  })
})

// ---- 2. 3-D Secure timeout ---------------------------------------------------------------------------------

describe('2. the 3-D Secure timeout', () => {
  test('a challenge started on a clock 3 days ahead times out 15 minutes later on that clock', () => {
    const dueAt = dueAtFor('THREE_DS', threeDaysAhead.now())
    near(dueAt, Date.now() + 3 * DAY + settings().threeDSTimeoutMs, 'the timeout')
    const p = waitingPayment('THREE_DS', dueAt!)
    // an hour later in real time it still waits (real time never reaches the site's due time)
    assert.equal(isDue(p, new Date(Date.now() + 60 * MINUTE)), false)
    assert.equal(isDue(p, new Date(threeDaysAhead.now().getTime() + settings().threeDSTimeoutMs - MINUTE)), false)
    assert.equal(isDue(p, new Date(threeDaysAhead.now().getTime() + settings().threeDSTimeoutMs + MINUTE)), true)
  })

  test('a challenge due in 10 minutes declines PAYMENT_EXPIRED_3DS on a clock 3 days ahead (dated at its timeout), waits on real time', async () => {
    const p = waitingPayment('THREE_DS', new Date(Date.now() + 10 * MINUTE))
    assert.equal(isDue(p, REAL_TIME.now()), false)
    assert.equal(isDue(p, threeDaysAhead.now()), true)

    const onRealTime = transaction(p)
    const waiting = await settle(onRealTime.tx, p, REAL_TIME.now())
    assert.equal(waiting.status, 'WAITING')
    assert.deepEqual(onRealTime.written, [])

    const ahead = transaction(p)
    const declined = await settle(ahead.tx, p, threeDaysAhead.now())
    assert.equal(declined.status, 'DECLINED')
    assert.equal(declined.statusReason, 'PAYMENT_EXPIRED_3DS')
    assert.equal(declined.statusChangedAt.getTime(), p.dueAt!.getTime())
    assert.deepEqual(ahead.written, ['payment DECLINED', 'notification'])
  })
})

// ---- 3. mobile operator ---------------------------------------------------------------------------------

describe('3. the mobile operator’s delay', () => {
  test("the operator answers MOBILE_OPERATOR_DELAY_MS after the payment on its site's clock", () => {
    for (const flow of ['OPERATOR_CONFIRM', 'OPERATOR_REJECT'])
      near(dueAtFor(flow, threeDaysAhead.now()), Date.now() + 3 * DAY + settings().mobileOperatorDelayMs, flow)
    assert.equal(dueAtFor('OTP', threeDaysAhead.now()), null)
  })

  test('an operator answer due in an hour is given on a clock 3 days ahead, not on real time', async () => {
    const dueAt = new Date(Date.now() + 60 * MINUTE)
    const reject = waitingPayment('OPERATOR_REJECT', dueAt)
    const onRealTime = transaction(reject)
    assert.equal((await settle(onRealTime.tx, reject, REAL_TIME.now())).status, 'WAITING')
    assert.deepEqual(onRealTime.written, [])
    const rejected = await settle(transaction(reject).tx, reject, threeDaysAhead.now())
    assert.equal(rejected.status, 'DECLINED')
    assert.equal(rejected.statusReason, 'ACQUIRING_INSUFFICIENT_FUNDS')
    assert.equal(rejected.statusChangedAt.getTime(), dueAt.getTime())

    const confirm = waitingPayment('OPERATOR_CONFIRM', dueAt)
    assert.equal((await settle(transaction(confirm).tx, confirm, REAL_TIME.now())).status, 'WAITING')
    const ahead = transaction(confirm)
    const confirmed = await settle(ahead.tx, confirm, threeDaysAhead.now())
    assert.equal(confirmed.status, 'COMPLETED')
    assert.equal(confirmed.statusChangedAt.getTime(), dueAt.getTime())
    assert.deepEqual(ahead.written, ['payment COMPLETED', 'bill PAID', 'notification'])
  })

  test("a confirmation due after its bill's deadline declines BILL_EXPIRED", async () => {
    const confirm = waitingPayment('OPERATOR_CONFIRM', new Date(Date.now() + 2 * DAY))
    const declined = await settle(
      transaction(confirm, { status: 'CREATED', expiresAt: inDays(1) }).tx,
      confirm,
      threeDaysAhead.now(),
    )
    assert.equal(declined.status, 'DECLINED')
    assert.equal(declined.statusReason, 'BILL_EXPIRED')
  })
})

// ---- 4. card expiry ---------------------------------------------------------------------------------------

describe('4. card expiry months', () => {
  test('a card expiring this month is valid on real time, expired on a clock in next month', () => {
    const { clock, expiry } = nextMonth()
    assert.equal(isExpired(expiry, REAL_TIME.now()), false)
    assert.equal(isExpired(expiry, clock.now()), true)
    assert.deepEqual(cardOutcome('4111111111111111', expiry, REAL_TIME.now()), { kind: 'approved' })
    assert.deepEqual(cardOutcome('4111111111111111', expiry, clock.now()), {
      kind: 'declined',
      reason: 'ACQUIRING_EXPIRED_CARD',
    })
  })

  test('a card payment of such a card declines ACQUIRING_EXPIRED_CARD at once on that clock', () => {
    const { clock, text } = nextMonth()
    assert.deepEqual(directInstrument(cardRequest(text), REAL_TIME.now())?.answer, { kind: 'approved' })
    assert.deepEqual(directInstrument(cardRequest(text), clock.now())?.answer, {
      kind: 'declined',
      reason: 'ACQUIRING_EXPIRED_CARD',
    })
  })

  test("the payment page's form says expiry.past on its site's clock", () => {
    const { clock, text } = nextMonth()
    const input = { method: 'card', pan: '4111 1111 1111 1111', expiry: text, cvv: '123', phone: '', amount: '' }
    assert.equal(payFormSchema({ openAmount: false, clockOffsetMs: 0 }).safeParse(input).success, true)
    const ahead = payFormSchema({ openAmount: false, clockOffsetMs: clock.offsetMs }).safeParse(input)
    assert.equal(ahead.success, false)
    assert.deepEqual(
      ahead.error?.issues.map((i) => [i.path.join('.'), i.message]),
      [['expiry', 'expiry.past']],
    )
  })
})

// ---- 5. recurrent series ----------------------------------------------------------------------------------

/** a recurrent charge's request, and the transaction that finds its series' first payment (and last charge) */
function recurrentCharge(first: { lastChargeAt: Date; minAuthDay: number; expiryDate: string; profile?: CardProfile }) {
  const req = paymentRequestSchema.parse({
    paymentMethod: { type: 'RECURRENT', firstPaymentId: 'first-1' },
    amount: { value: '100.00', currency: 'RUB' },
  })
  const row = {
    ...paymentRow(
      'site-1',
      'first-1',
      cardRequest('12/40'),
      'print',
      { methodType: 'CARD', answer: { kind: 'approved' } },
      { kind: 'approved' },
      { id: 'b1', billId: 'bill-1' },
      first.lastChargeAt,
    ),
    flags: ['RECURRENT_FIRST'],
    cardProfile: first.profile ?? cardProfile('4111111111111111', { month: 12, year: 2040 }),
    recurrentMinAuthDay: first.minAuthDay,
    recurrentExpiry: first.expiryDate,
  }
  const tx = {
    $queryRaw: async () => [row],
    // no charge of the series since the first: the first payment's completion is the last charge
    payment: { findFirst: async () => null },
  } as unknown as Tx
  return (now: Date) => resolveInstrument(tx, 'site-1', req, now).then((i) => i.answer)
}

describe('5. recurrent series: minAuthDay and expiryDate', () => {
  test('a new series ending tomorrow (UTC) is refused on a clock 3 days ahead, taken on real time', () => {
    const recurrent = { minAuthDay: 1, expiryDate: utcDate(1) }
    assert.equal(recurrentExpiryProblem(recurrent, REAL_TIME), null)
    const now = threeDaysAhead.now()
    assert.equal(recurrentExpiryProblem(recurrent, threeDaysAhead, now), `must be in the future${onTheSiteClock(now)}`)
    // on real time the words stay as they were
    assert.equal(recurrentExpiryProblem({ minAuthDay: 1, expiryDate: utcDate(-1) }, REAL_TIME), 'must be in the future')
  })

  test('minAuthDay 2 after a charge yesterday: REATTEMPT_NOT_PERMITTED on real time, charged on a clock 3 days ahead', async () => {
    const charge = recurrentCharge({ lastChargeAt: inDays(-1), minAuthDay: 2, expiryDate: utcDate(365) })
    assert.deepEqual(await charge(REAL_TIME.now()), { kind: 'declined', reason: 'REATTEMPT_NOT_PERMITTED' })
    assert.deepEqual(await charge(threeDaysAhead.now()), { kind: 'approved' })
  })

  test('a series ending tomorrow: charged on real time, RECURRENT_EXPIRED on a clock 3 days ahead', async () => {
    const charge = recurrentCharge({ lastChargeAt: inDays(-10), minAuthDay: 1, expiryDate: utcDate(1) })
    assert.deepEqual(await charge(REAL_TIME.now()), { kind: 'approved' })
    assert.deepEqual(await charge(threeDaysAhead.now()), { kind: 'declined', reason: 'RECURRENT_EXPIRED' })
  })

  test("the series' card expiring this month declines ACQUIRING_EXPIRED_CARD on a clock in next month", async () => {
    const { clock, expiry } = nextMonth()
    const charge = recurrentCharge({
      lastChargeAt: inDays(-10),
      minAuthDay: 1,
      expiryDate: utcDate(365),
      profile: cardProfile('4111111111111111', expiry),
    })
    assert.deepEqual(await charge(REAL_TIME.now()), { kind: 'approved' })
    assert.deepEqual(await charge(clock.now()), { kind: 'declined', reason: 'ACQUIRING_EXPIRED_CARD' })
  })
})

// ---- 6. payment tokens ------------------------------------------------------------------------------------

describe('6. token expiry: a token keeps its card’s expiry month', () => {
  test('a token of a card expiring this month charges on real time, declines ACQUIRING_EXPIRED_CARD on a clock in next month', async () => {
    const { clock, expiry } = nextMonth()
    // the profile as stored (JSON), never the card
    const stored = JSON.parse(JSON.stringify(cardProfile('4111111111111111', expiry))) as CardProfile
    assert.deepEqual(chargeOutcome(stored, REAL_TIME.now()), { kind: 'approved' })
    assert.deepEqual(chargeOutcome(stored, clock.now()), { kind: 'declined', reason: 'ACQUIRING_EXPIRED_CARD' })

    // through the token payment's own path: the token's binding payment carries that profile
    const req = paymentRequestSchema.parse({
      paymentMethod: { type: 'TOKEN', paymentToken: 'pt_x' },
      amount: { value: '100.00', currency: 'RUB' },
      customer: { account: 'acc-1' },
    })
    const tx = {
      paymentToken: {
        findUnique: async () => ({
          siteId: 'site-1',
          account: 'acc-1',
          payment: { cardProfile: stored, maskedPan: '411111******1111' },
        }),
      },
    } as unknown as Tx
    assert.deepEqual((await resolveInstrument(tx, 'site-1', req, REAL_TIME.now())).answer, { kind: 'approved' })
    assert.deepEqual((await resolveInstrument(tx, 'site-1', req, clock.now())).answer, {
      kind: 'declined',
      reason: 'ACQUIRING_EXPIRED_CARD',
    })
  })
})

// ---- 7. notifications -------------------------------------------------------------------------------------

describe('7. notification retries', () => {
  const delays = [5_000, 60_000, 300_000]
  const failed = { httpStatus: 500, error: null, durationMs: 3 }

  test('a failed attempt of a site 3 days ahead is dated on its clock, and the retry is due 5 s later on that clock', () => {
    const { at, next } = afterAttempt({ attempts: 0, clockOffsetMs: BigInt(3 * DAY) }, failed, delays)
    near(at, Date.now() + 3 * DAY, 'the attempt')
    near(next.nextAttemptAt as Date, Date.now() + 3 * DAY + 5_000, 'the retry')
    assert.equal(next.attempts, 1)
    // the same attempt of a site on real time
    const onRealTime = afterAttempt({ attempts: 0, clockOffsetMs: 0n }, failed, delays)
    near(onRealTime.at, Date.now(), 'the attempt on real time')
    near(onRealTime.next.nextAttemptAt as Date, Date.now() + 5_000, 'the retry on real time')
  })

  test('the delay schedule goes on from the site’s time; delivered and failed are dated on it too', () => {
    const offset = BigInt(30 * DAY)
    near(
      afterAttempt({ attempts: 1, clockOffsetMs: offset }, failed, delays).next.nextAttemptAt as Date,
      Date.now() + 30 * DAY + 60_000,
      'the third attempt',
    )
    const last = afterAttempt({ attempts: 3, clockOffsetMs: offset }, failed, delays)
    assert.equal(last.next.state, 'FAILED')
    near(last.at, Date.now() + 30 * DAY, 'the last attempt')
    const delivered = afterAttempt(
      { attempts: 1, clockOffsetMs: offset },
      { httpStatus: 200, error: null, durationMs: 3 },
      delays,
    )
    assert.equal(delivered.next.state, 'DELIVERED')
    near(delivered.next.deliveredAt as Date, Date.now() + 30 * DAY, 'delivered')
  })

  test("a notification is claimed once its own site's time has reached its due time", () => {
    // few due: every due row ranked; each is its own site's, its due time against real time plus that site's offset
    const ranked = claimStatement({ perSite: 4, leaseMs: 60_000 }, 10, false).sql.replace(/\s+/g, ' ')
    assert.match(
      ranked,
      /FROM \(SELECT x\.id, x\."siteId", x\."nextAttemptAt" FROM "Notification" x .*\) d .*LEFT JOIN "Site" s ON s\.id = d\."siteId"/,
    )
    assert.ok(ranked.includes(`d."nextAttemptAt" <= now() + ${siteOffset('s').sql}`), ranked)
    assert.match(ranked, /RETURNING .*site\."clockOffsetMs"/)
    // a backlog: site by site, the same rule
    const text = claimStatement({ perSite: 4, leaseMs: 60_000 }, 10, true).sql.replace(/\s+/g, ' ')
    assert.match(text, /FROM pending p LEFT JOIN "Site" s ON s\.id = p\."siteId"/)
    assert.ok(text.includes(`WHERE p.first <= now() + ${siteOffset('s').sql}`), text)
    assert.ok(
      text.includes(
        `WHERE x."siteId" = p."siteId" AND x."nextAttemptAt" <= now() + ${siteOffset('s').sql} AND x.state = 'PENDING'`,
      ),
      text,
    )
    // and the offset comes back with the claim: record() dates the attempt on it
    assert.match(text, /RETURNING .*site\."clockOffsetMs"/)
    // as the worker claims: the due rows counted on their sites' clocks, then the way the count chooses, each by the
    // same rule
    const made = claimStatement({ perSite: 4, leaseMs: 60_000 }, 10).sql.replace(/\s+/g, ' ')
    assert.match(
      made,
      /backlog AS MATERIALIZED \( SELECT count\(\*\) >= \? AS yes FROM \( SELECT x\.id FROM "Notification" x WHERE x\."nextAttemptAt" <= now\(\) .* UNION ALL SELECT x\.id FROM "Site" ahead JOIN "Notification" x ON x\."siteId" = ahead\.id /,
    )
    assert.ok(made.includes('FROM due_by_site WHERE (SELECT yes FROM backlog)'), made)
    assert.ok(made.includes('FROM due_ranked WHERE NOT (SELECT yes FROM backlog)'), made)
    for (const rule of [
      `WHERE p.first <= now() + ${siteOffset('s').sql}`,
      `d."nextAttemptAt" <= now() + ${siteOffset('s').sql}`,
    ])
      assert.ok(made.includes(rule), rule)
  })

  test("the due-time search: rows due on real time, and of each site ahead, its rows due by its own time (each an index's range)", () => {
    const text = dueOnSiteClock(
      'Notification',
      'nextAttemptAt',
      Prisma.sql`now()`,
      Prisma.sql`x.state = 'PENDING'`,
    ).sql.replace(/\s+/g, ' ')
    const [realTime, ahead] = text.split(' UNION ALL ')
    assert.equal(realTime, `SELECT x.id FROM "Notification" x WHERE x."nextAttemptAt" <= now() AND x.state = 'PENDING'`)
    assert.equal(
      ahead.trim(),
      `SELECT x.id FROM "Site" ahead JOIN "Notification" x ON x."siteId" = ahead.id WHERE ahead."clockOffsetMs" > 0 AND x."nextAttemptAt" > now() AND x."nextAttemptAt" <= now() + ahead."clockOffsetMs" * interval '1 millisecond' AND x.state = 'PENDING'`,
    )
  })

  test('a new notification is created and first due at its site’s time', () => {
    const row = {
      ...waitingPayment('THREE_DS', new Date()),
      status: 'DECLINED',
      statusReason: 'PAYMENT_EXPIRED_3DS',
      dueAt: null,
    }
    const insert = paymentNotificationInsert(row)!
    const text = insert.sql.replace(/\s+/g, ' ')
    assert.ok(text.includes(`now() + ${siteOffset('s').sql} AS at`), text)
    assert.match(text, /'PENDING', u\.at, u\.at/)
    // `s` is the payment's site
    const param = /LEFT JOIN "Site" s ON s\.id = \$(\d+)/.exec(insert.text)
    assert.ok(param, insert.text)
    assert.equal(insert.values[Number(param[1]) - 1], 'site-1')
  })
})

// ---- 8. the date-times written ----------------------------------------------------------------------------

describe('8. the date-times written are the site’s', () => {
  const thirtyAhead = clockAt(30 * DAY)

  test('a bill created on a clock 30 days ahead: creationDateTime 30 days ahead, payable until its deadline on that clock', () => {
    const now = thirtyAhead.now()
    const bill = billRow({ createdAt: now, statusChangedAt: now, expiresAt: new Date(now.getTime() + 2 * DAY) })
    const answer = renderBill(bill, thirtyAhead.now())
    near(wire(answer.creationDateTime), Date.now() + 30 * DAY, 'creationDateTime')
    near(wire(answer.status.changedDateTime), Date.now() + 30 * DAY, 'status.changedDateTime')
    assert.equal(answer.status.value, 'CREATED')
    assert.equal(renderBill(bill, new Date(now.getTime() + 3 * DAY)).status.value, 'EXPIRED')
  })

  test("a payment made on a clock 30 days ahead is dated 30 days ahead; its implicit bill's 45 days count from then", () => {
    const now = thirtyAhead.now()
    const payment = renderPayment(
      paymentRow(
        'site-1',
        'pay-1',
        cardRequest('12/40'),
        'print',
        { methodType: 'CARD', answer: { kind: 'approved' } },
        { kind: 'approved' },
        { id: 'b1', billId: 'bill-1' },
        now,
      ),
    )
    near(wire(payment.createdDateTime), Date.now() + 30 * DAY, 'createdDateTime')
    near(wire(payment.status.changedDateTime), Date.now() + 30 * DAY, 'status.changedDateTime')
    near(
      implicitBill({ amountMinor: 10000, currency: 'RUB', flags: [] }, now).expiresAt,
      Date.now() + 75 * DAY,
      "the implicit bill's deadline",
    )
  })

  test('a 3-D Secure payment made on a clock 30 days ahead waits until 15 minutes after that', () => {
    const row = paymentRow(
      'site-1',
      'pay-1',
      cardRequest('12/40'),
      'print',
      { methodType: 'CARD', answer: { kind: 'threeDS' } },
      { kind: 'threeDS' },
      { id: 'b1', billId: 'bill-1' },
      thirtyAhead.now(),
    )
    assert.equal(row.status, 'WAITING')
    near(row.createdAt, Date.now() + 30 * DAY, 'createdAt')
    near(row.dueAt, Date.now() + 30 * DAY + settings().threeDSTimeoutMs, 'the timeout')
  })
})
