// Signed notifications, delivered from the outbox by the workers of two instances started here
// (the suite's own server runs no worker), to a receiver on loopback that verifies signatures and can
// fail on purpose.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { createHmac } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { BASE_URL, cardPayment, client, newSite, uid } from '../support/api.ts'
import { startInstance, type Instance } from '../support/instances.ts'

const WORKER_ENV = { NOTIFICATIONS_WORKER: 'on', NOTIFY_RETRY_DELAYS_MS: '300,300,300,300,300', NOTIFY_TIMEOUT_MS: '1000', NOTIFY_LEASE_MS: '2000', NOTIFY_POLL_MS: '100' }

interface Received {
  path: string
  signature: string
  body: string
}

/** the merchant's receiver: verifies nothing itself, records everything; paths choose a behaviour */
function receiver() {
  const got: Received[] = []
  const seen = new Map<string, number>()
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const path = req.url!
      const n = (seen.get(path) ?? 0) + 1
      seen.set(path, n)
      got.push({ path, signature: String(req.headers.signature ?? ''), body })
      if (path.startsWith('/fail-twice') && n <= 2) return res.writeHead(500).end('no')
      if (path.startsWith('/slow-once') && n === 1) return setTimeout(() => res.writeHead(200).end(), 3000)
      if (path.startsWith('/hang-once') && n === 1) return // never answered
      if (path.startsWith('/redirect')) return res.writeHead(302, { Location: '/ok/redirected' }).end()
      res.writeHead(200).end('ok')
    })
  })
  return {
    got,
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    close: () => {
      server.closeAllConnections()
      server.close()
    },
    async waitFor(pred: (r: Received[]) => boolean, ms = 10_000) {
      const end = Date.now() + ms
      while (Date.now() < end) {
        if (pred(got)) return
        await sleep(50)
      }
      throw new Error(`the receiver did not see it within ${ms} ms; it saw ${got.map((g) => g.path).join(', ')}`)
    },
  }
}

/** what a merchant runs: HMAC-SHA256 (hex) of id|createdDateTime|amount.value with the site's secret */
function verify(secret: string, signature: string, body: string): boolean {
  const n = JSON.parse(body)
  const r = n.payment ?? n.capture ?? n.refund
  const id = r.paymentId ?? r.captureId ?? r.refundId
  const expected = createHmac('sha256', secret).update(`${id}|${r.createdDateTime}|${r.amount.value}`).digest('hex')
  return expected === signature
}

describe('notifications', () => {
  const rx = receiver()
  let hook: string
  let a: Instance
  let b: Instance
  let site: { siteId: string; token: string }
  let secret: string
  let api: ReturnType<typeof client>
  const port = Number(new URL(BASE_URL).port)

  before(async () => {
    hook = await rx.start()
    ;[a, b] = await Promise.all([startInstance(port + 40, WORKER_ENV), startInstance(port + 50, WORKER_ENV)])
    site = await newSite('notify')
    api = client(site)
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/site.ts', 'notify', site.siteId, `${hook}/site`], { encoding: 'utf8', env: process.env })
    secret = out.trim().split('\n').at(-1)!
    assert.match(secret, /^whsec_/)
  })
  after(() => {
    a?.kill()
    b?.kill()
    rx.close()
  })

  const forPath = (p: string) => rx.got.filter((g) => g.path === p)
  const list = async () => (await api.get('/notifications')).body as any[]

  test('each final status is notified once, signed, to the callbackUrl and the site URL', async () => {
    const paid = uid('pay')
    await api.put(`/payments/${paid}`, cardPayment({ callbackUrl: `${hook}/cb/${paid}` }))
    const declined = uid('pay')
    await api.put(`/payments/${declined}`, cardPayment({ callbackUrl: `${hook}/cb/${declined}` }, { pan: '4000000000000002' }))
    const held = uid('held')
    await api.put(`/payments/${held}`, cardPayment({ flags: [] }))
    const cap = uid('cap')
    await api.put(`/payments/${held}/captures/${cap}`, { callbackUrl: `${hook}/cb/${cap}` })
    const ref = uid('ref')
    await api.put(`/payments/${paid}/refunds/${ref}`, { amount: { value: '1.00', currency: 'RUB' }, callbackUrl: `${hook}/cb/${ref}` })
    await rx.waitFor(() => [paid, declined, cap, ref].every((id) => forPath(`/cb/${id}`).length === 1))
    // the site URL gets every one of them too (and the authorisation of `held`)
    await rx.waitFor((g) => g.filter((x) => x.path === '/site').length >= 5)
    await sleep(800) // and nothing twice
    for (const id of [paid, declined, cap, ref]) assert.equal(forPath(`/cb/${id}`).length, 1, id)

    const byId = (id: string) => JSON.parse(forPath(`/cb/${id}`)[0].body)
    assert.equal(byId(paid).type, 'PAYMENT')
    assert.equal(byId(paid).version, '1')
    assert.equal(byId(paid).payment.status.value, 'COMPLETED')
    assert.deepEqual(byId(paid).payment, { ...(await api.get(`/payments/${paid}`)).body, refundedAmount: { value: '0.00', currency: 'RUB' } })
    assert.equal(byId(declined).payment.status.reason, 'ACQUIRING_DECLINED')
    assert.equal(byId(cap).type, 'CAPTURE')
    assert.equal(byId(cap).capture.captureId, cap)
    assert.equal(byId(ref).type, 'REFUND')
    assert.equal(byId(ref).refund.refundId, ref)
    for (const g of rx.got.filter((x) => x.path.startsWith('/cb/') || x.path === '/site')) assert.ok(verify(secret, g.signature, g.body), `signature of ${g.path}`)
  })

  test('a waiting payment is notified when it completes, not before', async () => {
    const id = uid('otp')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/cb/${id}` }, { pan: '4000000000001000' }))
    await sleep(600)
    assert.equal(forPath(`/cb/${id}`).length, 0)
    await api.post(`/payments/${id}/complete`, { otp: { code: '1234' } })
    await rx.waitFor(() => forPath(`/cb/${id}`).length === 1)
    assert.equal(JSON.parse(forPath(`/cb/${id}`)[0].body).payment.status.value, 'COMPLETED')
  })

  test('retries after 500s until a 2xx; every attempt recorded', async () => {
    const id = uid('pay')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/fail-twice/${id}` }))
    await rx.waitFor(() => forPath(`/fail-twice/${id}`).length === 3)
    await sleep(300)
    const n = (await list()).find((x) => x.url.endsWith(`/fail-twice/${id}`))
    assert.equal(n.state, 'DELIVERED')
    assert.deepEqual(n.attemptLog.map((x: any) => x.httpStatus), [500, 500, 200])
    assert.equal(n.attempts, 3)
  })

  test('a receiver that does not answer in time is retried', async () => {
    const id = uid('pay')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/slow-once/${id}` }))
    await rx.waitFor(() => forPath(`/slow-once/${id}`).length === 2)
    await sleep(300)
    const n = (await list()).find((x) => x.url.endsWith(`/slow-once/${id}`))
    assert.equal(n.state, 'DELIVERED')
    assert.match(n.attemptLog[0].error, /no answer within 1000 ms/)
    assert.equal(n.attemptLog[1].httpStatus, 200)
  })

  test('redirects are not followed', async () => {
    const id = uid('pay')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/redirect/${id}` }))
    await rx.waitFor(() => forPath(`/redirect/${id}`).length >= 2)
    assert.equal(forPath('/ok/redirected').length, 0)
    const n = (await list()).find((x) => x.url.endsWith(`/redirect/${id}`))
    assert.equal(n.attemptLog[0].httpStatus, 302)
    assert.match(n.attemptLog[0].error, /redirects are not followed/)
  })

  test('two instances deliver each notification once', async () => {
    const ids = Array.from({ length: 20 }, () => uid('twin'))
    await Promise.all(ids.map((id) => api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/twin/${id}` }))))
    await rx.waitFor(() => ids.every((id) => forPath(`/twin/${id}`).length >= 1))
    await sleep(1000)
    for (const id of ids) assert.equal(forPath(`/twin/${id}`).length, 1, id)
  })

  test('delivery resumes after the instances are killed mid-way', async () => {
    const id = uid('pay')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/hang-once/${id}` }))
    await rx.waitFor(() => forPath(`/hang-once/${id}`).length === 1)
    a.kill('SIGKILL')
    b.kill('SIGKILL')
    await Promise.all([a.exited, b.exited])
    a = await startInstance(port + 40, WORKER_ENV)
    await rx.waitFor(() => forPath(`/hang-once/${id}`).length === 2, 15_000)
    await sleep(300)
    assert.equal((await list()).find((x) => x.url.endsWith(`/hang-once/${id}`)).state, 'DELIVERED')
    b = await startInstance(port + 50, WORKER_ENV)
  })

  test('a tampered body fails verification', () => {
    const g = rx.got.find((x) => x.path.startsWith('/cb/'))!
    assert.ok(verify(secret, g.signature, g.body))
    const n = JSON.parse(g.body)
    const r = n.payment ?? n.capture ?? n.refund
    r.amount.value = '999999.00'
    assert.equal(verify(secret, g.signature, JSON.stringify(n)), false)
    assert.equal(verify('whsec_wrong', g.signature, g.body), false)
  })

  test('the merchant can re-send a delivery', async () => {
    const id = uid('pay')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/again/${id}` }))
    await rx.waitFor(() => forPath(`/again/${id}`).length === 1)
    const n = (await list()).find((x) => x.url.endsWith(`/again/${id}`))
    const r = await api.post(`/notifications/${n.notificationId}/resend`)
    assert.equal(r.status, 200)
    assert.equal(r.body.state, 'PENDING')
    await rx.waitFor(() => forPath(`/again/${id}`).length === 2)
    assert.equal(forPath(`/again/${id}`)[1].body, forPath(`/again/${id}`)[0].body)
    const other = await newSite('notify-other')
    assert.equal((await client(other).post(`/notifications/${n.notificationId}/resend`)).status, 404)
  })
})
