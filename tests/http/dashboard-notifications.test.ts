// The dashboard's Notifications over HTTP: the list (newest first, by cursor, only the session's site)
// and a delivery's page (every attempt, the body exactly as posted); "Resend" through the dashboard's
// endpoint queues a notification as the API's re-send does (the API reads it back PENDING, due now),
// refuses as it does (a delivery under way: 409; another site's: 404), and is written to the audit log;
// no session is a 401, another origin a 403. Deliveries are made by the worker of an instance started
// here (the suite's server runs none), to a receiver on loopback.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { BASE_URL, cardPayment, client, newSite, request, rub, twoStepPayment, uid } from '../support/api.ts'
import { asSession, assertError, dashboardPage, post, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { receiver } from '../support/notification-receiver.ts'
import { CLAIM_LOCK, notifyTo, WORKER_ENV } from '../support/notify-site.ts'

/** what `check` answers once it is truthy (asked again every 100 ms, up to `ms`) */
async function until<T>(check: () => Promise<T>, what: string, ms = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await check()
    if (v) return v as NonNullable<T>
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** the text of a page's element as the browser shows it (React escapes & < > " ') */
const unescapeHtml = (s: string) =>
  s.replace(
    /&(quot|amp|lt|gt|#x27|#39);/g,
    (_, e: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#x27': "'", '#39': "'" })[e]!,
  )

const resendPath = (id: string) => `/dashboard/actions/notifications/${id}/resend`

describe('dashboard: notifications', () => {
  const rx = receiver()
  let hook: string
  let worker: Instance
  let mine: { siteId: string; token: string }
  let theirs: { siteId: string; token: string }
  let api: ReturnType<typeof client>
  let session: string
  let paid: string
  let held: string
  let capture: string
  let theirPayment: string

  /** the API's view of the site's notification of a resource */
  const viewOf = async (resourceId: string, of = api) =>
    ((await of.get('/notifications')).body as any[]).find((n) => n.resourceId === resourceId)
  /** the API's view once its latest attempt is recorded, delivered */
  const delivered = (resourceId: string, attempts = 1, of = api) =>
    until(async () => {
      const n = await viewOf(resourceId, of)
      return n?.state === 'DELIVERED' && n.attemptLog.length >= attempts ? n : null
    }, `${resourceId} delivered`)
  const posts = (siteId: string, id: string) =>
    rx.got.filter((g) => g.path === `/${siteId}` && g.body.includes(`"${id}"`))

  before(async () => {
    hook = await rx.start()
    // one after the other: newSite closes the database pool it opened
    mine = await newSite('dash-notif')
    theirs = await newSite('dash-notif-theirs')
    await notifyTo(mine.siteId, `${hook}/${mine.siteId}`)
    await notifyTo(theirs.siteId, `${hook}/${theirs.siteId}`)
    worker = await startInstance(Number(new URL(BASE_URL).port) + 130, WORKER_ENV)
    api = client(mine)
    paid = uid('paid')
    assert.equal((await api.put(`/payments/${paid}`, cardPayment({ amount: rub('60.50') }))).status, 200)
    held = uid('held')
    assert.equal((await api.put(`/payments/${held}`, twoStepPayment({ amount: rub('30.00') }))).status, 200)
    capture = uid('cap')
    assert.equal((await api.put(`/payments/${held}/captures/${capture}`, { amount: rub('30.00') })).status, 200)
    theirPayment = uid('theirs')
    assert.equal((await client(theirs).put(`/payments/${theirPayment}`, cardPayment())).status, 200)
    await Promise.all([
      delivered(paid),
      delivered(held),
      delivered(capture),
      delivered(theirPayment, 1, client(theirs)),
    ])
    session = await signIn(mine)
  })
  after(async () => {
    worker?.kill()
    await worker?.exited
    rx.close()
  })

  test('the list: the site’s deliveries, newest first, with a link to each and to its payment; not another site’s', async () => {
    const page = await dashboardPage(session, '/dashboard/notifications')
    assert.equal(page.status, 200)
    const html = await page.text()
    const [p, h, c] = await Promise.all([viewOf(paid), viewOf(held), viewOf(capture)])
    for (const n of [p, h, c])
      assert.ok(html.includes(`href="/dashboard/notifications/${n.notificationId}"`), n.resourceId)
    // newest first: the capture's, the held payment's, the paid one's
    const at = (id: string) => html.indexOf(`/dashboard/notifications/${id}"`)
    assert.ok(at(c.notificationId) < at(h.notificationId) && at(h.notificationId) < at(p.notificationId))
    // a payment's id leads to its page; a capture's to its payment's
    assert.ok(html.includes(`href="/dashboard/payments/${paid}">${paid}</a>`))
    assert.ok(html.includes(`${capture}`))
    assert.ok(html.includes(`href="/dashboard/payments/${held}">${held}</a>`))
    assert.ok(html.includes(`${hook}/${mine.siteId}`))
    // codes in the page's words, the code in the title
    assert.match(html, /data-code="DELIVERED">Delivered</)
    assert.match(html, /data-code="CAPTURE">Capture</)
    assert.ok(!html.includes(theirPayment))
    assert.ok(!html.includes(`${hook}/${theirs.siteId}`))
  })

  test('a delivery’s page: every attempt, and the body exactly as posted, indented; another site’s is not found', async () => {
    const n = await viewOf(paid)
    const page = await dashboardPage(session, `/dashboard/notifications/${n.notificationId}`)
    assert.equal(page.status, 200)
    const html = await page.text()
    const pre = /<pre class="notif-pre">([\s\S]*?)<\/pre>/.exec(html)
    assert.ok(pre, 'the body in a <pre>')
    const shown = unescapeHtml(pre[1])
    const [sent] = posts(mine.siteId, paid)
    // the very text the receiver got, whitespace added between its tokens only: numbers as written
    assert.equal(shown.replace(/\n\s*/g, '').replace(/": /g, '":'), sent.body)
    assert.equal(n.rawBody, sent.body)
    assert.match(shown, /\n {4}"amount": \{\n {6}"value": 60\.50,/)
    assert.match(shown, /"maskedPan": "411111\*{6}1111"/)
    assert.ok(!html.includes('4111111111111111'), 'no card number')
    // the attempt: its time, HTTP status and duration
    const attempt = n.attemptLog[0]
    assert.equal(attempt.httpStatus, 200)
    assert.match(html, new RegExp(`<td>200</td><td>${attempt.durationMs} ms</td>`))
    assert.match(html, /<td><time datetime="[^"]+">[^<]+<\/time><\/td><td>200<\/td>/i)

    const theirs_ = await viewOf(theirPayment, client(theirs))
    assert.equal((await dashboardPage(session, `/dashboard/notifications/${theirs_.notificationId}`)).status, 404)
    assert.equal((await dashboardPage(session, '/dashboard/notifications/not-an-id')).status, 404)
  })

  test('the list is paged by cursor: no row twice, none left out', async () => {
    const site = await newSite('dash-notif-pages')
    await notifyTo(site.siteId, `${hook}/${site.siteId}`)
    const many = client(site)
    const ids: string[] = []
    for (let i = 0; i < 23; i++) {
      ids.push(uid('p'))
      assert.equal((await many.put(`/payments/${ids[i]}`, cardPayment())).status, 200)
    }
    const value = await signIn(site)
    const first = await (await dashboardPage(value, '/dashboard/notifications')).text()
    const next = /href="(\/dashboard\/notifications\?after=[^"]+)"/.exec(first)?.[1]
    assert.ok(next, 'a link to the next page')
    const second = await (await dashboardPage(value, unescapeHtml(next))).text()
    // the payments' ids as the page shows them, in its order
    const shown = (html: string) =>
      ids
        .filter((id) => html.includes(`>${id}</a>`))
        .sort((a, b) => html.indexOf(`>${a}</a>`) - html.indexOf(`>${b}</a>`))
    assert.deepEqual(shown(first), ids.slice(3).reverse())
    assert.deepEqual(shown(second), ids.slice(0, 3).reverse())
    assert.ok(!second.includes('>Next page</a>'), 'no page after the last')
    assert.ok(second.includes('href="/dashboard/notifications">First page</a>'))
  })

  test('Resend queues it as the API’s re-send does (PENDING, due now), in the audit log; it is posted again', async () => {
    const before = await delivered(paid)
    const lock = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await lock.connect()
    let answer
    let readBack
    let apiReadBack
    try {
      // no worker claims anything meanwhile: what the API reads back is what the re-send wrote
      await lock.query('SELECT pg_advisory_lock($1::bigint)', [CLAIM_LOCK.toString()])
      const started = Date.now()
      answer = await post(resendPath(before.notificationId), undefined, asSession(session))
      readBack = await viewOf(paid)
      // the API's own re-send of it, for comparison
      const viaApi = await api.post(`/notifications/${before.notificationId}/resend`)
      assert.equal(viaApi.status, 200, viaApi.text)
      apiReadBack = await viewOf(paid)
      assert.equal(answer.status, 200, answer.text)
      assert.deepEqual(Object.keys(answer.body).sort(), ['attempts', 'nextAttemptDateTime', 'notificationId', 'state'])
      assert.equal(answer.body.notificationId, before.notificationId)
      assert.equal(answer.body.state, 'PENDING')
      assert.equal(answer.body.attempts, 1)
      assert.equal(answer.body.nextAttemptDateTime, readBack.nextAttemptDateTime)
      const due = Date.parse(readBack.nextAttemptDateTime)
      assert.ok(due >= started - 1000 && due <= Date.now() + 1000, `due now: ${readBack.nextAttemptDateTime}`)
    } finally {
      await lock.end()
    }
    // everything but the time it fell due is as the API's re-send leaves it, and as it was before
    const { nextAttemptDateTime: a, ...dashboardQueued } = readBack
    const { nextAttemptDateTime: b, ...apiQueued } = apiReadBack
    assert.deepEqual(dashboardQueued, apiQueued)
    assert.equal(dashboardQueued.state, 'PENDING')
    assert.deepEqual(dashboardQueued.attemptLog, before.attemptLog)
    assert.equal(dashboardQueued.rawBody, before.rawBody)
    assert.ok(a && b)

    const audit = await sql(
      `SELECT actor, action, subject, outcome, "paymentRef"::text, detail FROM "AuditEntry" WHERE "siteId" = $1 ORDER BY at`,
      [mine.siteId],
    )
    const [payment] = await sql(`SELECT id::text FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2`, [
      mine.siteId,
      paid,
    ])
    assert.deepEqual(audit, [
      {
        actor: mine.token.slice(0, 9),
        action: 'resend',
        subject: before.notificationId,
        outcome: 'PENDING',
        paymentRef: payment.id,
        detail: { type: 'PAYMENT', resourceId: paid, url: `${hook}/${mine.siteId}` },
      },
    ])
    // posted again (the API's re-send too had queued it, once more: one delivery), the same body
    await rx.waitFor(() => posts(mine.siteId, paid).length >= 2)
    const again = await delivered(paid, 2)
    assert.equal(again.attempts, 2)
    const [first, second] = posts(mine.siteId, paid)
    assert.equal(second.body, first.body)
    // the payment's page shows the action in its audit log
    const paymentPage = await (await dashboardPage(session, `/dashboard/payments/${paid}`)).text()
    assert.match(paymentPage, /<td>Resend<\/td><td><span [^>]*data-code="PENDING">Pending<\/span><\/td>/)
  })

  test('a delivery under way: the API’s refusal (409), recorded; nothing changed', async () => {
    const n = await delivered(capture)
    // as a worker leaves it while it posts: PENDING, its lease held
    await sql(
      `UPDATE "Notification" SET state = 'PENDING', "leaseUntil" = now() + interval '5 minutes' WHERE id = $1`,
      [n.notificationId],
    )
    try {
      const r = await post(resendPath(n.notificationId), undefined, asSession(session))
      assertError(r, 409, 'payin.incorrect-method-invocation')
      const viaApi = await api.post(`/notifications/${n.notificationId}/resend`)
      assertError(viaApi, 409, 'payin.incorrect-method-invocation')
      assert.equal(r.body.description, viaApi.body.description)
      assert.equal(r.body.userMessage, viaApi.body.userMessage)
      const [row] = await sql(`SELECT "leaseUntil" > now() AS held, attempts FROM "Notification" WHERE id = $1`, [
        n.notificationId,
      ])
      assert.deepEqual(row, { held: true, attempts: 1 })
      const [entry] = await sql(`SELECT outcome FROM "AuditEntry" WHERE "siteId" = $1 AND subject = $2`, [
        mine.siteId,
        n.notificationId,
      ])
      assert.equal(entry.outcome, 'refused: A delivery of this notification is under way')
    } finally {
      await sql(`UPDATE "Notification" SET state = 'DELIVERED', "leaseUntil" = NULL WHERE id = $1`, [n.notificationId])
    }
  })

  test('no session: 401; another origin: 403; another site’s notification: 404; not an id: 400 — nothing queued or logged', async () => {
    const theirs_ = await viewOf(theirPayment, client(theirs))
    const own = await viewOf(held)
    assertError(await post(resendPath(own.notificationId), undefined), 401, 'auth.unauthorized')
    assertError(
      await post(resendPath(own.notificationId), undefined, asSession('not-a-session')),
      401,
      'auth.unauthorized',
    )
    for (const origin of [undefined, 'http://evil.example', 'null']) {
      const headers: Record<string, string> = asSession(session)
      const r = await request('POST', resendPath(own.notificationId), {
        headers: origin ? { ...headers, Origin: origin } : headers,
      })
      assertError(r, 403, 'auth.forbidden')
    }
    assertError(
      await post(resendPath(own.notificationId), undefined, { ...asSession(session), 'Sec-Fetch-Site': 'cross-site' }),
      403,
      'auth.forbidden',
    )
    const notFound = await post(resendPath(theirs_.notificationId), undefined, asSession(session))
    assertError(notFound, 404, 'payin.resource.not.found')
    assert.equal(notFound.body.description, 'Notification not found')
    assert.equal(notFound.body.serviceName, 'payin-core')
    assertError(
      await post(resendPath(crypto.randomUUID()), undefined, asSession(session)),
      404,
      'payin.resource.not.found',
    )
    assertError(await post(resendPath('not-an-id'), undefined, asSession(session)), 400, 'validation.error')
    // the other site's delivery is as it was
    const after = await viewOf(theirPayment, client(theirs))
    assert.equal(after.state, 'DELIVERED')
    assert.equal(after.attempts, theirs_.attempts)
    assert.equal(
      (await sql(`SELECT count(*)::int AS n FROM "AuditEntry" WHERE subject = $1`, [theirs_.notificationId]))[0].n,
      0,
    )
    assert.equal((await viewOf(held)).state, 'DELIVERED')
  })
})
