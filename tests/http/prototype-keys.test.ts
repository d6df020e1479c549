// Keys that name Object.prototype's members (`constructor`, `toString`, `__proto__`, `valueOf` …) in a
// JSON body, at the top level and nested, on every endpoint that reads one: the API's, the payment page's
// attempts, the dashboard's actions (sign-in included). A value that cannot be stored (a NUL, a lone
// surrogate) is a 400 validation.error naming the field, and nothing is written; a value of a wrong type
// is a 4xx in the contract's shape. Never a 500 (the error's field map once indexed a plain object, so a
// field named `constructor` read Object's constructor). The cases are enumerated, not drawn: the same
// every run.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { before, describe, test } from 'node:test'
import {
  assertErrorShape,
  billRequest,
  cardPayment,
  client,
  newSite,
  request,
  uid,
  type Answer,
} from '../support/api.ts'
import { ORIGIN, asSession, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'

/** every member name of Object.prototype (own names, `__proto__` among them), and `prototype` */
const NAMES = [...Object.getOwnPropertyNames(Object.prototype), 'prototype']

/** values PostgreSQL cannot store: always a 400 naming the field */
const UNSTORABLE = ['a\u0000b', '\ud800', 'x\udfff']
/** values of a wrong type for any field */
const WRONG_TYPES: unknown[] = [1, -0.5, true, null, [], {}, ['\u0000'], { a: 1 }]

/** JSON text of `body` with the member `"name": value` added to the object at `at` (a path of keys; [] is the top) */
function withMember(body: Record<string, unknown>, at: string[], name: string, value: unknown): string {
  // a placeholder key, renamed in the text: a JS object cannot hold `__proto__` as plain data
  const marker = '\u2063marker\u2063'
  const copy = structuredClone(body)
  let target: Record<string, unknown> = copy
  for (const k of at) target = target[k] as Record<string, unknown>
  target[marker] = value
  return JSON.stringify(copy).replace(JSON.stringify(marker), JSON.stringify(name))
}

/** the paths of every object in `body` ([] first), where a member can be added */
function objectPaths(body: Record<string, unknown>): string[][] {
  const paths: string[][] = [[]]
  const walk = (v: unknown, at: string[]) => {
    for (const [k, c] of Object.entries(v as Record<string, unknown>))
      if (c && typeof c === 'object' && !Array.isArray(c)) {
        paths.push([...at, k])
        walk(c, [...at, k])
      }
  }
  walk(body, [])
  return paths
}

async function counts(siteId: string) {
  const [r] = await sql(
    `SELECT (SELECT count(*) FROM "Payment" WHERE "siteId" = $1)::int AS payments, (SELECT count(*) FROM "Refund" WHERE "siteId" = $1)::int AS refunds,
            (SELECT count(*) FROM "Capture" WHERE "siteId" = $1)::int AS captures, (SELECT count(*) FROM "Bill" WHERE "siteId" = $1)::int AS bills,
            (SELECT count(*) FROM "SiteToken" WHERE "siteId" = $1)::int AS tokens, (SELECT "clockOffsetMs"::text FROM "Site" WHERE id = $1) AS clock,
            (SELECT count(*) FROM "SbpQrCode" WHERE "siteId" = $1)::int AS "qrCodes",
            (SELECT count(*) FROM "CardCheck" WHERE "siteId" = $1)::int AS "cardChecks"`,
    [siteId],
  )
  return r
}

interface Target {
  name: string
  method: string
  path: () => string
  /** a body the endpoint accepts */
  valid: () => Record<string, unknown>
  headers: () => Record<string, string>
  /** every field optional: `{}` is a valid body (so is one with only an unknown member) */
  optional?: boolean
}

describe('Object.prototype member names as JSON keys, on every endpoint with a body', () => {
  let site: { siteId: string; token: string }
  let targets: Target[]
  before(async () => {
    site = await newSite('proto')
    const api = client(site)
    const paid = uid('paid')
    const held = uid('held')
    const waiting = uid('otp')
    assert.equal((await api.put(`/payments/${paid}`, cardPayment())).status, 200)
    assert.equal((await api.put(`/payments/${held}`, cardPayment({ flags: [] }))).status, 200)
    assert.equal((await api.put(`/payments/${waiting}`, cardPayment({}, { pan: '4000000000001000' }))).status, 200)
    const bill = await api.put(`/bills/${uid('bill')}`, billRequest())
    const codeBill = await api.put(`/bills/${uid('bill')}`, billRequest())
    const started = await request('POST', `/pay/${codeBill.body.invoiceUid}/attempts`, {
      body: { method: 'card', pan: '4000000000001000', expiry: '12/30', cvv: '123' },
    })
    assert.equal(started.status, 200, started.text)
    const qrCode = uid('qr')
    assert.equal(
      (
        await api.put(`/sbp/qrCodes/${qrCode}`, {
          amount: { value: '5.00', currency: 'RUB' },
          qrCode: { type: 'DYNAMIC' },
        })
      ).status,
      200,
    )
    const checking = uid('check')
    const check = await api.put(`/validation/card/requests/${checking}`, {
      cardData: { pan: '4000000000003220', expiryDate: '12/30', cvv2: '123' },
    })
    assert.equal(check.status, 200, check.text)
    const session = await signIn(site)
    const bearer = () => ({ Authorization: `Bearer ${site.token}` })
    const payer = () => ({})
    const dashboard = () => ({ Origin: ORIGIN, ...asSession(session) })
    const api_ = (p: string) => `/api/sites/${site.siteId}${p}`
    targets = [
      {
        name: 'payment create',
        method: 'PUT',
        path: () => api_(`/payments/${uid('p')}`),
        valid: () => cardPayment({ customer: { account: 'a' }, customFields: { cf1: 'x' } }),
        headers: bearer,
      },
      {
        name: 'payment create (alias)',
        method: 'PUT',
        path: () => `/partner/v1/sites/${site.siteId}/payments/${uid('p')}`,
        valid: () => cardPayment(),
        headers: bearer,
      },
      {
        name: 'capture',
        method: 'PUT',
        path: () => api_(`/payments/${held}/captures/${uid('c')}`),
        valid: () => ({ amount: { value: '1.00', currency: 'RUB' } }),
        headers: bearer,
        optional: true,
      },
      {
        name: 'refund',
        method: 'PUT',
        path: () => api_(`/payments/${paid}/refunds/${uid('r')}`),
        valid: () => ({ amount: { value: '1.00', currency: 'RUB' } }),
        headers: bearer,
      },
      {
        name: 'complete',
        method: 'POST',
        path: () => api_(`/payments/${waiting}/complete`),
        valid: () => ({ otp: { code: '0000', otpProcessCode: 'x' } }),
        headers: bearer,
      },
      {
        name: 'bill create',
        method: 'PUT',
        path: () => api_(`/bills/${uid('b')}`),
        valid: () => billRequest({ customer: { email: 'a@b.c' }, customFields: { themeCode: 't' } }),
        headers: bearer,
      },
      {
        name: 'sandbox clock advance',
        method: 'POST',
        path: () => api_('/sandbox/clock/advance'),
        valid: () => ({ seconds: 1 }),
        headers: bearer,
        optional: true,
      },
      {
        name: 'sandbox reset',
        method: 'POST',
        path: () => api_('/sandbox/reset'),
        valid: () => ({ confirm: site.siteId }),
        headers: bearer,
      },
      {
        name: 'SBP QR code create',
        method: 'POST',
        path: () => api_('/sbp/qrCodes'),
        valid: () => ({
          qrCodeUid: uid('qr'),
          amount: { value: '5.00', currency: 'RUB' },
          qrCode: { type: 'DYNAMIC', ttl: 5, image: { mediaType: 'image/png', width: 100, height: 100 } },
        }),
        headers: bearer,
      },
      {
        name: 'SBP QR code put',
        method: 'PUT',
        path: () => api_(`/sbp/qrCodes/${uid('qr')}`),
        valid: () => ({ qrCode: { type: 'TOKEN' }, tokenizationAccount: 'a', flags: ['CREATE_TOKEN'] }),
        headers: bearer,
      },
      {
        name: 'SBP payment by token',
        method: 'POST',
        path: () => api_(`/sbp/qrCodes/${qrCode}/payments`),
        valid: () => ({ tokenizationAccount: 'a', token: 'not-a-token' }),
        headers: bearer,
      },
      {
        name: 'sandbox bank app pay',
        method: 'POST',
        path: () => api_(`/sandbox/sbp/${qrCode}/pay`),
        valid: () => ({ bankMemberId: '100000000901' }),
        headers: bearer,
        optional: true,
      },
      {
        name: 'sandbox bank app decline',
        method: 'POST',
        path: () => api_(`/sandbox/sbp/${qrCode}/decline`),
        valid: () => ({ bankMemberId: '100000000901' }),
        headers: bearer,
        optional: true,
      },
      {
        name: 'card verification',
        method: 'PUT',
        path: () => api_(`/validation/card/requests/${uid('check')}`),
        valid: () => ({
          cardData: { pan: '4111111111111111', expiryDate: '12/30', cvv2: '123', holderName: 'A' },
          tokenizationData: { account: 'a' },
        }),
        headers: bearer,
      },
      {
        name: 'card verification complete',
        method: 'POST',
        path: () => api_(`/validation/card/requests/${checking}/complete`),
        valid: () => ({ pares: 'not-a-pares' }),
        headers: bearer,
      },
      {
        name: 'page attempt',
        method: 'POST',
        path: () => `/pay/${bill.body.invoiceUid}/attempts`,
        valid: () => ({ method: 'card', pan: '4000000000000002', expiry: '12/30', cvv: '123' }),
        headers: payer,
      },
      {
        name: 'page code',
        method: 'POST',
        path: () => `/pay/${codeBill.body.invoiceUid}/attempts/${started.body.attemptId}/code`,
        valid: () => ({ code: '0000' }),
        headers: payer,
      },
      {
        name: 'dashboard sign-in',
        method: 'POST',
        path: () => '/dashboard/actions/sign-in',
        valid: () => ({ siteId: site.siteId, token: site.token }),
        headers: () => ({ Origin: ORIGIN }),
      },
      {
        name: 'dashboard capture',
        method: 'POST',
        path: () => `/dashboard/actions/payments/${held}/capture`,
        valid: () => ({ amount: '1.00', key: crypto.randomUUID() }),
        headers: dashboard,
      },
      {
        name: 'dashboard refund',
        method: 'POST',
        path: () => `/dashboard/actions/payments/${paid}/refund`,
        valid: () => ({ amount: '1.00', key: crypto.randomUUID() }),
        headers: dashboard,
      },
      {
        name: 'dashboard new bill',
        method: 'POST',
        path: () => `/dashboard/actions/bills/${crypto.randomUUID()}`,
        valid: () => billRequest(),
        headers: dashboard,
      },
      {
        name: 'dashboard clock advance',
        method: 'POST',
        path: () => '/dashboard/actions/sandbox/clock/advance',
        valid: () => ({ seconds: 1 }),
        headers: dashboard,
        optional: true,
      },
      {
        name: 'dashboard notify URL',
        method: 'POST',
        path: () => '/dashboard/actions/settings/notify-url',
        valid: () => ({ url: '' }),
        headers: dashboard,
      },
      {
        name: 'dashboard rotate secret',
        method: 'POST',
        path: () => '/dashboard/actions/settings/rotate-secret',
        valid: () => ({ immediately: false }),
        headers: dashboard,
        optional: true,
      },
      {
        name: 'dashboard holds',
        method: 'POST',
        path: () => '/dashboard/actions/settings/holds',
        valid: () => ({ action: 'capture', hours: 72 }),
        headers: dashboard,
      },
      {
        name: 'dashboard frame origins',
        method: 'POST',
        path: () => '/dashboard/actions/settings/frame-origins',
        valid: () => ({ origins: [] }),
        headers: dashboard,
      },
      {
        name: 'dashboard themes',
        method: 'POST',
        path: () => '/dashboard/actions/settings/themes',
        valid: () => ({ code: 'proto-keys', name: 'Keys', backgroundColor: '#ffffff', buttonColor: '#1d4ed8' }),
        headers: dashboard,
      },
    ]
  })

  const send = (t: Target, text: string) => request(t.method, t.path(), { rawBody: text, headers: t.headers() })

  /** the contract's 400 validation.error, its `cause` naming `field` as an own member with messages */
  function assertNames(a: Answer, field: string, what: string) {
    assertErrorShape(a, 400, 'validation.error')
    const cause = a.body.cause
    assert.ok(
      Object.hasOwn(cause, field) && Array.isArray(cause[field]) && cause[field].length > 0,
      `${what}: cause does not name ${field}: ${a.text}`,
    )
  }

  // thousands of requests, one at a time (each must be judged alone): on a busy machine they take minutes
  const LONG = { timeout: 900_000 }

  test(
    'a value that cannot be stored, under each name, at each depth: 400 naming the field, nothing written',
    LONG,
    async () => {
      const before = await counts(site.siteId)
      for (const t of targets) {
        const valid = t.valid()
        for (const name of NAMES)
          for (const value of UNSTORABLE) {
            const member = withMember({}, [], name, value)
            // in each object of the body, and in an object inside an array of a new member
            const cases = objectPaths(valid).map((at) => ({
              text: withMember(valid, at, name, value),
              field: [...at, name].join('.'),
            }))
            cases.push({
              text: `${JSON.stringify(valid).slice(0, -1)},"extra":[${member}]}`,
              field: `extra[0].${name}`,
            })
            for (const { text, field } of cases)
              assertNames(await send(t, text), field, `${t.name}: ${text.slice(0, 200)}`)
          }
      }
      assert.deepEqual(await counts(site.siteId), before, 'a refused request wrote something')
    },
  )

  test(
    'a value of a wrong type under each name, alone or inside a known field: a 4xx in the error shape, nothing written',
    LONG,
    async () => {
      const before = await counts(site.siteId)
      for (const t of targets) {
        const known = Object.keys(t.valid())
        for (const name of NAMES)
          for (const value of WRONG_TYPES) {
            // the name alone at the top (every required field missing), and as the only member of each known field
            const member = withMember({}, [], name, value)
            const texts = [...(t.optional ? [] : [member]), ...known.map((k) => `{${JSON.stringify(k)}:${member}}`)]
            for (const text of texts) {
              const a = await send(t, text)
              assert.ok(a.status >= 400 && a.status < 500, `${t.name} ${text}: ${a.status} ${a.text.slice(0, 300)}`)
              assertErrorShape(a, a.status, a.body?.errorCode)
            }
          }
      }
      assert.deepEqual(await counts(site.siteId), before, 'a refused request wrote something')
    },
  )

  test('every route that reads a JSON body is among the targets', () => {
    // route files of app/ whose handlers take a body (POST or PUT) through the API wrapper
    const routes: string[] = []
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name)
        if (e.isDirectory()) walk(p)
        else if (e.name === 'route.ts') routes.push(path.relative('app', dir))
      }
    }
    walk('app')
    // GET-only, form-posted (the emulated 3-D Secure pages and their return, the sandbox bank app) or bodiless routes
    const bodiless = new Set([
      'api/[...path]',
      'dashboard/actions/[...missing]',
      'api/metrics',
      'api/ready',
      'popup/v2.js',
      'pay-theme/[siteId]/[themeCode]/logo',
      'api/health',
      'api/openapi.json',
      'api/bench-empty',
      'api/sites/[siteId]/sandbox/clock',
      'api/sites/[siteId]/bills/[billId]/details',
      'api/sites/[siteId]/notifications',
      'api/sites/[siteId]/notifications/[notificationId]/resend',
      'api/sites/[siteId]/payments/[paymentId]/refunds',
      'api/sites/[siteId]/payments/[paymentId]/refunds/[refundId]/decline',
      'pay/[invoiceUid]/3ds-return',
      'sbp/[publicId]/act',
      'validation/card',
      'pay/[invoiceUid]/attempts/[attemptId]',
      'acs',
      'acs/result',
      'dashboard/actions/notifications/[notificationId]/resend',
      'dashboard/actions/sign-out',
      'dashboard/actions/settings/tokens',
      'dashboard/actions/settings/tokens/[tokenId]/revoke',
      'dashboard/actions/settings/public-key',
      'dashboard/actions/settings/themes/[themeCode]/delete',
    ])
    const covered = new Set([
      'api/sites/[siteId]/payments/[paymentId]',
      'api/sites/[siteId]/payments/[paymentId]/captures/[captureId]',
      'api/sites/[siteId]/payments/[paymentId]/refunds/[refundId]',
      'api/sites/[siteId]/payments/[paymentId]/complete',
      'api/sites/[siteId]/bills/[billId]',
      'api/sites/[siteId]/sandbox/clock/advance',
      'api/sites/[siteId]/sandbox/reset',
      'api/sites/[siteId]/sbp/qrCodes',
      'api/sites/[siteId]/sbp/qrCodes/[qrCodeUid]',
      'api/sites/[siteId]/sbp/qrCodes/[qrCodeUid]/payments',
      'api/sites/[siteId]/sandbox/sbp/[qrCodeUid]/pay',
      'api/sites/[siteId]/sandbox/sbp/[qrCodeUid]/decline',
      'api/sites/[siteId]/validation/card/requests/[requestUid]',
      'api/sites/[siteId]/validation/card/requests/[requestUid]/complete',
      'pay/[invoiceUid]/attempts',
      'pay/[invoiceUid]/attempts/[attemptId]/code',
      'dashboard/actions/sign-in',
      'dashboard/actions/payments/[paymentId]/capture',
      'dashboard/actions/payments/[paymentId]/refund',
      'dashboard/actions/bills/[billId]',
      'dashboard/actions/sandbox/clock/advance',
      'dashboard/actions/settings/notify-url',
      'dashboard/actions/settings/rotate-secret',
      'dashboard/actions/settings/holds',
      'dashboard/actions/settings/frame-origins',
      'dashboard/actions/settings/themes',
    ])
    assert.equal(targets.length, covered.size + 1, 'one target per covered route (and the alias)')
    assert.deepEqual(
      routes.filter((r) => !bodiless.has(r) && !covered.has(r)).sort(),
      [],
      'a route with a body that this file does not try',
    )
  })
})
