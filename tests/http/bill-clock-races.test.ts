// Bills created while the site's sandbox clock keeps moving (issue 26): several loops advance the clock
// by a second, without pause, while hundreds of bills are created 16 at a time through the API and the
// dashboard's New bill. Every creation answers 200 (never a 500 "the site's clock kept moving"), and each
// bill reads back with the deadline it was given, created on the site's clock.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { client, DAY_MS, newSite, uid } from '../support/api.ts'
import { asSession, post, signIn } from '../support/dashboard.ts'

/** another token of the site: the rate limit counts per token, so the clock's loops spend their own */
async function anotherToken(siteId: string): Promise<string> {
  const { closeDb } = await import('../../lib/db/client.ts')
  const { issueToken } = await import('../../lib/sites/site-tokens.ts')
  try {
    return await issueToken(siteId)
  } finally {
    await closeDb()
  }
}

/** `work(i)` for i in 0…n-1, `width` at a time */
async function inParallel<T>(n: number, width: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n)
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++
        out[i] = await work(i)
      }
    }),
  )
  return out
}

const CREATIONS = 240
const WIDTH = 16
const CLOCK_LOOPS = 6

test('bills created while the clock advances without pause: all 200, each with its deadline, on the site clock', async () => {
  const site = await newSite('bill-clock')
  const api = client(site)
  const clockApi = client({ siteId: site.siteId, token: await anotherToken(site.siteId) })
  const readApi = client({ siteId: site.siteId, token: await anotherToken(site.siteId) })
  const session = await signIn(site)
  const started = Date.now()

  // a deadline ten days ahead, whole seconds (bills answer date-times without fractions)
  const deadline = new Date(Math.floor((Date.now() + 10 * DAY_MS) / 1000) * 1000)
  const body = {
    amount: { value: '12.00', currency: 'RUB' },
    expirationDateTime: deadline.toISOString(),
    flags: ['SALE'],
  }

  let moving = true
  const loops = Array.from({ length: CLOCK_LOOPS }, async () => {
    let advances = 0
    while (moving) {
      const r = await clockApi.post('/sandbox/clock/advance', { seconds: 1 })
      assert.equal(r.status, 200, r.text)
      advances++
    }
    return advances
  })

  let answers: { billId: string; via: string; status: number; text: string }[]
  try {
    answers = await inParallel(CREATIONS, WIDTH, async (i) => {
      const billId = uid('moving')
      // one in three through the dashboard's New bill (the same service, its own way in)
      const via = i % 3 === 2 ? 'dashboard' : 'api'
      const r =
        via === 'dashboard'
          ? await post(`/dashboard/actions/bills/${billId}`, body, asSession(session))
          : await api.put(`/bills/${billId}`, body)
      return { billId, via, status: r.status, text: r.text }
    })
  } finally {
    moving = false
  }
  const advances = (await Promise.all(loops)).reduce((a, b) => a + b, 0)

  const failed = answers.filter((a) => a.status !== 200).map((a) => `${a.via} ${a.billId}: ${a.status} ${a.text}`)
  assert.deepEqual(
    failed,
    [],
    `${failed.length} of ${CREATIONS} creations failed while the clock advanced ${advances} times`,
  )
  // the clock did move under the creations, many times
  assert.ok(advances >= 2 * CLOCK_LOOPS, `only ${advances} advances`)

  const clock = await readApi.get('/sandbox/clock')
  assert.equal(clock.status, 200, clock.text)
  assert.ok(clock.body.offsetSeconds >= advances, `offset ${clock.body.offsetSeconds} s after ${advances} advances`)
  const siteNow = Date.parse(clock.body.now)
  const bills = await inParallel(answers.length, 8, (i) => readApi.get(`/bills/${answers[i].billId}/details`))
  for (const [i, r] of bills.entries()) {
    assert.equal(r.status, 200, `${answers[i].billId}: ${r.text}`)
    assert.equal(r.body.status.value, 'CREATED')
    assert.equal(
      Date.parse(r.body.expirationDateTime),
      deadline.getTime(),
      `${answers[i].billId}: deadline ${r.body.expirationDateTime}`,
    )
    // created on the site's clock: not before the test began, not after the clock's time now (whole seconds)
    const created = Date.parse(r.body.creationDateTime)
    assert.ok(
      created >= Math.floor(started / 1000) * 1000 && created <= siteNow,
      `${answers[i].billId}: created ${r.body.creationDateTime}, site now ${clock.body.now}`,
    )
  }
})
