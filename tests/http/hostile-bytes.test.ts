// Hostile bytes: NUL characters in JSON strings (PostgreSQL text refuses U+0000), whitespace around
// amounts, clients that go away in the middle of a body, and one log identity per request.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import { before, describe, test } from 'node:test'
import { redact } from '../../lib/log/log-line.ts'
import { newTraceId } from '../../lib/http/trace-id.ts'
import {
  BASE_URL,
  assertErrorShape,
  assertValidation,
  billRequest,
  cardPayment,
  client,
  newSite,
  request,
  rub,
  twoStepPayment,
  uid,
} from '../support/api.ts'
import { sql } from '../support/db.ts'

const NUL = '\u0000'

/** a receipt of one item adding up to `value`, with the item's name given */
const receipt = (name: string, value = '100.00') => ({ items: [{ name, price: value, quantity: 1, total: value }] })

describe('a NUL character in any string of a JSON body is 400 validation.error naming the field; nothing is written', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('nul'))
  })

  const paymentCases: [string, Record<string, unknown>, string][] = [
    ['comment', { comment: `a${NUL}b` }, 'comment'],
    ['customer.email', { customer: { email: `payer${NUL}@example.com` } }, 'customer.email'],
    ['customer.name', { customer: { name: `Ivan${NUL}` } }, 'customer.name'],
    ['customer.account', { customer: { account: `${NUL}acc` } }, 'customer.account'],
    ['customer.phone', { customer: { phone: `7900${NUL}` } }, 'customer.phone'],
    ['receipt.items[0].name', { receipt: receipt(`Tea${NUL}`) }, 'receipt.items[0].name'],
    ['callbackUrl', { callbackUrl: `https://shop.example.com/n${NUL}` }, 'callbackUrl'],
    ['an unknown field', { somethingNew: { note: `x${NUL}` } }, 'somethingNew.note'],
  ]
  for (const [what, over, field] of paymentCases) {
    test(`payment PUT: NUL in ${what}`, async () => {
      const id = uid('pay')
      assertValidation(await api.put(`/payments/${id}`, cardPayment(over)), field)
      assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
    })
  }

  test('payment PUT: NUL in the card number names paymentMethod.pan and the answer does not echo it', async () => {
    const id = uid('pay')
    const r = await api.put(`/payments/${id}`, cardPayment({}, { pan: `4111111111111111${NUL}` }))
    assertValidation(r, 'paymentMethod.pan')
    assert.ok(!r.text.includes('4111111111111111'), r.text)
    assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
  })

  const billCases: [string, Record<string, unknown>, string][] = [
    ['comment', { comment: `a${NUL}b` }, 'comment'],
    ['customer.email', { customer: { email: `payer${NUL}@example.com` } }, 'customer.email'],
    ['customer.name', { customer: { name: `Ivan${NUL}` } }, 'customer.name'],
    ['customer.account', { customer: { account: `acc${NUL}` } }, 'customer.account'],
    ['customer.phone', { customer: { phone: `${NUL}` } }, 'customer.phone'],
    ['customFields.x', { customFields: { x: `one${NUL}two` } }, 'customFields.x'],
    ['a customFields key', { customFields: { [`a${NUL}b`]: 'v' } }, 'customFields.a\\u0000b'],
    ['receipt.items[0].name', { amount: rub('100.00'), receipt: receipt(`Tea${NUL}`) }, 'receipt.items[0].name'],
    ['successUrl', { successUrl: `https://shop.example.com/ok${NUL}` }, 'successUrl'],
  ]
  for (const [what, over, field] of billCases) {
    test(`bill PUT: NUL in ${what}`, async () => {
      const id = uid('bill')
      assertValidation(await api.put(`/bills/${id}`, billRequest(over)), field)
      assertErrorShape(await api.get(`/bills/${id}`), 404, 'payin.resource.not.found')
    })
  }

  test("every NUL is named, beside the schema's own problems", async () => {
    const r = await api.put(
      `/payments/${uid('pay')}`,
      cardPayment({ comment: NUL, customer: { name: NUL }, amount: rub('0') }),
    )
    for (const field of ['comment', 'customer.name', 'amount.value']) assertValidation(r, field)
  })

  test('a lone surrogate (JSON "\\ud800", which jsonb refuses) is 400 naming the field, and nothing is written', async () => {
    const id = uid('pay')
    const r = await api.put(`/payments/${id}`, cardPayment({ customer: { name: 'Ivan\ud800' }, comment: '\udc00x' }))
    for (const field of ['customer.name', 'comment']) assertValidation(r, field)
    assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
    const bill = uid('bill')
    assertValidation(await api.put(`/bills/${bill}`, billRequest({ customFields: { x: '\ud83d' } })), 'customFields.x')
    assertErrorShape(await api.get(`/bills/${bill}`), 404, 'payin.resource.not.found')
  })

  test('other control characters are kept: a comment with \\u0001, \\u001f and \\u007f is accepted and answered as sent', async () => {
    const comment = 'a\u0001b\u001fc\u007fd\te'
    const r = await api.put(`/payments/${uid('pay')}`, cardPayment({ comment }))
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.comment, comment)
  })

  describe("the payment page's JSON endpoint", () => {
    let invoiceUid: string
    before(async () => {
      // an open bill: the payer types the amount
      const bill = await api.put(`/bills/${uid('bill')}`, billRequest({ amount: { currency: 'RUB' } }))
      assert.equal(bill.status, 200, bill.text)
      invoiceUid = bill.body.invoiceUid
    })
    const attempt = (over: Record<string, unknown>) =>
      request('POST', `/pay/${invoiceUid}/attempts`, {
        body: { method: 'card', pan: '4111111111111111', expiry: '12/30', cvv: '123', amount: '10.00', ...over },
      })

    test('NUL in pan or amount is 400 validation.error naming it, not a 5xx', async () => {
      const pan = await attempt({ pan: `4111111111111111${NUL}` })
      assertValidation(pan, 'pan')
      assert.ok(!pan.text.includes('4111111111111111'), pan.text)
      assertValidation(await attempt({ amount: `10${NUL}` }), 'amount')
    })

    test('NUL in a field the page does not read is refused too, and no payment is started', async () => {
      assertValidation(await attempt({ note: `x${NUL}` }), 'note')
      const [{ n }] = await sql(
        'SELECT count(*)::int AS n FROM "Payment" p JOIN "Bill" b ON b.id = p."billRef" WHERE b."invoiceUid" = $1',
        [invoiceUid],
      )
      assert.equal(n, 0)
    })
  })
})

describe('an amount with whitespace around it is 400 validation.error (plain decimal notation)', () => {
  let api: ReturnType<typeof client>
  let held: string
  let paid: string
  before(async () => {
    api = client(await newSite('spaces'))
    held = await api.newPayment(twoStepPayment())
    paid = await api.newPayment(cardPayment())
  })

  for (const value of [' 10.00', '10.00 ', '\t10', '10\n', '\u00a010.00']) {
    const label = JSON.stringify(value)
    test(`payment ${label}`, async () => {
      const id = uid('pay')
      assertValidation(await api.put(`/payments/${id}`, cardPayment({ amount: rub(value) })), 'amount.value')
      assertErrorShape(await api.get(`/payments/${id}`), 404, 'payin.resource.not.found')
    })

    test(`bill ${label}`, async () => {
      const id = uid('bill')
      assertValidation(await api.put(`/bills/${id}`, billRequest({ amount: rub(value) })), 'amount.value')
      assertErrorShape(await api.get(`/bills/${id}`), 404, 'payin.resource.not.found')
    })

    test(`capture ${label}`, async () => {
      const id = uid('cap')
      assertValidation(await api.put(`/payments/${held}/captures/${id}`, { amount: rub(value) }), 'amount.value')
      assertErrorShape(await api.get(`/payments/${held}/captures/${id}`), 404, 'payin.resource.not.found')
    })

    test(`refund ${label}`, async () => {
      const id = uid('ref')
      assertValidation(await api.put(`/payments/${paid}/refunds/${id}`, { amount: rub(value) }), 'amount.value')
      assertErrorShape(await api.get(`/payments/${paid}/refunds/${id}`), 404, 'payin.resource.not.found')
    })
  }

  test('receipt money with whitespace names the item field', async () => {
    const body = cardPayment({
      amount: rub('10.00'),
      receipt: { items: [{ name: 'Tea', price: ' 10.00', quantity: '1 ', total: '10.00' }] },
    })
    const r = await api.put(`/payments/${uid('pay')}`, body)
    assertValidation(r, 'receipt.items[0].price')
    assertValidation(r, 'receipt.items[0].quantity')
  })

  test('the captured and refunded amounts stayed 0.00', async () => {
    assert.equal((await api.paymentNow(held)).capturedAmount.value, '0.00')
    assert.equal((await api.paymentNow(paid)).refundedAmount.value, '0.00')
  })
})

/** the server log's lines carrying the trace id, once there are at least `count` of them (15 s at most) */
async function logLinesOf(traceId: string, count = 1): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 15_000
  for (;;) {
    const lines = fs
      .readFileSync(process.env.SERVER_LOG!, 'utf8')
      .split('\n')
      .filter((l) => l.includes(`"traceId":"${traceId}"`))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    if (lines.length >= count) return lines
    if (Date.now() > deadline)
      throw new Error(`${lines.length} log line(s) with trace id ${traceId}, expected ${count}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * A client that sends a request's head and the first bytes of its body, then goes away: a raw socket to
 * the test server (127.0.0.1), destroyed once the bytes are written.
 */
function abandonedBody(
  method: string,
  path: string,
  headers: Record<string, string>,
  firstBytes: string,
): Promise<void> {
  const { hostname, port, host } = new URL(BASE_URL)
  assert.equal(hostname, '127.0.0.1')
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(port) }, () => {
      const head = [
        `${method} ${path} HTTP/1.1`,
        `Host: ${host}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n')
      socket.write(head + firstBytes, (err) => {
        socket.destroy()
        if (err) reject(err)
        else resolve()
      })
    })
    socket.on('error', reject)
  })
}

describe('a client that goes away in the middle of its body is logged as 499, not as an error', () => {
  let api: ReturnType<typeof client>
  let invoiceUid: string
  before(async () => {
    api = client(await newSite('aborts'))
    invoiceUid = (await api.put(`/bills/${uid('bill')}`, billRequest())).body.invoiceUid
  })

  const json = () => ({ 'Content-Type': 'application/json', Authorization: `Bearer ${api.site.token}` })
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' }
  // under the 64 KiB limit: a declared length over it is answered 413 before any byte is read
  const partial = (headers: Record<string, string>, first: string) => ({
    headers: { ...headers, 'Content-Length': '60000' },
    first,
  })
  const chunked = (headers: Record<string, string>, first: string) => ({
    headers: { ...headers, 'Transfer-Encoding': 'chunked' },
    first: `${first.length.toString(16)}\r\n${first}\r\n`,
  })

  const cases: [string, string, () => string, () => { headers: Record<string, string>; first: string }][] = [
    [
      'API payment PUT, Content-Length',
      'PUT',
      () => `/api/sites/${api.site.siteId}/payments/${uid('pay')}`,
      () => partial(json(), '{"amount":'),
    ],
    [
      'API payment PUT, chunked',
      'PUT',
      () => `/api/sites/${api.site.siteId}/payments/${uid('pay')}`,
      () => chunked(json(), '{"amount":'),
    ],
    [
      'payment page attempt, Content-Length',
      'POST',
      () => `/pay/${invoiceUid}/attempts`,
      () => partial({ 'Content-Type': 'application/json' }, '{"method":'),
    ],
    [
      '3-D Secure return (TermUrl), Content-Length',
      'POST',
      () => `/pay/${invoiceUid}/3ds-return`,
      () => partial(form, 'PaRes=abc&'),
    ],
    [
      '3-D Secure return (TermUrl), chunked',
      'POST',
      () => `/pay/${invoiceUid}/3ds-return`,
      () => chunked(form, 'PaRes=abc&'),
    ],
    ['access-control page, Content-Length', 'POST', () => '/acs', () => partial(form, 'PaReq=abc&')],
    ['access-control page, chunked', 'POST', () => '/acs', () => chunked(form, 'PaReq=abc&')],
    ['access-control result, Content-Length', 'POST', () => '/acs/result', () => partial(form, 'result=pass&')],
  ]
  for (const [what, method, path, body] of cases) {
    test(what, async () => {
      const traceId = newTraceId()
      const { headers, first } = body()
      await abandonedBody(method, path(), { ...headers, 'X-Trace-Id': traceId }, first)
      const [line] = await logLinesOf(traceId)
      assert.notEqual(line.level, 'error', JSON.stringify(line))
      assert.equal(line.status, 499, JSON.stringify(line))
      assert.equal(line.aborted, true, JSON.stringify(line))
      assert.equal(line.error, undefined, JSON.stringify(line))
      assert.equal(typeof line.requestId, 'string', JSON.stringify(line))
    })
  }
})

describe("every log line carries a request id of its own, beside the client's trace id", () => {
  test('two API requests sending the same X-Trace-Id: the same traceId, different request ids (also in X-Request-Id)', async () => {
    const traceId = newTraceId()
    const answers = await Promise.all(
      [1, 2].map(() =>
        request('GET', `/api/sites/nobody/payments/${uid('pay')}`, { headers: { 'X-Trace-Id': traceId } }),
      ),
    )
    for (const a of answers) {
      assert.equal(a.headers.get('x-trace-id'), traceId)
      assert.match(a.headers.get('x-request-id') ?? '', /^[0-9a-z]{16,}$/)
    }
    const lines = await logLinesOf(traceId, 2)
    assert.equal(lines.length, 2, JSON.stringify(lines))
    const ids = lines.map((l) => l.requestId)
    for (const id of ids) assert.match(String(id), /^[0-9a-z]{16,}$/)
    assert.notEqual(ids[0], ids[1])
    assert.deepEqual(new Set(ids), new Set(answers.map((a) => a.headers.get('x-request-id'))))
  })

  test('the 3-D Secure return and the access-control pages log their trace id and a request id, and answer both', async () => {
    const site = client(await newSite('ids'))
    const invoiceUid = (await site.put(`/bills/${uid('bill')}`, billRequest())).body.invoiceUid
    for (const path of [`/pay/${invoiceUid}/3ds-return`, '/acs', '/acs/result']) {
      const traceId = newTraceId()
      const send = () =>
        fetch(`${BASE_URL}${path}`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Trace-Id': traceId },
          body: 'PaRes=x&PaReq=x&MD=x',
        }).then(async (res) => (await res.arrayBuffer(), res))
      const answers = [await send(), await send()]
      for (const res of answers) assert.equal(res.headers.get('x-trace-id'), traceId, path)
      const lines = await logLinesOf(traceId, 2)
      assert.equal(lines.length, 2, `${path}: ${JSON.stringify(lines)}`)
      // a bill's UUID may hold a digit run that the log's card-number mask hides
      assert.equal(lines[0].path, redact(path))
      assert.ok(
        lines.every((l) => typeof l.status === 'number' && l.level === 'info'),
        JSON.stringify(lines),
      )
      assert.notEqual(lines[0].requestId, lines[1].requestId, path)
      assert.deepEqual(
        new Set(lines.map((l) => l.requestId)),
        new Set(answers.map((a) => a.headers.get('x-request-id'))),
        path,
      )
    }
  })

  test('an answer of the front door (a bare prefix, a malformed path) carries and logs a request id', async () => {
    for (const path of ['/api', '/api/sites/x/payments/%zz']) {
      const r = await request('GET', path)
      assert.ok(r.status === 404 || r.status === 400, `${path}: ${r.text}`)
      const requestId = r.headers.get('x-request-id')
      assert.match(requestId ?? '', /^[0-9a-z]{16,}$/, path)
      const [line] = await logLinesOf(r.headers.get('x-trace-id')!)
      assert.equal(line.kind, 'front-door')
      assert.equal(line.requestId, requestId)
    }
  })

  test('a page request is logged with a request id', async () => {
    const res = await fetch(`${BASE_URL}/pay/${crypto.randomUUID()}`)
    await res.arrayBuffer()
    const [line] = await logLinesOf(res.headers.get('x-trace-id')!)
    assert.equal(line.kind, 'page')
    assert.match(String(line.requestId), /^[0-9a-z]{16,}$/)
  })
})
