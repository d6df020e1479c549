// The overview's links show what its figures count (issue 33 point 5, found in review): the overview counts the
// payments and notifications made in its 30 days on the site's clock, so each link filters its list to those days
// (`since`, the first of them); a list filtered so says which days and links to all of them.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { cardPayment, client, newSite } from '../support/api.ts'
import { dashboardPage, signIn } from '../support/dashboard.ts'
import { notifyTo } from '../support/notify-site.ts'

const DAY = 86_400

/** a dashboard page's HTML, React's markers between adjacent texts taken out */
const html = async (cookie: string, path: string) => {
  const r = await dashboardPage(cookie, path)
  assert.equal(r.status, 200, path)
  return (await r.text()).replaceAll('<!-- -->', '')
}
/** the payment ids a list page links */
const paymentsOf = (page: string) =>
  [...page.matchAll(/href="\/dashboard\/payments\/([^"/?]+)"/g)].map((m) => decodeURIComponent(m[1])).sort()
/** the notifications a list page links */
const notificationsOf = (page: string) => [...page.matchAll(/href="\/dashboard\/notifications\/([0-9a-f-]{36})"/g)]

test("the overview's links list its days' payments and notifications alone, after the site's clock moved on", async () => {
  const site = await newSite('dash-overview-links')
  const api = client(site)
  await notifyTo(site.siteId, 'http://127.0.0.1:9/payin-hook')
  const cookie = await signIn(site)
  const old = await api.newPayment(cardPayment())
  const oldDeclined = await api.newPayment(cardPayment({}, { pan: '4000000000000002' }))
  // 32 days on: those two are out of the overview's 30 days
  for (const days of [16, 16])
    assert.equal((await api.post('/sandbox/clock/advance', { seconds: days * DAY })).status, 200)
  const paid = await api.newPayment(cardPayment())
  const declined = await api.newPayment(cardPayment({}, { pan: '4000000000000002' }))

  const overview = await html(cookie, '/dashboard')
  const links = [...overview.matchAll(/href="(\/dashboard\/(?:payments|notifications)\?[^"]*)"/g)].map((m) =>
    m[1].replaceAll('&amp;', '&'),
  )
  const since = new URL(links[0], 'http://x').searchParams.get('since')
  assert.match(since ?? '', /^\d{4}-\d{2}-\d{2}$/)
  assert.ok(links.length >= 5 && links.every((l) => l.includes(`since=${since}`)), links.join(' '))

  const listed = async (status: string) =>
    paymentsOf(
      await html(
        cookie,
        links.find((l) => l.includes(`status=${status}`))!,
      ),
    )
  assert.deepEqual(await listed('COMPLETED'), [paid])
  assert.deepEqual(await listed('DECLINED'), [declined])
  const all = links.find((l) => !l.includes('status=') && l.startsWith('/dashboard/payments'))!
  const filtered = await html(cookie, all)
  assert.deepEqual(paymentsOf(filtered), [declined, paid].sort())
  assert.match(filtered, /Made on .* or later, as counted on the overview\./)
  // the way back: every payment, the older ones too
  assert.match(filtered, /href="\/dashboard\/payments\?"|href="\/dashboard\/payments"/)
  assert.deepEqual(paymentsOf(await html(cookie, '/dashboard/payments')), [old, oldDeclined, paid, declined].sort())

  // notifications: the overview's days' two of the four (each payment's one)
  const pending = links.find((l) => l.includes('state=PENDING'))!
  assert.equal(notificationsOf(await html(cookie, pending)).length, 2)
  assert.equal(notificationsOf(await html(cookie, '/dashboard/notifications?state=PENDING')).length, 4)
  // a since that is no day is no filter
  for (const day of ['2026-02-30', '0000-01-01', '1969-12-31', 'x'])
    assert.equal(paymentsOf(await html(cookie, `/dashboard/payments?since=${day}`)).length, 4, day)
  assert.equal(notificationsOf(await html(cookie, '/dashboard/notifications?since=0000-01-01')).length, 4)
})
