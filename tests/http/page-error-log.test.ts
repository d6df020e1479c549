// A page that fails while it renders (issue 26): answered 500 with its X-Trace-Id and X-Request-Id, and
// logged as one JSON line (level error) carrying both, the path and the failure, with any card number
// masked; nothing in the server's log holds the card number. The failure is real: a bill row no page can
// show (its currency, written behind the service's back, is text no formatter takes: a card number), on
// the dashboard's bills list (app router) and on the bill's payment page (pages router). A redirect or a
// page not found is no failure.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { billRequest, BASE_URL, client, newSite, uid } from '../support/api.ts'
import { dashboardPage, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'
import { redact } from '../../lib/log/log-line.ts'

const PAN = '4111111111111111'
const REQUEST_ID = /^[0-9a-f]{20}$/

/** the server log's JSON lines carrying the request id, once one of them has level `error` (`ms` at most) */
async function linesOf(requestId: string, ms = 10_000): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + ms
  for (;;) {
    const lines = fs
      .readFileSync(process.env.SERVER_LOG!, 'utf8')
      .split('\n')
      .filter((l) => l.includes(requestId))
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>
        } catch {
          return assert.fail(`a log line with the request id is not JSON: ${l}`)
        }
      })
    if (lines.some((l) => l.level === 'error') || Date.now() > deadline) return lines
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('a page that fails while it renders', () => {
  let site: { siteId: string; token: string }
  let billId: string
  let invoiceUid: string

  before(async () => {
    site = await newSite('page-error')
    billId = uid('unshowable')
    const made = await client(site).put(`/bills/${billId}`, billRequest())
    assert.equal(made.status, 200, made.text)
    invoiceUid = made.body.invoiceUid
    await sql(`UPDATE "Bill" SET currency = $1 WHERE "siteId" = $2 AND "billId" = $3`, [PAN, site.siteId, billId])
  })
  // no card number stays in the database (tests/after/no-card-data.test.ts reads every row)
  after(() => sql(`DELETE FROM "Bill" WHERE "siteId" = $1`, [site.siteId]))

  /** the page answers 500 with its ids, and its error line carries them */
  async function assertLogged(res: Response, path: string) {
    await res.arrayBuffer()
    assert.equal(res.status, 500, `${path}: ${res.status}`)
    const requestId = res.headers.get('x-request-id') ?? ''
    const traceId = res.headers.get('x-trace-id') ?? ''
    assert.match(requestId, REQUEST_ID, `${path}: X-Request-Id`)
    const lines = await linesOf(requestId)
    const errors = lines.filter((l) => l.level === 'error')
    assert.equal(errors.length, 1, `${path}: one error line with the request id, not ${JSON.stringify(lines)}`)
    const [line] = errors
    assert.equal(line.requestId, requestId)
    assert.equal(line.traceId, traceId)
    assert.equal(line.path, path)
    assert.equal(line.method, 'GET')
    assert.equal(line.kind, 'page')
    assert.match(String(line.error), /Invalid currency code/)
    // the card number in the failure's message is masked
    assert.match(String(line.error), /\[redacted\]/)
  }

  test('a dashboard page: 500, one JSON error line with its request id', async () => {
    const res = await dashboardPage(await signIn(site), '/dashboard/bills')
    await assertLogged(res, '/dashboard/bills')
  })

  test('the payment page: 500, one JSON error line with its request id', async () => {
    const res = await fetch(`${BASE_URL}/pay/${invoiceUid}`)
    // a bill's UUID may hold a digit run that the log's card-number mask hides
    await assertLogged(res, redact(`/pay/${invoiceUid}`))
  })

  test('a redirect to sign in and a page not found are no failures: no error line', async () => {
    const session = await signIn(site)
    const answers: [Response, number[]][] = [
      [await fetch(`${BASE_URL}/dashboard/bills`, { redirect: 'manual' }), [303, 307, 308]],
      [await dashboardPage(session, `/dashboard/bills/${uid('none')}`), [404]],
      [await dashboardPage(session, `/dashboard/payments/${uid('none')}`), [404]],
      [await fetch(`${BASE_URL}/pay/${crypto.randomUUID()}`), [404]],
    ]
    for (const [res, statuses] of answers) {
      await res.arrayBuffer()
      assert.ok(statuses.includes(res.status), `${res.url}: ${res.status}`)
      const requestId = res.headers.get('x-request-id') ?? ''
      assert.match(requestId, REQUEST_ID, res.url)
      // the page's request line is written as it arrives: a failure's line would follow within the answer
      const lines = await linesOf(requestId, 300)
      assert.deepEqual(
        lines.map((l) => [l.level, l.kind]),
        [['info', 'page']],
        res.url,
      )
    }
  })

  test('no card number anywhere in the server log', () => {
    assert.equal(fs.readFileSync(process.env.SERVER_LOG!, 'utf8').includes(PAN), false)
  })
})
