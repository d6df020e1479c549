// The payment page's endpoints under hostile use: they reach only the attempts the page made (by an
// unguessable key, never by paymentId); a paid or expired bill takes no attempt; a streak of failed
// attempts pauses a bill; a client making many attempts across bills is slowed down (every instance
// counts in PostgreSQL).
import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import fs from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { BASE_URL, billRequest, cardPayment, client, newSite, request, rub, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { siteOk } from '../support/site-command.ts'

// the address the proxy saw (X-Forwarded-For's last entry, TRUSTED_PROXY_HOPS=1) of each client below: a
// documentation address of its own, never another's (two clients drawn at random could share one, and its window:
// a 429 the test did not expect). Only a header: no connection goes there.
const CLIENT_ADDRESSES = ['192.0.2', '198.51.100', '203.0.113'].flatMap((net) =>
  Array.from({ length: 254 }, (_, i) => `${net}.${i + 1}`),
)
let nextClient = randomInt(0, CLIENT_ADDRESSES.length)
const newClient = () => CLIENT_ADDRESSES[nextClient++ % CLIENT_ADDRESSES.length]

const DECLINE = '4000000000000002'
const THREE_DS = '4000000000003220'
const CODE_CARD = '4000000000001000'
const card = (pan: string) => ({ method: 'card', pan, expiry: '12/30', cvv: '123' })

let api: ReturnType<typeof client>
before(async () => {
  api = client(await newSite('page-attempts'))
})

async function newBill(over: Record<string, unknown> = {}) {
  const billId = uid('bill')
  const r = await api.put(`/bills/${billId}`, billRequest(over))
  assert.equal(r.status, 200, r.text)
  return { billId, invoiceUid: r.body.invoiceUid as string }
}

const attempt = (invoiceUid: string, body: unknown, opts: { base?: string; headers?: Record<string, string> } = {}) =>
  request('POST', `/pay/${invoiceUid}/attempts`, { body, ...opts })

const paymentsOf = async (billId: string) =>
  sql<{
    paymentId: string
    status: string
    statusReason: string | null
    otpAttempts: number
    pageAttemptKey: string | null
  }>(
    `SELECT "paymentId", status, "statusReason", "otpAttempts", "pageAttemptKey" FROM "Payment" WHERE "billId" = $1 ORDER BY "createdAt"`,
    [billId],
  )

describe('attempts are addressed by a key only the page has', () => {
  test("a payment the merchant made through the API on the bill is out of the page's reach", async () => {
    const bill = await newBill()
    const codePay = uid('pay')
    const threeDSPay = uid('pay')
    assert.equal(
      (
        await api.put(
          `/payments/${codePay}`,
          cardPayment({ billId: bill.billId, amount: rub('3.00') }, { pan: CODE_CARD }),
        )
      ).body.status.value,
      'WAITING',
    )
    const challenged = await api.put(
      `/payments/${threeDSPay}`,
      cardPayment({ billId: bill.billId, amount: rub('3.00') }, { pan: THREE_DS }),
    )
    assert.ok(challenged.body.requirements?.threeDS?.pareq)

    for (const id of [codePay, threeDSPay]) {
      // its status (and PaReq) is not readable through the page
      const read = await request('GET', `/pay/${bill.invoiceUid}/attempts/${encodeURIComponent(id)}`)
      assert.equal(read.status, 404, read.text)
      assert.ok(!read.text.includes('pareq'), 'no PaReq leaks')
      // its code attempts cannot be burnt
      for (let i = 0; i < 3; i++)
        assert.equal(
          (
            await request('POST', `/pay/${bill.invoiceUid}/attempts/${encodeURIComponent(id)}/code`, {
              body: { code: '0000' },
            })
          ).status,
          404,
        )
      // its 3-D Secure cannot be failed through the page's TermUrl
      const back = await fetch(`${BASE_URL}/pay/${bill.invoiceUid}/3ds-return`, {
        method: 'POST',
        body: new URLSearchParams({ PaRes: 'forged', MD: id }),
        redirect: 'manual',
      })
      assert.equal(back.status, 303)
    }
    const rows = await paymentsOf(bill.billId)
    assert.deepEqual(
      rows.map((p) => [p.paymentId, p.status, p.otpAttempts]),
      [
        [codePay, 'WAITING', 0],
        [threeDSPay, 'WAITING', 0],
      ],
    )
    // the merchant's payments are still finished by the merchant
    const done = await api.post(`/payments/${codePay}/complete`, { otp: { code: '1234' } })
    assert.equal(done.body.status.value, 'COMPLETED', done.text)
  })

  test("the page's own attempt answers to its key, which is not its paymentId", async () => {
    const bill = await newBill()
    const first = await attempt(bill.invoiceUid, card(THREE_DS))
    assert.equal(first.status, 200, first.text)
    assert.equal(first.body.kind, 'threeDS')
    const key = first.body.md as string
    assert.match(key, /^[A-Za-z0-9_-]{32}$/)
    const [row] = await paymentsOf(bill.billId)
    assert.notEqual(row.paymentId, key)
    assert.notEqual(row.pageAttemptKey, key, 'only a hash of the key is stored')
    const again = await request('GET', `/pay/${bill.invoiceUid}/attempts/${key}`)
    assert.equal(again.status, 200)
    assert.equal(again.body.kind, 'threeDS')
    // the key opens a live attempt: the server log names the request, never the key
    const log = fs.readFileSync(process.env.SERVER_LOG!, 'utf8')
    const line = log.split('\n').find((l) => l.includes(again.headers.get('x-request-id')!))
    assert.ok(line, 'the read is logged')
    assert.match(JSON.parse(line).path, /\/attempts\/\[key\]$/)
    assert.ok(!log.includes(key), 'no attempt key in the log')
    // the paymentId itself opens nothing; nor does the key on another bill
    assert.equal((await request('GET', `/pay/${bill.invoiceUid}/attempts/${row.paymentId}`)).status, 404)
    const other = await newBill()
    assert.equal((await request('GET', `/pay/${other.invoiceUid}/attempts/${key}`)).status, 404)

    const code = await attempt(bill.invoiceUid, card(CODE_CARD))
    assert.equal(code.body.kind, 'otp')
    assert.match(code.body.attemptId, /^[A-Za-z0-9_-]{32}$/)
    const wrong = await request('POST', `/pay/${bill.invoiceUid}/attempts/${code.body.attemptId}/code`, {
      body: { code: '0000' },
    })
    assert.equal(wrong.status, 400)
    assert.deepEqual(wrong.body.cause, { code: ['code.wrong:2'] })
  })
})

describe('a paid or expired bill takes no attempt', () => {
  test('a PAID bill answers with its page and writes no payment', async () => {
    const bill = await newBill()
    const paid = await attempt(bill.invoiceUid, card('4111111111111111'))
    assert.equal(paid.body.kind, 'redirect')
    for (const pan of ['4111111111111111', DECLINE]) {
      const r = await attempt(bill.invoiceUid, card(pan))
      assert.equal(r.status, 200, r.text)
      assert.deepEqual(r.body, { kind: 'redirect', url: `/pay/${bill.invoiceUid}` })
    }
    const rows = await paymentsOf(bill.billId)
    assert.deepEqual(
      rows.map((p) => p.status),
      ['COMPLETED'],
    )
  })

  test('an EXPIRED bill (deadline passed, not yet written by the scheduler) answers with its page and writes no payment', async () => {
    const bill = await newBill()
    await sql(`UPDATE "Bill" SET "expiresAt" = now() - interval '1 second' WHERE "billId" = $1`, [bill.billId])
    const r = await attempt(bill.invoiceUid, card('4111111111111111'))
    assert.deepEqual(r.body, { kind: 'redirect', url: `/pay/${bill.invoiceUid}` })
    assert.equal((await paymentsOf(bill.billId)).length, 0)
  })

  test('20 parallel attempts on one bill: one pays, the others are sent to the paid page, none written as declined', async () => {
    const bill = await newBill({ successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed' })
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => attempt(bill.invoiceUid, card('4111111111111111'))),
    )
    for (const a of answers) assert.equal(a.status, 200, a.text)
    const urls = answers.map((a) => a.body.url as string)
    assert.equal(urls.filter((u) => u.startsWith('https://shop.example/ok?')).length, 1, urls.join('\n'))
    assert.equal(urls.filter((u) => u === `/pay/${bill.invoiceUid}`).length, 19)
    assert.ok(!urls.some((u) => u.includes('failed')))
    assert.deepEqual(
      (await paymentsOf(bill.billId)).map((p) => p.status),
      ['COMPLETED'],
    )
  })

  test('an attempt still waiting when another one pays the bill ends on the paid page, not at failedUrl; its codes are not counted', async () => {
    const bill = await newBill({ failedUrl: 'https://shop.example/failed' })
    const slow = await attempt(bill.invoiceUid, card(CODE_CARD))
    assert.equal(slow.body.kind, 'otp')
    assert.equal((await attempt(bill.invoiceUid, card('4111111111111111'))).body.kind, 'redirect')
    for (const code of ['0000', '0000', '0000', '1234']) {
      const late = await request('POST', `/pay/${bill.invoiceUid}/attempts/${slow.body.attemptId}/code`, {
        body: { code },
      })
      assert.equal(late.status, 200, late.text)
      assert.deepEqual(late.body, { kind: 'redirect', url: `/pay/${bill.invoiceUid}` })
    }
    const read = await request('GET', `/pay/${bill.invoiceUid}/attempts/${slow.body.attemptId}`)
    assert.deepEqual(read.body, { kind: 'redirect', url: `/pay/${bill.invoiceUid}` })
    assert.deepEqual(
      (await paymentsOf(bill.billId)).map((p) => [p.status, p.otpAttempts]),
      [
        ['WAITING', 0],
        ['COMPLETED', 0],
      ],
    )
  })

  test('a 3-D Secure attempt failed after another one paid the bill goes back to the paid page, not to failedUrl', async () => {
    const bill = await newBill({ failedUrl: 'https://shop.example/failed' })
    const slow = await attempt(bill.invoiceUid, card(THREE_DS))
    assert.equal(slow.body.kind, 'threeDS')
    assert.equal((await attempt(bill.invoiceUid, card('4111111111111111'))).body.kind, 'redirect')
    // the payer's browser at the emulated access-control page: "Fail authentication"
    const fields = { PaReq: slow.body.pareq, MD: slow.body.md, TermUrl: slow.body.termUrl }
    const challenge = await (
      await fetch(slow.body.acsUrl, { method: 'POST', body: new URLSearchParams(fields) })
    ).text()
    const action = new URL(/action="([^"]+)"/.exec(challenge)![1], slow.body.acsUrl).href
    const result = await (
      await fetch(action, { method: 'POST', body: new URLSearchParams({ ...fields, result: 'fail' }) })
    ).text()
    const value = (name: string) =>
      new RegExp(`name="${name}" value="([^"]*)"`)
        .exec(result)![1]
        .replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)))
    const back = await fetch(`${BASE_URL}/pay/${bill.invoiceUid}/3ds-return`, {
      method: 'POST',
      body: new URLSearchParams({ PaRes: value('PaRes'), MD: value('MD') }),
      redirect: 'manual',
    })
    assert.equal(back.status, 303)
    assert.equal(back.headers.get('location'), `/pay/${bill.invoiceUid}`)
  })
})

describe('a streak of failed attempts pauses the bill', () => {
  test('5 declines in a row: the 6th attempt is refused with when to retry, and writes nothing; other bills go on', async () => {
    const bill = await newBill()
    for (let i = 0; i < 5; i++) {
      const r = await attempt(bill.invoiceUid, card(DECLINE))
      assert.equal(r.status, 200, r.text)
      assert.equal(r.body.kind, 'declined')
    }
    const refused = await attempt(bill.invoiceUid, card('4111111111111111'))
    assert.equal(refused.status, 429, refused.text)
    assert.equal(refused.body.errorCode, 'rate.limit.exceeded')
    const [message] = refused.body.cause.bill
    const seconds = Number(/^bill\.paused:(\d+)$/.exec(message)?.[1])
    assert.ok(seconds > 590 && seconds <= 600, message)
    assert.equal(refused.headers.get('retry-after'), String(seconds))
    assert.equal((await paymentsOf(bill.billId)).length, 5)

    const other = await newBill()
    assert.equal((await attempt(other.invoiceUid, card('4111111111111111'))).body.kind, 'redirect')

    // the pause is over (stored time moved back): one more attempt is taken; failing, it pauses the bill again
    await sql(`UPDATE "Payment" SET "createdAt" = "createdAt" - interval '11 minutes' WHERE "billId" = $1`, [
      bill.billId,
    ])
    assert.equal((await attempt(bill.invoiceUid, card(DECLINE))).body.kind, 'declined')
    assert.equal((await attempt(bill.invoiceUid, card('4111111111111111'))).status, 429)
    assert.equal((await paymentsOf(bill.billId)).length, 6)
  })

  test('30 parallel declining attempts on one bill: exactly 5 are taken', async () => {
    const bill = await newBill()
    const answers = await Promise.all(Array.from({ length: 30 }, () => attempt(bill.invoiceUid, card(DECLINE))))
    assert.deepEqual(answers.map((a) => a.status).sort(), [...Array(5).fill(200), ...Array(25).fill(429)])
    assert.equal((await paymentsOf(bill.billId)).length, 5)
  })
})

describe('a client making many attempts across bills is slowed down', () => {
  let instance: Instance
  before(async () => {
    // an instance of its own behind a "proxy" (this test) that names the client, with a small limit
    instance = await startInstance(Number(new URL(BASE_URL).port) + 80, {
      PAGE_CLIENT_ATTEMPTS: '4',
      // windows start at multiples of their length since 1970: 10⁹ s, so that the test never straddles two
      PAGE_CLIENT_WINDOW_SECONDS: '1000000000',
      TRUSTED_PROXY_HOPS: '1',
      NOTIFICATIONS_WORKER: 'off',
      SCHEDULER: 'off',
    })
  })
  after(() => instance?.kill('SIGTERM'))

  test("links without the API: the 5th new bill of one address within the window is a 429 page; another's is made", async () => {
    const site = await newSite('link-limit')
    const key = (await siteOk(['public-key', site.siteId])).trim().split('\n').at(-1)!
    const payer = `198.51.100.${randomInt(1, 255)}, ${newClient()}`
    const open = (xff: string, query = '') =>
      fetch(`${instance.base}/create?publicKey=${key}&amount=1.00${query}`, {
        redirect: 'manual',
        headers: { 'X-Forwarded-For': xff, 'Accept-Language': 'en' },
      })
    for (let i = 0; i < 4; i++) assert.equal((await open(payer)).status, 303)
    const refused = await open(payer)
    assert.equal(refused.status, 429)
    assert.ok(Number(refused.headers.get('retry-after')) >= 1)
    assert.match(await refused.text(), /Too many new bills/)
    const bills = await sql(`SELECT id FROM "Bill" WHERE "siteId" = $1`, [site.siteId])
    assert.equal(bills.length, 4, 'the refused opening made no bill')
    // reopening a link's bill makes none: not counted
    const first = await open(`198.51.100.7, ${newClient()}`, '&billId=link-order-1')
    assert.equal(first.status, 303)
    assert.equal((await open(payer, '&billId=link-order-1')).status, 303)
    // another client is served
    assert.equal((await open(`192.0.2.1, ${newClient()}`)).status, 303)
  })

  test('the 5th attempt of one address within the window is refused, on a bill of its own; another address is not', async () => {
    // documentation addresses: only a header, no connection goes there
    const payer = `198.51.100.${randomInt(1, 255)}, ${newClient()}`
    const from = (xff: string) => ({ base: instance.base, headers: { 'X-Forwarded-For': xff } })
    const bills = await Promise.all(Array.from({ length: 5 }, () => newBill()))
    for (const b of bills.slice(0, 4))
      assert.equal((await attempt(b.invoiceUid, card(DECLINE), from(payer))).status, 200)
    const refused = await attempt(bills[4].invoiceUid, card(DECLINE), from(payer))
    assert.equal(refused.status, 429, refused.text)
    const [message] = refused.body.cause.client
    const seconds = Number(/^client\.slowed:(\d+)$/.exec(message)?.[1])
    assert.ok(seconds >= 1 && seconds <= 1e9, message)
    assert.equal(refused.headers.get('retry-after'), String(seconds))
    assert.equal((await paymentsOf(bills[4].billId)).length, 0)
    // what the client itself wrote left of the proxy's entry does not choose the address
    const spoofed = `10.9.8.7, ${payer.split(', ')[1]}`
    assert.equal((await attempt(bills[4].invoiceUid, card(DECLINE), from(spoofed))).status, 429)
    // nor does a header of the front door's own name sent by the client
    const named = { base: instance.base, headers: { 'X-Forwarded-For': payer, 'X-Payin-Client-Address': '192.0.2.99' } }
    assert.equal((await attempt(bills[4].invoiceUid, card(DECLINE), named)).status, 429)
    // another client is served
    const another = `198.51.100.${randomInt(1, 255)}, ${newClient()}`
    assert.equal((await attempt(bills[4].invoiceUid, card(DECLINE), from(another))).status, 200)
  })
})
