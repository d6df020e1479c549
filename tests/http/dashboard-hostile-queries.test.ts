// The dashboard's lists under hostile query parameters (issue 26): a cursor that does not decode to an
// instant PostgreSQL can store (year 0, negative years, ±200000, JavaScript's own limits, forms that are
// no instant, garbage) is ignored: the first page, never a 500; a search holding a NUL or another
// control character is not run, and the page says so; lone surrogates, very long values, repeated
// parameters and unknown statuses are harmless too. On the payments, bills and notifications lists.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { billRequest, cardPayment, client, newSite, uid } from '../support/api.ts'
import { dashboardPage, signIn } from '../support/dashboard.ts'

/** a cursor as the lists write one (base64url of [createdAt, id]), holding what the test chooses */
const cursorOf = (at: unknown, id: unknown = randomUUID()) =>
  Buffer.from(JSON.stringify([at, id])).toString('base64url')

/** `after` values, as sent in the query (percent-encoded where they need it) */
const HOSTILE_CURSORS: [string, string][] = [
  ['year 0', cursorOf('0000-01-01T00:00:00.000Z')],
  ['a negative year', cursorOf('-000001-01-01T00:00:00.000Z')],
  ['year +200000', cursorOf('+200000-01-01T00:00:00.000Z')],
  ['year -200000', cursorOf('-200000-01-01T00:00:00.000Z')],
  ['the last instant JavaScript has', cursorOf('+275760-09-13T00:00:00.000Z')],
  ['the first instant JavaScript has', cursorOf('-271821-04-20T00:00:00.000Z')],
  ['year 10000', cursorOf('+010000-01-01T00:00:00.000Z')],
  ['a date JavaScript reads leniently', cursorOf('1 January 200000')],
  ['a number', cursorOf(-8.64e15)],
  ['a date with a NUL', cursorOf('2026-01-01T00:00:00.000Z\u0000')],
  ['an id that is no UUID', cursorOf('2026-01-01T00:00:00.000Z', 'x\u0000')],
  ['garbage base64', encodeURIComponent('!!!!@@@@####')],
  ['base64 of no JSON', Buffer.from('not json at all').toString('base64url')],
  ['base64 of null', Buffer.from('null').toString('base64url')],
  ['base64 of an object', Buffer.from('{"0":"2026-01-01T00:00:00.000Z"}').toString('base64url')],
  ['a NUL', '%00'],
  ['a lone surrogate (UTF-8)', '%ED%A0%80'],
  ['a lone surrogate (%u)', '%uD800'],
  ['a very long value', 'A'.repeat(8000)],
  [
    'two values, the first hostile',
    `${cursorOf('+200000-01-01T00:00:00.000Z')}&after=${cursorOf('2026-01-01T00:00:00.000Z')}`,
  ],
]

/** search values with a character no search can hold: not run, and the page says so */
const CONTROL_SEARCHES: [string, string][] = [
  ['a NUL', '%00'],
  ['a NUL inside', 'pay%00x'],
  ['a bell', '%07'],
  ['an escape sequence', '%1B%5B31m'],
  ['DEL', '%7F'],
  ['a C1 control (NEL)', '%C2%85'],
  ['a line break inside', 'a%0D%0Ab'],
  ['a NUL, then a second value', '%00&q=x'],
]

/** other odd searches: run (they match nothing), never a 500 */
const ODD_SEARCHES: [string, string][] = [
  ['a lone surrogate (UTF-8)', '%ED%A0%80'],
  ['a lone surrogate (%u)', '%uD800'],
  ['malformed percent-encoding', '%E0%A4%A'],
  ['an emoji', '%F0%9F%98%80'],
  ['a very long value', 'x'.repeat(8000)],
  ['quotes and a backslash', `%27%22%5C`],
  // the first of two values is the search
  ['a NUL in the second of two values', 'x&q=%00'],
  // around the text, pasted with it: trimmed
  ['a line break at the end', 'x%0D%0A'],
]

const STATUSES: [string, string][] = [
  ['a NUL', '%00'],
  ['an unknown status', 'BOGUS'],
  ['a known status with a NUL', 'COMPLETED%00'],
  ['lower case', 'completed'],
  ['two values', 'COMPLETED&status=%00'],
  ['a very long value', 'S'.repeat(8000)],
]

/** the notice of a search that was not run */
const REFUSED = /role="alert"[^>]*>[^<]*control character/

describe('dashboard lists under hostile query parameters', () => {
  let session: string
  let paymentId: string
  let billId: string

  before(async () => {
    const site = await newSite('dash-hostile')
    const api = client(site)
    billId = uid('bill')
    assert.equal((await api.put(`/bills/${billId}`, billRequest())).status, 200)
    // a payment whose callback URL gets a notification (the suite's server delivers none: it stays listed)
    paymentId = await api.newPayment(cardPayment({ callbackUrl: 'https://shop.example.com/hook' }))
    session = await signIn(site)
  })

  /** the page at `path?query`: 200, and the first page's row (`expect`) shown */
  async function firstPage(path: string, query: string, expect: () => string): Promise<string> {
    const res = await dashboardPage(session, `${path}?${query}`)
    const html = await res.text()
    assert.equal(res.status, 200, `${path}?${query.slice(0, 120)}: ${res.status}`)
    assert.ok(html.includes(expect()), `${path}?${query.slice(0, 120)}: the first page's row is not shown`)
    return html
  }

  const LISTS: [string, () => string][] = [
    ['/dashboard/payments', () => paymentId],
    ['/dashboard/bills', () => billId],
    // the notification of the payment: its resource is the payment
    ['/dashboard/notifications', () => paymentId],
  ]

  for (const [path, row] of LISTS) {
    test(`${path}: a cursor that decodes to nothing storable is ignored (the first page)`, async () => {
      for (const [what, after] of HOSTILE_CURSORS) {
        await firstPage(path, `after=${after}`, row).catch((e) => assert.fail(`${what}: ${(e as Error).message}`))
      }
    })
  }

  test('/dashboard/payments: a search with a control character is not run, and the page says so', async () => {
    for (const [what, q] of CONTROL_SEARCHES) {
      const html = await firstPage('/dashboard/payments', `q=${q}`, () => paymentId).catch((e) =>
        assert.fail(`${what}: ${(e as Error).message}`),
      )
      assert.match(html, REFUSED, `${what}: no notice`)
      // nothing of the control characters is written back into the page
      assert.doesNotMatch(
        html,
        // eslint-disable-next-line no-control-regex -- control characters are what it looks for
        /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/,
        `${what}: a control character in the page`,
      )
    }
    // with the other parameters too: a hostile cursor, a status
    await firstPage(
      '/dashboard/payments',
      `q=%00&status=COMPLETED&after=${cursorOf('-200000-01-01T00:00:00.000Z')}`,
      () => paymentId,
    )
  })

  test('/dashboard/payments: other odd searches and statuses answer 200, never a 500', async () => {
    for (const [what, q] of ODD_SEARCHES) {
      const res = await dashboardPage(session, `/dashboard/payments?q=${q}`)
      const html = await res.text()
      assert.equal(res.status, 200, `${what}: ${res.status}`)
      assert.doesNotMatch(html, REFUSED, `${what}: refused`)
    }
    for (const [what, status] of STATUSES) {
      // an unknown status is no filter: the first page
      await firstPage('/dashboard/payments', `status=${status}`, () => paymentId).catch((e) =>
        assert.fail(`${what}: ${(e as Error).message}`),
      )
    }
    // the search still finds the payment by its id
    await firstPage('/dashboard/payments', `q=${encodeURIComponent(paymentId)}`, () => paymentId)
  })
})
