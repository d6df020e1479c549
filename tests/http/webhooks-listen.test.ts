// Webhooks to the developer's own machine. A local sandbox (public base URL on localhost or a loopback address,
// NOTIFY_ALLOW_NETWORKS unset) calls loopback receivers; a service with a public base URL refuses them, its error
// naming NOTIFY_ALLOW_NETWORKS; private and metadata addresses stay refused either way. The API, the delivery
// worker and the site command decide alike, from the same settings.
// `npm run webhooks -- listen` (scripts/webhooks.ts), as a child process against an instance of the service with a
// delivery worker: it points the site's notifications at itself, prints one verified line per notification,
// reports a changed body as BAD, forwards each one unchanged, and puts the site's previous URL back on SIGTERM and
// SIGINT. The local instance has a database of its own, so its worker takes no other test's notifications.
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import net from 'node:net'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { PRIVATE_ADDRESS_REFUSAL } from '../../lib/notifications/callback-url.ts'
import { signatureHeaders } from '../../lib/notifications/signing.ts'
import { BASE_URL, cardPayment, client, newSite, request, rub, twoStepPayment, uid } from '../support/api.ts'
import { dropDatabase, freshDatabase } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { receiver, verifiesEveryWay } from '../support/notification-receiver.ts'
import { keepServerOutput } from '../support/server-output.ts'
import { lastLine, siteCommand, siteOk } from '../support/site-command.ts'

// the shell's setting, if any, would decide instead of the default under test
delete process.env.NOTIFY_ALLOW_NETWORKS
const port = Number(new URL(BASE_URL).port)
const localPort = port + 260
const localBase = `http://127.0.0.1:${localPort}`
const database = `payin_hooks_${randomBytes(4).toString('hex')}`
let databaseUrl = ''
let local: Instance | undefined
let publicService: Instance | undefined
/** what the local service, the site command and the listener share: the same database and settings */
let localEnv: NodeJS.ProcessEnv = { ...process.env }

before(async () => {
  databaseUrl = await freshDatabase(database)
  localEnv = { ...process.env, DATABASE_URL: databaseUrl, PUBLIC_BASE_URL: localBase, PORT: String(localPort) }
  ;[local, publicService] = await Promise.all([
    startInstance(localPort, {
      DATABASE_URL: databaseUrl,
      PUBLIC_BASE_URL: localBase,
      NOTIFICATIONS_WORKER: 'on',
      NOTIFY_POLL_MS: '100',
      NOTIFY_RETRY_DELAYS_MS: '300,300,300,300,300',
      NOTIFY_TIMEOUT_MS: '2000',
    }),
    // on the suite's database, no worker
    startInstance(port + 265, { PUBLIC_BASE_URL: 'https://payin.example', SCHEDULER: 'off' }),
  ])
})

after(async () => {
  for (const instance of [local, publicService]) instance?.kill('SIGTERM')
  await Promise.all([local?.exited, publicService?.exited])
  await dropDatabase(database)
})

/** a site with a token on the local service's database, made by the site command */
async function localSite(prefix: string): Promise<{ siteId: string; token: string }> {
  const siteId = uid(prefix)
  return { siteId, token: lastLine(await siteOk(['create', siteId], localEnv)) }
}

async function notifyUrlOf(siteId: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: databaseUrl })
  await c.connect()
  try {
    return (await c.query('SELECT "notifyUrl" FROM "Site" WHERE id = $1', [siteId])).rows[0].notifyUrl
  } finally {
    await c.end()
  }
}

describe('the local-sandbox default', () => {
  test('a local sandbox accepts loopback receivers, and still refuses private and metadata addresses', async () => {
    const api = client(await localSite('hooks-local'), '/api', localBase)
    for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]:9/hook', 'http://localhost:9/hook']) {
      const r = await api.put(`/bills/${uid('bill')}`, {
        amount: rub('3.00'),
        expirationDateTime: new Date(Date.now() + 86_400_000).toISOString(),
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
    // the site command decides as the server does, from the same settings
    const siteId = api.site.siteId
    await siteOk(['notify', siteId, 'http://127.0.0.1:9/hook'], localEnv)
    assert.equal(await notifyUrlOf(siteId), 'http://127.0.0.1:9/hook')
    const metadata = await siteCommand(['notify', siteId, 'http://169.254.169.254/latest'], localEnv)
    assert.equal(metadata.code, 1)
    assert.match(metadata.stderr, /private address .*NOTIFY_ALLOW_NETWORKS=/)
    // NOTIFY_ALLOW_NETWORKS set, even empty, alone decides
    const none = await siteCommand(['notify', siteId, 'http://127.0.0.1:8/hook'], {
      ...localEnv,
      NOTIFY_ALLOW_NETWORKS: '',
    })
    assert.equal(none.code, 1)
    assert.match(none.stderr, /receivers on this machine refused: NOTIFY_ALLOW_NETWORKS= allows no private network/)
    assert.equal(await notifyUrlOf(siteId), 'http://127.0.0.1:9/hook')
  })

  test('a service with a public base URL refuses loopback receivers, naming NOTIFY_ALLOW_NETWORKS', async () => {
    const site = await newSite('hooks-public')
    const api = client(site, '/api', publicService!.base)
    for (const url of ['http://127.0.0.1:8080/hook', 'http://[::1]:3000/hook']) {
      const r = await api.put(`/payments/${uid('pay')}`, cardPayment({ callbackUrl: url }))
      assert.equal(r.status, 400, url)
      assert.deepEqual(r.body.cause, { callbackUrl: [PRIVATE_ADDRESS_REFUSAL] }, url)
      assert.match(r.body.cause.callbackUrl[0], /NOTIFY_ALLOW_NETWORKS=127\.0\.0\.0\/8,::1\/128/)
    }
    const byCommand = await siteCommand(['notify', site.siteId, 'http://127.0.0.1:8080/hook'], {
      ...process.env,
      PUBLIC_BASE_URL: 'https://payin.example',
    })
    assert.equal(byCommand.code, 1)
    assert.match(byCommand.stderr, /the notification URL must not point to a private address/)
    assert.match(byCommand.stderr, /https:\/\/payin\.example is not local \(NOTIFY_ALLOW_NETWORKS=127\.0\.0\.0\/8/)
  })
})

/** the listener as a child process, its output read line by line as it comes */
function listen(args: string[]) {
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/webhooks.ts', 'listen', ...args], {
    env: localEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const changed = new Set<() => void>()
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)))
  const read = (d: Buffer) => {
    output += d
    for (const f of changed) f()
  }
  proc.stdout!.on('data', read)
  proc.stderr!.on('data', read)
  proc.on('exit', () => {
    keepServerOutput('webhooks-listen', output)
    for (const f of changed) f()
  })
  return {
    proc,
    exited,
    lines: () => output.split('\n').filter(Boolean),
    /** resolves with what `pick` finds in the output, once it does (checked at each output) */
    until<T>(what: string, pick: (output: string) => T | undefined, ms = 30_000): Promise<T> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = pick(output)
          if (found !== undefined) {
            changed.delete(check)
            clearTimeout(timer)
            resolve(found)
          } else if (proc.exitCode !== null) {
            changed.delete(check)
            clearTimeout(timer)
            reject(new Error(`the listener exited (${proc.exitCode}) before ${what}:\n${output}`))
          }
        }
        const timer = setTimeout(() => {
          changed.delete(check)
          reject(new Error(`${what}: not within ${ms} ms\n${output}`))
        }, ms)
        changed.add(check)
        check()
      })
    },
  }
}

const listeningUrl = (output: string) => /listening on (http:\/\/127\.0\.0\.1:\d+\/) /.exec(output)?.[1]

describe('npm run webhooks -- listen', () => {
  test('a verified line per notification, forwarded as is; a changed body BAD; old URL back on SIGTERM', async () => {
    const site = await localSite('hooks-listen')
    const api = client(site, '/api', localBase)
    const secret = lastLine(await siteOk(['notify', site.siteId, 'https://shop.example/previous-hook'], localEnv))
    const shop = receiver()
    const shopUrl = `${await shop.start()}/payin-hook`
    const listener = listen(['--site', site.siteId, '--forward', shopUrl])
    try {
      const url = await listener.until('listening', listeningUrl)
      assert.match(listener.lines().join('\n'), /its URL was https:\/\/shop\.example\/previous-hook\)/)
      assert.equal(await notifyUrlOf(site.siteId), url)

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
      // each delivered once, answered 200
      const outbox = (await api.get('/notifications')).body as { state: string; rawBody: string; attempts: number }[]
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
      assert.equal(await notifyUrlOf(site.siteId), 'https://shop.example/previous-hook')
    } finally {
      listener.proc.kill('SIGKILL')
      shop.close()
    }
  })

  test('--port: listens there; a site without a URL has none again after SIGINT; a port in use is told', async () => {
    const site = await localSite('hooks-port')
    const free = net.createServer().listen(0, '127.0.0.1')
    await once(free, 'listening')
    const chosen = (free.address() as net.AddressInfo).port
    // taken: the listener says so and exits, the site's URL untouched
    const busy = listen(['--site', site.siteId, '--port', String(chosen)])
    assert.equal(await busy.exited, 1)
    assert.match(busy.lines().join('\n'), new RegExp(`port ${chosen} is in use`))
    assert.equal(await notifyUrlOf(site.siteId), null)
    await new Promise((r) => free.close(r))

    const listener = listen(['--site', site.siteId, '--port', String(chosen)])
    try {
      const url = await listener.until('listening', listeningUrl)
      assert.equal(url, `http://127.0.0.1:${chosen}/`)
      assert.match(listener.lines().join('\n'), /its URL was none/)
      assert.equal(await notifyUrlOf(site.siteId), url)
      const api = client(site, '/api', localBase)
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
      assert.equal(await notifyUrlOf(site.siteId), null)
    } finally {
      listener.proc.kill('SIGKILL')
    }
  })

  test('a site that does not exist, or a --forward off this machine: one line, exit code 1 or 2', async () => {
    const missing = listen(['--site', uid('no-such-site')])
    assert.equal(await missing.exited, 1)
    assert.match(missing.lines().join('\n'), /no site "no-such-site-.*" \(npm run site -- list shows the sites\)/)
    const far = listen(['--forward', 'https://shop.example/hook'])
    assert.equal(await far.exited, 2)
    assert.match(far.lines().join('\n'), /an http\(s\) URL on this machine/)
  })
})
