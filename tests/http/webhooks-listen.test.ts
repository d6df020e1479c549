// Webhooks to the developer's own machine, as the contract has it: loopback is a refused destination unless
// NOTIFY_ALLOW_NETWORKS allows it (default none), whatever the public base URL. A local instance started with the
// default refuses a loopback callbackUrl with the 400 that names the setting; one started with
// NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128 accepts it, and still refuses private and metadata addresses. The API,
// the delivery worker and the site command decide alike, each from its own NOTIFY_ALLOW_NETWORKS.
// `npm run webhooks -- listen` (scripts/webhooks.ts), as a child process whose own environment never has the
// setting, against instances with a delivery worker: it points the site's notifications at itself whatever its
// shell says; against the allowing instance it prints one verified line per notification, reports a changed body as
// BAD, forwards each one unchanged, and puts the site's previous URL back on SIGTERM and SIGINT; against the default
// instance it tells, once, that the service refused to call it and how to start the service. Each instance has a
// database of its own, so its worker takes no other test's (nor the other instance's) notifications.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import net from 'node:net'
import { after, before, describe, test } from 'node:test'
import { PRIVATE_ADDRESS_REFUSAL } from '../../lib/notifications/callback-url.ts'
import { LOOPBACK_NETWORKS } from '../../lib/notifications/outgoing-policy.ts'
import { signatureHeaders } from '../../lib/notifications/signing.ts'
import { BASE_URL, cardPayment, client, request, rub, twoStepPayment, uid } from '../support/api.ts'
import { dropDatabase, freshDatabase } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { receiver, verifiesEveryWay } from '../support/notification-receiver.ts'
import { lastLine, siteCommand, siteOk } from '../support/site-command.ts'
import { listeningUrl, siteNotifyUrl, startListener } from '../support/webhooks-listener.ts'

// the shell's setting, if any, would decide instead of the default under test
delete process.env.NOTIFY_ALLOW_NETWORKS
const port = Number(new URL(BASE_URL).port)
const WORKER = {
  NOTIFICATIONS_WORKER: 'on',
  NOTIFY_POLL_MS: '100',
  NOTIFY_RETRY_DELAYS_MS: '300,300,300,300,300',
  NOTIFY_TIMEOUT_MS: '2000',
}
/** what the listener prints when the service refused to call it */
const REFUSED_BY_SERVICE =
  'the service refused to call this listener (a private address to it): start the service with ' +
  'NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128'

/** a local instance with its own database; `env`: the environment of its site commands and listeners */
interface Local {
  base: string
  databaseUrl: string
  env: NodeJS.ProcessEnv
  instance?: Instance
}
const local = (on: number): Local => ({
  base: `http://127.0.0.1:${on}`,
  databaseUrl: '',
  env: { ...process.env },
})
/** started with NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128 */
const allowing = local(port + 260)
/** started with the default (NOTIFY_ALLOW_NETWORKS unset) */
const byDefault = local(port + 265)
const databases = [allowing, byDefault].map(() => `payin_hooks_${randomBytes(4).toString('hex')}`)

before(async () => {
  await Promise.all(
    [allowing, byDefault].map(async (l, i) => {
      l.databaseUrl = await freshDatabase(databases[i])
      const port = new URL(l.base).port
      // as on a developer's machine: the service's own settings; no NOTIFY_ALLOW_NETWORKS (deleted above)
      l.env = { ...process.env, DATABASE_URL: l.databaseUrl, PUBLIC_BASE_URL: l.base, PORT: port }
      const setting: Record<string, string> = l === allowing ? { NOTIFY_ALLOW_NETWORKS: LOOPBACK_NETWORKS } : {}
      l.instance = await startInstance(Number(port), {
        DATABASE_URL: l.databaseUrl,
        PUBLIC_BASE_URL: l.base,
        ...WORKER,
        ...setting,
      })
    }),
  )
})

after(async () => {
  for (const l of [allowing, byDefault]) l.instance?.kill('SIGTERM')
  await Promise.all([allowing.instance?.exited, byDefault.instance?.exited])
  await Promise.all(databases.map((d) => dropDatabase(d)))
})

/** a site with a token on the instance's database, made by the site command */
async function localSite(l: Local, prefix: string): Promise<{ siteId: string; token: string }> {
  const siteId = uid(prefix)
  return { siteId, token: lastLine(await siteOk(['create', siteId], l.env)) }
}

const notifyUrlOf = (l: Local, siteId: string) => siteNotifyUrl(l.databaseUrl, siteId)

const inADay = () => new Date(Date.now() + 86_400_000).toISOString()

describe("the contract's default: loopback refused unless NOTIFY_ALLOW_NETWORKS allows it", () => {
  test('a default-started local instance refuses loopback callback URLs, the 400 naming the setting', async () => {
    const api = client(await localSite(byDefault, 'hooks-default'), '/api', byDefault.base)
    for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]:9/hook', 'http://127.8.9.10/hook']) {
      const r = await api.put(`/payments/${uid('pay')}`, cardPayment({ callbackUrl: url }))
      assert.equal(r.status, 400, `${url}: ${r.text}`)
      assert.deepEqual(r.body.cause, { callbackUrl: [PRIVATE_ADDRESS_REFUSAL] }, url)
      assert.match(r.body.cause.callbackUrl[0], /NOTIFY_ALLOW_NETWORKS=127\.0\.0\.0\/8,::1\/128/)
      const bill = await api.put(`/bills/${uid('bill')}`, {
        amount: rub('3.00'),
        expirationDateTime: inADay(),
        customFields: { invoice_callback_url: url },
      })
      assert.equal(bill.status, 400, `${url}: ${bill.text}`)
      assert.ok(bill.text.includes('NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128'), bill.text)
    }
    // the site command, with the same (default) settings, refuses too, saying what decides
    const siteId = api.site.siteId
    const refused = await siteCommand(['notify', siteId, 'http://127.0.0.1:9/hook'], byDefault.env)
    assert.equal(refused.code, 1)
    assert.match(refused.stderr, /the notification URL must not point to a private address/)
    assert.match(
      refused.stderr,
      new RegExp(
        'receivers on this machine refused: NOTIFY_ALLOW_NETWORKS unset \\(the default\\) allows no private network ' +
          "\\(NOTIFY_ALLOW_NETWORKS=127\\.0\\.0\\.0/8,::1/128 allows this machine's\\)",
      ),
    )
    assert.equal(await notifyUrlOf(byDefault, siteId), null)
    // the setting, in the command's environment, allows it there
    await siteOk(['notify', siteId, 'http://127.0.0.1:9/hook'], {
      ...byDefault.env,
      NOTIFY_ALLOW_NETWORKS: LOOPBACK_NETWORKS,
    })
    assert.equal(await notifyUrlOf(byDefault, siteId), 'http://127.0.0.1:9/hook')
  })

  test('NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128: loopback accepted; private and metadata still refused', async () => {
    const api = client(await localSite(allowing, 'hooks-allowing'), '/api', allowing.base)
    for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]:9/hook', 'http://localhost:9/hook']) {
      const r = await api.put(`/bills/${uid('bill')}`, {
        amount: rub('3.00'),
        expirationDateTime: inADay(),
        customFields: { invoice_callback_url: url },
      })
      assert.equal(r.status, 200, `${url}: ${r.text}`)
    }
    for (const url of [
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
    ]) {
      const r = await api.put(`/payments/${uid('pay')}`, cardPayment({ callbackUrl: url }))
      assert.equal(r.status, 400, url)
      assert.deepEqual(r.body.cause, { callbackUrl: [PRIVATE_ADDRESS_REFUSAL] }, url)
    }
    // the site command decides by its own environment's setting
    const siteId = api.site.siteId
    const withSetting = { ...allowing.env, NOTIFY_ALLOW_NETWORKS: LOOPBACK_NETWORKS }
    await siteOk(['notify', siteId, 'http://127.0.0.1:9/hook'], withSetting)
    assert.equal(await notifyUrlOf(allowing, siteId), 'http://127.0.0.1:9/hook')
    const metadata = await siteCommand(['notify', siteId, 'http://169.254.169.254/latest'], withSetting)
    assert.equal(metadata.code, 1)
    assert.match(metadata.stderr, /private address .*NOTIFY_ALLOW_NETWORKS=/)
    // set empty, it allows nothing
    const none = await siteCommand(['notify', siteId, 'http://127.0.0.1:8/hook'], {
      ...allowing.env,
      NOTIFY_ALLOW_NETWORKS: '',
    })
    assert.equal(none.code, 1)
    assert.match(none.stderr, /receivers on this machine refused: NOTIFY_ALLOW_NETWORKS= allows no private network/)
    assert.equal(await notifyUrlOf(allowing, siteId), 'http://127.0.0.1:9/hook')
  })
})

/** the listener on the instance's database; `env`: its environment (the instance's, no NOTIFY_ALLOW_NETWORKS) */
const listen = (l: Local, args: string[], env: NodeJS.ProcessEnv = l.env) => startListener(args, env, 'webhooks-listen')

describe('npm run webhooks -- listen', () => {
  test('a verified line per notification, forwarded as is; a changed body BAD; old URL back on SIGTERM', async () => {
    const site = await localSite(allowing, 'hooks-listen')
    const api = client(site, '/api', allowing.base)
    const secret = lastLine(await siteOk(['notify', site.siteId, 'https://shop.example/previous-hook'], allowing.env))
    const shop = receiver()
    const shopUrl = `${await shop.start()}/payin-hook`
    const listener = listen(allowing, ['--site', site.siteId, '--forward', shopUrl])
    try {
      const url = await listener.until('listening', listeningUrl)
      assert.match(listener.lines().join('\n'), /its URL was https:\/\/shop\.example\/previous-hook\)/)
      assert.equal(await notifyUrlOf(allowing, site.siteId), url)

      // payments of every kind: approved, declined, authorised then captured, refunded
      const paid = await api.newPayment(cardPayment({ amount: rub('100.00') }))
      const declined = await api.newPayment(cardPayment({ amount: rub('5.00') }, { pan: '4000000000000002' }))
      const held = await api.newPayment(twoStepPayment({ amount: rub('60.50') }))
      const capture = uid('cap')
      assert.equal((await api.put(`/payments/${held}/captures/${capture}`, {})).status, 200)
      const refund = uid('ref')
      assert.equal((await api.put(`/payments/${paid}/refunds/${refund}`, { amount: rub('40.00') })).status, 200)
      const expected = [
        `PAYMENT ${paid} SUCCESS 100.00 RUB signature OK`,
        `PAYMENT ${declined} DECLINED 5.00 RUB signature OK`,
        `PAYMENT ${held} SUCCESS 60.50 RUB signature OK`,
        `CAPTURE ${capture} SUCCESS 60.50 RUB signature OK`,
        `REFUND ${refund} SUCCESS 40.00 RUB signature OK`,
      ]
      const events = (out: string) => out.split('\n').filter((l) => / signature (OK|BAD)/.test(l))
      const forwards = (out: string) => out.split('\n').filter((l) => l.includes(` forwarded to ${shopUrl}: `))
      await listener.until('five notifications, each forwarded', (out) =>
        events(out).length >= 5 && forwards(out).length >= 5 ? true : undefined,
      )
      assert.deepEqual(events(listener.lines().join('\n')).sort(), expected.sort())
      // delivered: no refusal told
      assert.ok(!listener.lines().join('\n').includes('refused to call this listener'), listener.lines().join('\n'))
      // each delivered once, answered 200 (recorded by the service just after the listener answered: waited for)
      type Row = { state: string; rawBody: string; attempts: number }
      let outbox: Row[] = []
      for (let tries = 0; tries < 300; tries++) {
        outbox = (await api.get('/notifications')).body as Row[]
        if (outbox.length === 5 && outbox.every((n) => n.state !== 'PENDING')) break
        await new Promise((r) => setTimeout(r, 100))
      }
      assert.equal(outbox.length, 5)
      assert.deepEqual(
        outbox.map((n) => [n.state, n.attempts]),
        outbox.map(() => ['DELIVERED', 1]),
      )
      // forwarded: the shop got each body as sent, with signatures that verify with the site's secret
      await shop.waitFor((got) => got.length === 5)
      assert.deepEqual(
        forwards(listener.lines().join('\n')).map((l) => l.split(': ').at(-1)),
        Array(5).fill('200'),
      )
      assert.deepEqual(shop.got.map((g) => g.body).sort(), outbox.map((n) => n.rawBody).sort())
      for (const g of shop.got) assert.ok(verifiesEveryWay(secret, g), g.body)

      // posted directly: a body signed with the site's secret is OK; the same headers on a changed body are BAD
      const body = outbox.find((n) => n.rawBody.includes(`"paymentId":"${paid}"`) && n.rawBody.includes('PAYMENT'))!
      const headers = signatureHeaders({ current: secret, previous: null, previousUntil: null }, body.rawBody)
      const post = (text: string) => request('POST', '/', { base: url.slice(0, -1), rawBody: text, headers })
      assert.equal((await post(body.rawBody)).status, 200)
      assert.equal((await post(body.rawBody.replace('"value":100.00', '"value":1.00'))).status, 200)
      const direct = await listener.until('the two direct posts', (out) => {
        const mine = events(out).filter((l) => l.startsWith(`PAYMENT ${paid} `))
        return mine.length >= 3 ? mine : undefined
      })
      assert.equal(direct[1], `PAYMENT ${paid} SUCCESS 100.00 RUB signature OK`)
      assert.match(direct[2], new RegExp(`^PAYMENT ${paid} SUCCESS 1\\.00 RUB signature BAD: Signature does not match`))
      assert.match(direct[2], /; Payin-Signature does not match the body/)

      listener.proc.kill('SIGTERM')
      assert.equal(await listener.exited, 0)
      assert.match(
        listener.lines().at(-1)!,
        /^SIGTERM: notifications of .* go to https:\/\/shop\.example\/previous-hook again$/,
      )
      assert.equal(await notifyUrlOf(allowing, site.siteId), 'https://shop.example/previous-hook')
    } finally {
      listener.proc.kill('SIGKILL')
      shop.close()
    }
  })

  test('--port: listens there; a site without a URL has none again after SIGINT; a port in use is told', async () => {
    const site = await localSite(allowing, 'hooks-port')
    const free = net.createServer().listen(0, '127.0.0.1')
    await once(free, 'listening')
    const chosen = (free.address() as net.AddressInfo).port
    // taken: the listener says so and exits, the site's URL untouched
    const busy = listen(allowing, ['--site', site.siteId, '--port', String(chosen)])
    assert.equal(await busy.exited, 1)
    assert.match(busy.lines().join('\n'), new RegExp(`port ${chosen} is in use`))
    assert.equal(await notifyUrlOf(allowing, site.siteId), null)
    await new Promise((r) => free.close(r))

    // its own shell's setting refusing loopback changes nothing: the service delivering decides
    const listener = listen(allowing, ['--site', site.siteId, '--port', String(chosen)], {
      ...allowing.env,
      NOTIFY_ALLOW_NETWORKS: '',
    })
    try {
      const url = await listener.until('listening', listeningUrl)
      assert.equal(url, `http://127.0.0.1:${chosen}/`)
      assert.match(listener.lines().join('\n'), /its URL was none/)
      assert.equal(await notifyUrlOf(allowing, site.siteId), url)
      const api = client(site, '/api', allowing.base)
      const paid = await api.newPayment(cardPayment({ amount: rub('7.00') }))
      await listener.until('the notification', (out) =>
        out.includes(`PAYMENT ${paid} SUCCESS 7.00 RUB signature OK`) ? true : undefined,
      )
      listener.proc.kill('SIGINT')
      assert.equal(await listener.exited, 0)
      assert.match(
        listener.lines().at(-1)!,
        /^SIGINT: notifications of .* go to each operation's callbackUrl only again$/,
      )
      assert.equal(await notifyUrlOf(allowing, site.siteId), null)
    } finally {
      listener.proc.kill('SIGKILL')
    }
  })

  test("a previous URL on this machine that answers no more (a killed listener's) is not put back", async () => {
    const site = await localSite(allowing, 'hooks-dead')
    // a port nothing listens on any more
    const gone = net.createServer().listen(0, '127.0.0.1')
    await once(gone, 'listening')
    const dead = `http://127.0.0.1:${(gone.address() as net.AddressInfo).port}/`
    await new Promise((r) => gone.close(r))
    await siteOk(['notify', site.siteId, dead], { ...allowing.env, NOTIFY_ALLOW_NETWORKS: '127.0.0.0/8,::1/128' })
    const listener = listen(allowing, ['--site', site.siteId])
    try {
      await listener.until('listening', listeningUrl)
      listener.proc.kill('SIGTERM')
      assert.equal(await listener.exited, 0)
      assert.ok(
        listener
          .lines()
          .includes(`its previous URL, ${dead}, answers no more (a stopped listener's?): none is put back`),
      )
      assert.equal(await notifyUrlOf(allowing, site.siteId), null)
    } finally {
      listener.proc.kill('SIGKILL')
    }
  })

  test('against a service that refuses loopback: its URL set all the same, the refusal told once', async () => {
    const site = await localSite(byDefault, 'hooks-refused')
    const api = client(site, '/api', byDefault.base)
    const listener = listen(byDefault, ['--site', site.siteId])
    try {
      const url = await listener.until('listening', listeningUrl)
      // set whatever the listener's own (default) setting: the service that delivers decides
      assert.equal(await notifyUrlOf(byDefault, site.siteId), url)
      const paid = await api.newPayment(cardPayment({ amount: rub('9.00') }))
      // the service's delivery attempt, refused by its policy and recorded as such, is what the listener reports
      await listener.until('the refusal told', (out) => (out.includes(REFUSED_BY_SERVICE) ? true : undefined))
      const outbox = (await api.get('/notifications')).body as {
        resourceId: string
        url: string
        attemptLog: { httpStatus?: number; error?: string }[]
      }[]
      assert.deepEqual(
        outbox.map((n) => [n.resourceId, n.url]),
        [[paid, url]],
      )
      assert.ok(outbox[0].attemptLog.length >= 1)
      for (const a of outbox[0].attemptLog)
        assert.deepEqual([a.httpStatus, a.error], [undefined, 'refused: private address'])
      // a second notification, refused too, is not told again
      await api.newPayment(cardPayment({ amount: rub('8.00') }))
      listener.proc.kill('SIGTERM')
      assert.equal(await listener.exited, 0)
      const out = listener.lines()
      assert.equal(out.filter((l) => l === REFUSED_BY_SERVICE).length, 1, out.join('\n'))
      assert.ok(!out.some((l) => / signature (OK|BAD)/.test(l)), out.join('\n'))
      assert.equal(await notifyUrlOf(byDefault, site.siteId), null)
    } finally {
      listener.proc.kill('SIGKILL')
    }
  })

  test('a site that does not exist, or a --forward off this machine: one line, exit code 1 or 2', async () => {
    const missing = listen(allowing, ['--site', uid('no-such-site')])
    assert.equal(await missing.exited, 1)
    assert.match(missing.lines().join('\n'), /no site "no-such-site-.*" \(npm run site -- list shows the sites\)/)
    const far = listen(allowing, ['--forward', 'https://shop.example/hook'])
    assert.equal(await far.exited, 2)
    assert.match(far.lines().join('\n'), /an http\(s\) URL on this machine/)
  })
})
