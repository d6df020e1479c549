// Every request example of the OpenAPI document, sent to the service as the /docs page's curl command
// sends it (its dates written by date(1) relative to today: lib/openapi/reference-text.ts's shellJson,
// run by bash here), answers 2xx and does what its summary says (nothing declined): the examples, and
// the curl commands made of them, cannot go stale unnoticed. Each example runs on a site of its own,
// after what it presupposes (the payment it completes, captures or refunds; the token or the series
// it charges), at the ids the curl commands use; a placeholder (a value ending in …, which a reader
// fills in from an earlier answer) is filled in from that setup.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { test } from 'node:test'
import { apiDocument } from '../../lib/openapi/api-document.ts'
import { curlOf, PATH_EXAMPLES, shellJson } from '../../lib/openapi/reference-text.ts'
import { client, newSite, request } from '../support/api.ts'
import { sql } from '../support/db.ts'

type Json = Record<string, any>
type Api = ReturnType<typeof client>

const document = apiDocument() as Json

/** the operations with request examples: path, method, operation */
const operations = Object.entries(document.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([, op]) => op.requestBody?.content?.['application/json']?.examples)
    .map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
)

const exampleOf = (operationId: string, name: string): unknown => {
  const o = operations.find((x) => x.op.operationId === operationId)
  const value = o?.op.requestBody.content['application/json'].examples[name]?.value
  assert.ok(value, `no example ${name} of ${operationId}`)
  return value
}

/** the body as the curl command sends it: bash expands the command's -d word */
const asSent = (value: unknown): Json =>
  JSON.parse(execFileSync('bash', ['-c', `printf '%s' ${shellJson(value)}`], { encoding: 'utf8' }))

/** the path of a curl command, on the site */
const pathOf = (template: string, siteId: string) =>
  `/api${template.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'siteId' ? siteId : PATH_EXAMPLES[name]))}`

/** a request of the setup, which must succeed */
async function ok(api: Api, path: string, body: unknown): Promise<Json> {
  const r = await api.put(path, body)
  assert.equal(r.status, 200, `${path}: ${r.text}`)
  assert.notEqual(r.body.status?.value, 'DECLINED', `${path}: ${r.text}`)
  return r.body
}

/** plays the payer's browser at the emulated access-control page: the PaRes it posts back */
async function passedChallenge(pareq: string, acsUrl: string): Promise<string> {
  const fields = { PaReq: pareq, MD: 'md', TermUrl: 'https://merchant.example/3ds-return' }
  const challenge = await fetch(acsUrl, { method: 'POST', body: new URLSearchParams(fields) })
  const action = new URL(/action="([^"]+)"/.exec(await challenge.text())![1], acsUrl).href
  const back = await (
    await fetch(action, { method: 'POST', body: new URLSearchParams({ ...fields, result: 'pass' }) })
  ).text()
  return /name="PaRes" value="([^"]*)"/.exec(back)![1].replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)))
}

/**
 * What an example presupposes, by operation (and example): done on the example's site at the curl
 * commands' ids; the values its placeholders stand for, by field name.
 */
const SETUP: Record<string, (api: Api, example: string) => Promise<Record<string, string | undefined>>> = {
  createPayment: async (api, example) => {
    if (example === 'token') {
      const issued = await ok(api, '/payments/bind-1', asSent(exampleOf('createPayment', 'bindToken')))
      return { paymentToken: issued.createdToken.token }
    }
    if (example === 'recurrent') {
      const first = asSent(exampleOf('createPayment', 'recurrentFirst'))
      const firstPaymentId = (exampleOf('createPayment', 'recurrent') as Json).paymentMethod.firstPaymentId
      await ok(api, `/payments/${firstPaymentId}`, first)
      // the series' period has passed (the example is "a later charge")
      await sql(
        `UPDATE "Payment" SET "statusChangedAt" = "statusChangedAt" - make_interval(days => $3) WHERE "siteId" = $1 AND "paymentId" = $2`,
        [api.site.siteId, firstPaymentId, first.recurrent.minAuthDay],
      )
    }
    return {}
  },
  completePayment: async (api, example) => {
    const payment = `/payments/${PATH_EXAMPLES.paymentId}`
    if (example === 'threeDS') {
      const card = (exampleOf('createPayment', 'oneStep') as Json).paymentMethod
      const waiting = await ok(api, payment, {
        ...asSent(exampleOf('createPayment', 'oneStep')),
        paymentMethod: { ...card, pan: '4000000000003220' },
      })
      return { pares: await passedChallenge(waiting.requirements.threeDS.pareq, waiting.requirements.threeDS.acsUrl) }
    }
    const waiting = await ok(api, payment, asSent(exampleOf('createPayment', 'mobile')))
    assert.ok(waiting.requirements.otp, JSON.stringify(waiting))
    return {}
  },
  // the example's verification waits for 3-D Secure: its PaRes from the emulated ACS
  completeCardCheck: async (api) => {
    const waiting = await ok(
      api,
      `/validation/card/requests/${PATH_EXAMPLES.requestUid}`,
      asSent(exampleOf('checkCard', 'threeDS')),
    )
    return { pares: await passedChallenge(waiting.requirements.pareq, waiting.requirements.acsUrl) }
  },
  capturePayment: async (api) => {
    await ok(api, `/payments/${PATH_EXAMPLES.paymentId}`, asSent(exampleOf('createPayment', 'twoStep')))
    return {}
  },
  refundPayment: async (api) => {
    await ok(api, `/payments/${PATH_EXAMPLES.paymentId}`, asSent(exampleOf('createPayment', 'oneStep')))
    return {}
  },
  // the bank app's actions and a payment by token act on the example's QR code; the token is bound first
  paySbpQrCodeByToken: async (api) => {
    await ok(api, `/sbp/qrCodes/${PATH_EXAMPLES.qrCodeUid}`, asSent(exampleOf('putSbpQrCode', 'dynamic')))
    await ok(api, '/sbp/qrCodes/bind-1', asSent(exampleOf('putSbpQrCode', 'token')))
    const bound = await api.post('/sandbox/sbp/bind-1/pay')
    assert.equal(bound.status, 200, bound.text)
    return { token: bound.body.token.value }
  },
  payInSandboxBankApp: async (api) => {
    await ok(api, `/sbp/qrCodes/${PATH_EXAMPLES.qrCodeUid}`, asSent(exampleOf('putSbpQrCode', 'dynamic')))
    return {}
  },
  declineInSandboxBankApp: async (api) => {
    await ok(api, `/sbp/qrCodes/${PATH_EXAMPLES.qrCodeUid}`, asSent(exampleOf('putSbpQrCode', 'dynamic')))
    return {}
  },
}

/** the example with its placeholders filled in */
function filled(value: unknown, values: Record<string, string | undefined>, key = ''): unknown {
  if (typeof value === 'string' && value.endsWith('…')) {
    assert.ok(
      values[key],
      `the placeholder ${key}: ${JSON.stringify(value)} has no value from the setup (SETUP in this file)`,
    )
    return values[key]
  }
  if (Array.isArray(value)) return value.map((v) => filled(v, values, key))
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, filled(v, values, k)]))
  return value
}

test("the curl commands write a request's dates relative to today: no example date is sent as written", () => {
  const bill = operations.find((o) => o.op.operationId === 'createBill')!
  const curl = curlOf(bill.path, bill.method, bill.op)
  assert.match(curl, /"\$\(date -u -d '\+7 days'/)
  assert.doesNotMatch(curl, /\d{4}-\d{2}-\d{2}T/)
  const sent = asSent(exampleOf('createBill', 'fixed'))
  const ahead = Date.parse(sent.expirationDateTime) - Date.now()
  assert.ok(ahead > 6 * 86_400_000 && ahead < 8 * 86_400_000, sent.expirationDateTime)
  assert.ok(
    asSent(exampleOf('createPayment', 'recurrentFirst')).recurrent.expiryDate > new Date().toISOString().slice(0, 10),
  )
})

const examples = operations.flatMap((o) =>
  Object.keys(o.op.requestBody.content['application/json'].examples).map((name) => ({ ...o, name })),
)

test('there are request examples of every operation with a body', () => {
  assert.deepEqual([...new Set(examples.map((e) => e.op.operationId))].sort(), [
    'advanceSandboxClock',
    'capturePayment',
    'checkCard',
    'completeCardCheck',
    'completePayment',
    'createBill',
    'createPayment',
    'createSbpQrCode',
    'declineInSandboxBankApp',
    'payInSandboxBankApp',
    'paySbpQrCodeByToken',
    'putSbpQrCode',
    'refundPayment',
    'resetSandbox',
  ])
  assert.ok(examples.length >= 13, `${examples.length} examples`)
})

for (const { path, method, op, name } of examples) {
  test(`${op.operationId}, example ${name}: ${op.requestBody.content['application/json'].examples[name].summary}`, async () => {
    const site = await newSite('example')
    const api = client(site)
    const values = (await SETUP[op.operationId]?.(api, name)) ?? {}
    let body = filled(asSent(op.requestBody.content['application/json'].examples[name].value), values) as Json
    // the reset's confirmation names the example's site (npm start's demo): here, the test's own
    if (op.operationId === 'resetSandbox') body = { ...body, confirm: site.siteId }
    const r = await request(method, pathOf(path, site.siteId), { token: site.token, body })
    assert.ok(
      r.status >= 200 && r.status < 300,
      `${method} ${path} with ${JSON.stringify(body)}: ${r.status} ${r.text}`,
    )
    // it does what it says: a payment, capture or refund that is not declined, a bill that can be paid
    assert.notEqual(r.body.status?.value, 'DECLINED', r.text)
    if (op.operationId === 'completePayment') assert.equal(r.body.status.value, 'COMPLETED', r.text)
    if (op.operationId === 'completeCardCheck') assert.equal(r.body.isValidCard, true, r.text)
    if (op.operationId === 'createBill') assert.equal(r.body.status.value, 'CREATED', r.text)
  })
}
