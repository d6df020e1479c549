// The front door's judgement of the message itself, sent byte for byte over a socket of its own (no HTTP
// client would send these): a Transfer-Encoding other than exactly `chunked` is a 400 before anything is
// dispatched, and a chunked body that breaks off does nothing (a bodiless write included: a token shown
// once is not made and lost); Host is required on HTTP/1.1, once, and must be a host; an absolute-form
// target is served (RFC 9112 §3.2.2); dot segments, doubled slashes and backslashes in an API path are the
// JSON 400, never Next.js's plain-text 308.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import { before, describe, test } from 'node:test'
import { BASE_URL, cardPayment, newSite, uid } from '../support/api.ts'
import { ORIGIN, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'
import { assertDocumented, rawAnswer } from '../support/openapi-check.ts'

const { hostname, port } = new URL(BASE_URL)

/**
 * The bytes sent as they are on a fresh connection; the whole answer, read until the server closes (every
 * request here asks it to, or is refused and closed), or '' when it closed without one. The client's side
 * stays open: a half-closed connection is given up by Node's server before a slow answer.
 */
function exchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(Buffer.from(bytes, 'latin1')))
    let text = ''
    socket.on('data', (c) => (text += c.toString('latin1')))
    socket.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ECONNRESET' || e.code === 'EPIPE' ? resolve(text) : reject(e),
    )
    socket.on('close', () => resolve(text))
  })
}

/** the answer read, checked against the OpenAPI document when it is to a documented path */
function answerTo(method: string, path: string, raw: string) {
  const a = rawAnswer(method, path, raw)
  assertDocumented(a)
  return { ...a, body: a.text ? JSON.parse(a.text) : undefined }
}

/** the contract's error shape, with a trace id and a request id */
function assertRefused(a: ReturnType<typeof answerTo>, status: number, errorCode: string, what: string) {
  assert.equal(a.status, status, `${what}: ${a.status} ${a.text}`)
  assert.match(a.headers['content-type'] ?? '', /^application\/json/, what)
  assert.equal(a.body.serviceName, 'payin-core', what)
  assert.equal(a.body.errorCode, errorCode, what)
  assert.equal(a.body.traceId, a.headers['x-trace-id'], what)
  assert.match(a.headers['x-request-id'] ?? '', /^[0-9a-f]{20}$/, `${what}: a request id`)
}

const tokenCount = async (siteId: string) =>
  (await sql(`SELECT count(*)::int AS n FROM "SiteToken" WHERE "siteId" = $1`, [siteId]))[0].n
const paymentCount = async (siteId: string) =>
  (await sql(`SELECT count(*)::int AS n FROM "Payment" WHERE "siteId" = $1`, [siteId]))[0].n

describe('Transfer-Encoding', () => {
  let site: { siteId: string; token: string }
  let session: string
  before(async () => {
    site = await newSite('framing')
    session = await signIn(site)
  })

  const paymentRequest = (headers: string, body: string, paymentId = uid('te')) =>
    `PUT /api/sites/${site.siteId}/payments/${paymentId} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${site.token}\r\nContent-Type: application/json\r\n${headers}\r\n${body}`
  // a bodiless write whose answer is shown once: the dashboard's new API token
  const newTokenRequest = (headers: string, body: string) =>
    `POST /dashboard/actions/settings/tokens HTTP/1.1\r\nHost: ${hostname}\r\nOrigin: ${ORIGIN}\r\nCookie: payin_dashboard=${session}\r\n${headers}\r\n${body}`
  const json = JSON.stringify(cardPayment())
  const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`

  test('a coding other than exactly chunked is a 400 in the error shape, and nothing is done', async () => {
    for (const coding of ['gzip', 'xchunked', 'gzip, chunked', 'chunked, chunked', 'identity', 'chunked;q=1', ' ']) {
      const headers = `Transfer-Encoding: ${coding}\r\n`
      const body = chunk(json) + '0\r\n\r\n'
      const payments = await paymentCount(site.siteId)
      assertRefused(
        answerTo('PUT', `/api/sites/${site.siteId}/payments/x`, await exchange(paymentRequest(headers, body))),
        400,
        'http.message.conversion.failed',
        `payment, ${coding}`,
      )
      assert.equal(await paymentCount(site.siteId), payments, `payment, ${coding}: nothing written`)
      const tokens = await tokenCount(site.siteId)
      const a = rawAnswer(
        'POST',
        '/dashboard/actions/settings/tokens',
        await exchange(newTokenRequest(headers, '0\r\n\r\n')),
      )
      assert.equal(a.status, 400, `new token, ${coding}: ${a.text}`)
      assert.equal(JSON.parse(a.text).errorCode, 'http.message.conversion.failed')
      assert.equal(await tokenCount(site.siteId), tokens, `new token, ${coding}: no token made`)
    }
    // two Transfer-Encoding lines are one list (chunked, chunked): refused too
    const twice = await exchange(
      paymentRequest('Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n', chunk(json) + '0\r\n\r\n'),
    )
    assert.equal(rawAnswer('PUT', '/x', twice).status, 400)
  })

  test('chunked, in any letter case, is served', async () => {
    for (const coding of ['chunked', 'Chunked', 'CHUNKED']) {
      const paymentId = uid('te')
      const a = answerTo(
        'PUT',
        `/api/sites/${site.siteId}/payments/${paymentId}`,
        await exchange(
          paymentRequest(`Transfer-Encoding: ${coding}\r\nConnection: close\r\n`, chunk(json) + '0\r\n\r\n', paymentId),
        ),
      )
      assert.equal(a.status, 200, `${coding}: ${a.text}`)
      assert.equal(a.body.status.value, 'COMPLETED')
    }
  })

  test('a chunked body that breaks off (a bad chunk size, a bad chunk end) does nothing: a 400 or a closed connection', async () => {
    const broken = [`zz\r\n${json}\r\n0\r\n\r\n`, `${chunk(json)}zz\r\n\r\n`, `5\r\n${json}\r\n0\r\n\r\n`, `-1\r\n\r\n`]
    for (const body of broken) {
      const payments = await paymentCount(site.siteId)
      const offset = fs.statSync(process.env.SERVER_LOG!).size
      const raw = await exchange(paymentRequest('Transfer-Encoding: chunked\r\n', body))
      if (raw)
        assertRefused(
          answerTo('PUT', `/api/sites/${site.siteId}/payments/x`, raw),
          400,
          'http.message.conversion.failed',
          `payment ${JSON.stringify(body.slice(0, 20))}`,
        )
      const tokens = await tokenCount(site.siteId)
      const rawToken = await exchange(newTokenRequest('Transfer-Encoding: chunked\r\n', body))
      if (rawToken) assert.equal(rawAnswer('POST', '/x', rawToken).status, 400, rawToken)
      // the handlers saw a body that never ended: nothing was made (counted once both have given up)
      await handlersGaveUp(offset, [
        new RegExp(`"path":"/api/sites/${site.siteId}/payments/te-`),
        /"path":"\/dashboard\/actions\/settings\/tokens"/,
      ])
      assert.equal(
        await paymentCount(site.siteId),
        payments,
        `payment ${JSON.stringify(body.slice(0, 20))}: nothing written`,
      )
      assert.equal(
        await tokenCount(site.siteId),
        tokens,
        `new token ${JSON.stringify(body.slice(0, 20))}: no token made`,
      )
    }
  })

  test('a whole chunked body to the bodiless new-token action is read to its end first: the token is made and answered', async () => {
    const tokens = await tokenCount(site.siteId)
    const raw = await exchange(
      newTokenRequest('Transfer-Encoding: chunked\r\nConnection: close\r\n', chunk('{}') + '0\r\n\r\n'),
    )
    const a = rawAnswer('POST', '/x', raw)
    assert.equal(a.status, 200, a.text)
    assert.match(JSON.parse(a.text).token, /^sk_/)
    assert.equal(await tokenCount(site.siteId), tokens + 1)
  })
})

/** the server log's lines written since `offset` (a byte position) */
const logSince = (offset: number) =>
  fs.readFileSync(process.env.SERVER_LOG!).subarray(offset).toString('utf8').split('\n')

/**
 * Waits for the log lines of handlers that saw a body break off: each logs its request as a 499 (the
 * client's body never ended) once it has given up, and only then may a count say it did nothing.
 */
async function handlersGaveUp(offset: number, paths: RegExp[]): Promise<void> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const lines = logSince(offset)
    const missing = paths.filter((p) => !lines.some((l) => l.includes('"status":499') && p.test(l)))
    if (!missing.length) return
    if (Date.now() > deadline) throw new Error(`no 499 log line for ${missing.join(', ')} in:\n${lines.join('\n')}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('Host', () => {
  const health = (head: string) => exchange(`GET /api/health ${head}\r\n\r\n`)

  test('an HTTP/1.1 request without Host, with two, or with one that is not a host: the 400 in the error shape, with a request id', async () => {
    for (const [head, what] of [
      ['HTTP/1.1\r\nConnection: close', 'no Host'],
      ['HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close', 'two Host lines'],
      ['HTTP/1.1\r\nHost: a\r\nhost: a\r\nConnection: close', 'the same Host twice'],
      ['HTTP/1.1\r\nHost: a b\r\nConnection: close', 'a space'],
      ['HTTP/1.1\r\nHost: a/b\r\nConnection: close', 'a path'],
      ['HTTP/1.1\r\nHost: user@a\r\nConnection: close', 'user information'],
      ['HTTP/1.1\r\nHost: [::1\r\nConnection: close', 'an open bracket'],
    ]) {
      assertRefused(answerTo('GET', '/api/health', await health(head)), 400, 'http.message.conversion.failed', what)
    }
  })

  test('HTTP/1.0 without Host, and every valid form of Host, are served', async () => {
    for (const head of [
      'HTTP/1.0',
      'HTTP/1.1\r\nHost: 127.0.0.1:3999\r\nConnection: close',
      'HTTP/1.1\r\nHost: [::1]:80\r\nConnection: close',
      'HTTP/1.1\r\nHost: shop.example\r\nConnection: close',
      'HTTP/1.1\r\nHost:\r\nConnection: close',
    ]) {
      const a = answerTo('GET', '/api/health', await health(head))
      assert.equal(a.status, 200, `${head}: ${a.text}`)
    }
  })
})

describe('request targets', () => {
  const get = (target: string) =>
    exchange(`GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`)

  test('an absolute-form target is served as its path, on its own authority', async () => {
    for (const target of [
      `http://${hostname}:${port}/api/health`,
      `HTTP://${hostname}:${port}/api/health`,
      `https://shop.example/api/health?x=1`,
      `http://${hostname}:${port}/api/health/`,
    ]) {
      const a = answerTo('GET', '/api/health', await get(target))
      assert.equal(a.status, 200, `${target}: ${a.text}`)
      assert.deepEqual(a.body, { status: 'ok' })
    }
    // the API's own answers too: an unknown token, in the error shape
    const site = await newSite('absolute')
    const a = answerTo(
      'GET',
      '/api/sites/x/payments/y',
      await get(`http://${hostname}:${port}/api/sites/${site.siteId}/payments/nope`),
    )
    assert.equal(a.status, 401, a.text)
    // a page, answered for the target's authority
    assert.equal(rawAnswer('GET', '/', await get(`http://${hostname}:${port}/`)).status, 200)
  })

  test('an absolute-form target without a host, with user information, or of another scheme: 400 in the error shape', async () => {
    for (const target of [
      'http:///api/health',
      'http://user@host/api/health',
      'ftp://host/api/health',
      'http://a b/api/health',
      '*',
    ]) {
      assertRefused(answerTo('GET', '/api/health', await get(target)), 400, 'http.message.conversion.failed', target)
    }
  })

  test('dot segments, doubled slashes and backslashes in an API path: the JSON 400, never a 308', async () => {
    const site = await newSite('dots')
    for (const target of [
      '/api/../api/health',
      '/api/%2e%2e/api/health',
      '/api/%2E./api/health',
      '/api/.%2e/api/health',
      '/api/./health',
      '/api/%2e/health',
      '/api/health/.',
      '/api/health/..',
      '/api//health',
      '//api/health',
      '///api/health',
      '/api\\health',
      `/api/sites/${site.siteId}/payments/%2e%2e`,
      `/api/sites/${site.siteId}//payments/p`,
      `/partner/v1//sites/${site.siteId}/bills/b`,
      `/partner/v1/sites/${site.siteId}/../${site.siteId}/bills/b`,
      `/partner/payin/v1/sites/${site.siteId}/bills/%2e`,
    ]) {
      const a = answerTo('GET', target, await get(target))
      assertRefused(a, 400, 'validation.error', target)
      assert.ok(a.body.cause?.path, `${target}: the cause names the path`)
    }
    // trailing slashes are still served as without them
    assert.equal(rawAnswer('GET', '/api/health', await get('/api/health//')).status, 200)
  })
})

describe('a connection after its first message', () => {
  /**
   * a connection on which bytes are sent in steps, each when the answers so far hold `until`; the whole text read at
   * the close
   */
  function conversation(steps: { send: string; until?: RegExp }[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname)
      let text = ''
      let step = 0
      const next = () => {
        while (step < steps.length) {
          const s = steps[step]
          if (s.until && !s.until.test(text)) return
          step++
          socket.write(Buffer.from(s.send, 'latin1'))
        }
      }
      socket.on('connect', next)
      socket.on('data', (c) => {
        text += c.toString('latin1')
        next()
      })
      socket.on('error', (e: NodeJS.ErrnoException) =>
        e.code === 'ECONNRESET' || e.code === 'EPIPE' ? resolve(text) : reject(e),
      )
      socket.on('close', () => resolve(text))
    })
  }
  const statuses = (text: string) => [...text.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((m) => Number(m[1]))
  const health = `GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`
  const answered = /\{"status":"ok"\}(\r\n0\r\n\r\n)?/

  test('a malformed message on a kept-alive connection, after an answered request: the 200, then the 400 in the error shape; nothing thrown', async () => {
    const offset = fs.statSync(process.env.SERVER_LOG!).size
    const text = await conversation([{ send: health }, { send: 'GARBAGE\r\n\r\n', until: answered }])
    assert.deepEqual(statuses(text), [200, 400], text)
    assert.match(text.slice(text.lastIndexOf('HTTP/1.1 400')), /"errorCode":"http\.message\.conversion\.failed"/)
    // the same, the bad bytes arriving a few at a time
    const slow = await conversation([
      { send: health },
      { send: 'BAD\r\n', until: answered },
      { send: 'x' },
      { send: 'y\r\n\r\n' },
    ])
    assert.deepEqual(statuses(slow), [200, 400], slow)
    assert.doesNotMatch(logSince(offset).join('\n'), /uncaughtException/)
  })

  test('pipelined: a request and a malformed message after it in one packet: the request answered first, then the 400', async () => {
    const text = await conversation([{ send: `${health}NOT HTTP\r\n\r\n` }])
    assert.deepEqual(statuses(text), [200, 400], text)
  })

  test('a request answered before its chunked body was read, the body then breaking off: the connection is cut, no second answer', async () => {
    const offset = fs.statSync(process.env.SERVER_LOG!).size
    const text = await conversation([
      { send: `GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n` },
      { send: 'zz\r\n', until: answered },
    ])
    assert.deepEqual(statuses(text), [200], text)
    assert.doesNotMatch(logSince(offset).join('\n'), /uncaughtException/)
  })

  test('Upgrade requests are served as requests, through the front door; CONNECT is the JSON 405; an unknown Expect is ignored', async () => {
    for (const upgrade of ['websocket', 'h2c']) {
      const a = answerTo(
        'GET',
        '/api/health',
        await exchange(
          `GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\nConnection: Upgrade\r\nUpgrade: ${upgrade}\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n`,
        ),
      )
      assert.equal(a.status, 200, `${upgrade}: ${a.text}`)
      const odd = answerTo(
        'GET',
        '/api/x/../y',
        await exchange(
          `GET /api/x/../y HTTP/1.1\r\nHost: ${hostname}\r\nConnection: Upgrade\r\nUpgrade: ${upgrade}\r\n\r\n`,
        ),
      )
      assertRefused(odd, 400, 'validation.error', `${upgrade} with a dot segment`)
      const page = rawAnswer(
        'GET',
        '/dashboard',
        await exchange(
          `GET /dashboard HTTP/1.1\r\nHost: ${hostname}\r\nConnection: Upgrade, close\r\nUpgrade: ${upgrade}\r\n\r\n`,
        ),
      )
      assert.ok(page.status > 0 && page.status < 500, `${upgrade} to a page: ${page.status}`)
    }
    const connect = rawAnswer(
      'CONNECT',
      '/',
      await exchange(`CONNECT ${hostname}:${port} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`),
    )
    assert.equal(connect.status, 405, connect.text)
    assert.equal(JSON.parse(connect.text).errorCode, 'http.method.not.allowed')
    const expect = answerTo(
      'GET',
      '/api/health',
      await exchange(`GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n`),
    )
    assert.equal(expect.status, 200, expect.text)
  })

  test('a client resetting an idle kept-alive connection leaves nothing thrown', async () => {
    const offset = fs.statSync(process.env.SERVER_LOG!).size
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => socket.write(health))
      let text = ''
      socket.on('data', (c) => {
        text += c.toString('latin1')
        if (answered.test(text)) socket.resetAndDestroy()
      })
      socket.on('error', reject)
      socket.on('close', () => resolve())
    })
    // a later request's log line: the reset, handled before it, is in the log by then if it was logged at all
    const marker = uid('after-reset')
    await (await fetch(`${BASE_URL}/api/${marker}`)).arrayBuffer()
    await logged(offset, marker)
    assert.doesNotMatch(logSince(offset).join('\n'), /uncaughtException/)
  })
})

/** waits for the server log to hold `text` after `offset` */
async function logged(offset: number, text: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !logSince(offset).some((l) => l.includes(text));) {
    if (Date.now() > deadline) throw new Error(`${text} was not logged within 20 s`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('second review', () => {
  const conversationText = (bytes: string) => exchange(bytes)

  test('a target whose path starts with // and names no host (//a:b/x, //[::1/api) is answered, nothing thrown', async () => {
    const offset = fs.statSync(process.env.SERVER_LOG!).size
    for (const target of [
      '//a:b/x',
      '//evil:99999/api',
      '//[::1/api',
      '//999.999.999.999/../api/x',
      '//evil:99999/..',
      `http://${hostname}//a:b/api`,
    ]) {
      const a = rawAnswer(
        'GET',
        '/x',
        await conversationText(`GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`),
      )
      assert.ok(a.status >= 200 && a.status < 500, `${target}: ${a.status} ${a.text.slice(0, 200)}`)
    }
    assert.doesNotMatch(logSince(offset).join('\n'), /uncaughtException/)
  })

  test("Next.js's image optimiser is no route here: the JSON 404, whatever it is asked to fetch", async () => {
    for (const query of [
      'url=%2F%25zz&w=64&q=75',
      'url=%2Fdashboard%2Fpayments&w=64&q=75',
      'url=%2Ficon.svg&w=64&q=75',
      '',
    ]) {
      const a = answerTo(
        'GET',
        '/_next/image',
        await conversationText(`GET /_next/image?${query} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`),
      )
      assertRefused(a, 404, 'payin.resource.not.found', query)
    }
  })

  test('a request pipelined after an Upgrade request: the Upgrade request is answered and its connection closed, nothing left hanging', async () => {
    const text = await conversationText(
      `GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\nGET /api/health HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`,
    )
    assert.match(text, /^HTTP\/1\.1 200 /, text)
    assert.match(text, /\r\nConnection: close\r\n/i, text)
  })

  test('a body that breaks off after a complete request on the same connection: the earlier answer first, then the 400; nothing written', async () => {
    const site = await newSite('broken-after')
    const billId = uid('b')
    const text = await conversationText(
      `GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\n\r\nPUT /api/sites/${site.siteId}/bills/${billId} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${site.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
    )
    assert.deepEqual(
      [...text.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((m) => Number(m[1])),
      [200, 400],
      text,
    )
    assert.equal((await sql(`SELECT count(*)::int AS n FROM "Bill" WHERE "siteId" = $1`, [site.siteId]))[0].n, 0)
  })

  test("the payment page's 3-D Secure return posted something that is no form: back to the bill's page, logged as info, not as an error", async () => {
    const offset = fs.statSync(process.env.SERVER_LOG!).size
    for (const [type, body] of [
      ['application/json', '{}'],
      ['multipart/form-data; boundary=', 'x'],
      ['multipart/form-data', '--x\r\n'],
    ]) {
      const res = await fetch(`${BASE_URL}/pay/nobill/3ds-return`, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body,
        redirect: 'manual',
      })
      await res.arrayBuffer()
      assert.equal(res.status, 303, type)
      const traceId = res.headers.get('x-trace-id')!
      await logged(offset, `"traceId":"${traceId}"`)
      const line = logSince(offset).find((l) => l.includes(`"traceId":"${traceId}"`))!
      assert.equal(JSON.parse(line).level, 'info', line)
    }
  })
})

describe('third review: answers owed on a connection', () => {
  let site: { siteId: string; token: string }
  before(async () => {
    site = await newSite('owed')
  })
  const json = JSON.stringify(cardPayment())
  const put = (paymentId: string, version = '1.1', extra = '') =>
    `PUT /api/sites/${site.siteId}/payments/${paymentId} HTTP/${version}\r\nHost: ${hostname}\r\nAuthorization: Bearer ${site.token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n${extra}\r\n${json}`
  const exists = async (paymentId: string) =>
    (
      await sql(`SELECT count(*)::int AS n FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2`, [
        site.siteId,
        paymentId,
      ])
    )[0].n === 1
  const statusesOf = (text: string) => [...text.matchAll(/^HTTP\/1\.[01] (\d{3}) /gm)].map((m) => Number(m[1]))

  test('a write pipelined behind an answer that closes the connection (a refusal, HTTP/1.0) is not run: no write without its answer', async () => {
    for (const [first, what] of [
      [`GET /x# HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`, 'a refused target'],
      [`TRACE / HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`, 'a method not served'],
      [`GET /api/health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`, 'two Host lines'],
      [put(uid('first'), '1.0', 'Connection: keep-alive\r\n'), 'an HTTP/1.0 request'],
    ]) {
      const second = uid('behind')
      const text = await exchange(first + put(second))
      assert.equal(statusesOf(text).length, 1, `${what}: ${text.slice(0, 300)}`)
      assert.equal(await exists(second), false, `${what}: the pipelined write was made, its answer lost`)
    }
  })

  test('a client that half-closes after its requests still gets every answer', async () => {
    const ids = [uid('half'), uid('half')]
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => socket.end(put(ids[0]) + put(ids[1])))
      let out = ''
      socket.on('data', (c) => (out += c.toString('latin1')))
      socket.on('error', reject)
      socket.on('close', () => resolve(out))
    })
    assert.deepEqual(statusesOf(text), [200, 200], text)
    for (const id of ids) assert.equal(await exists(id), true)
  })

  test('CONNECT pipelined behind a write: the write answered first, then the 405', async () => {
    const id = uid('before-connect')
    const text = await exchange(put(id) + `CONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\n`)
    assert.deepEqual(statusesOf(text), [200, 405], text)
    assert.equal(await exists(id), true)
  })
})
