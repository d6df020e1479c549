// The API's notification list page by page (issue 32): the first page is what it always was (the latest 100, an
// array, newest first); Payin-Next-Cursor gives the next 100 when there are more, and paging to the end lists every
// notification once, none lost or repeated, while new ones arrive; a cursor this service did not give is a 400.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { assertErrorShape, cardPayment, client, newSite, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'

type Api = ReturnType<typeof client>
const NEXT = 'payin-next-cursor'

/** `n` one-step card payments of the site, ten at a time: each writes its PAYMENT notification */
async function payments(api: Api, n: number, label: string) {
  for (let done = 0; done < n; done += 10)
    await Promise.all(
      Array.from({ length: Math.min(10, n - done) }, async (_, i) => {
        const r = await api.put(`/payments/${uid(`${label}-${done + i}`)}`, cardPayment())
        assert.equal(r.status, 200, r.text)
      }),
    )
}

/** the site's notification ids, newest first (as the list orders them) */
const idsOf = async (siteId: string) =>
  (
    await sql<{ id: string }>(
      `SELECT id::text AS id FROM "Notification" WHERE "siteId" = $1 ORDER BY "createdAt" DESC, id DESC`,
      [siteId],
    )
  ).map((r) => r.id)

describe('the notification list, page by page', () => {
  let api: Api
  before(async () => {
    const site = await newSite('paging')
    api = client(site)
    // notifications need a URL: the site's, where nothing listens (on loopback)
    await sql(`UPDATE "Site" SET "notifyUrl" = 'http://127.0.0.1:9/paging' WHERE id = $1`, [site.siteId])
    await payments(api, 230, 'paging')
  })

  test('every notification once, newest first, while new ones arrive', async () => {
    const listed = await idsOf(api.site.siteId)
    assert.equal(listed.length, 230)
    const first = await api.get('/notifications')
    assert.equal(first.status, 200, first.text)
    assert.ok(Array.isArray(first.body), 'the first page is the array it always was')
    assert.equal(first.body.length, 100)
    const seen: string[] = first.body.map((n: { notificationId: string }) => n.notificationId)
    let cursor = first.headers.get(NEXT)
    let pages = 1
    while (cursor) {
      // new notifications between two pages: newer than every one listed, so on no later page
      await payments(api, 5, `arriving-${pages}`)
      const page = await api.get(`/notifications?cursor=${encodeURIComponent(cursor)}`)
      assert.equal(page.status, 200, page.text)
      assert.ok(page.body.length > 0 && page.body.length <= 100)
      seen.push(...page.body.map((n: { notificationId: string }) => n.notificationId))
      cursor = page.headers.get(NEXT)
      pages++
    }
    assert.equal(pages, 3)
    assert.deepEqual(seen, listed)
    // and the first page now starts with the newest of those that arrived
    const now = await api.get('/notifications')
    assert.equal(now.body[0].notificationId, (await idsOf(api.site.siteId))[0])
  })

  test('a site with 100 notifications or fewer has no next page', async () => {
    const few = client(await newSite('paging-few'))
    await sql(`UPDATE "Site" SET "notifyUrl" = 'http://127.0.0.1:9/paging' WHERE id = $1`, [few.site.siteId])
    await payments(few, 3, 'few')
    const r = await few.get('/notifications')
    assert.equal(r.status, 200)
    assert.equal(r.body.length, 3)
    assert.equal(r.headers.get(NEXT), null)
  })

  test('a cursor this service did not give is a 400 in the error shape', async () => {
    const good = (await api.get('/notifications')).headers.get(NEXT)!
    const forged = Buffer.from(
      JSON.stringify(['2026-02-30T00:00:00.000Z', '6a1f0c2e-8b3d-4e5f-9a7b-1c2d3e4f5a6b']),
    ).toString('base64url')
    for (const bad of ['', 'x', good.slice(0, -3), `${good}AAAA`, forged, 'A'.repeat(300)]) {
      const r = await api.get(`/notifications?cursor=${encodeURIComponent(bad)}`)
      assertErrorShape(r, 400, 'validation.error')
    }
  })
})
