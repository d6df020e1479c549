// The API wrapper on its own (it takes a Web Request and returns a Response): unexpected exceptions
// become the contract's 500 without internals, and the log line masks card numbers; text PostgreSQL
// cannot store is a 400; a body cut off by the client is a 499 warning.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { z } from 'zod'
import { apiRoute, endpoint } from '../../lib/api/api-route.ts'

const route = apiRoute({
  POST: endpoint({
    access: 'public',
    params: z.object({}),
    body: z.object({ pan: z.string() }),
    handle: async ({ body }) => {
      throw new Error(`database exploded while handling ${body.pan} at /srv/secret/path.ts:42`)
    },
  }),
})

async function captureStdout<T>(work: () => Promise<T>): Promise<{ result: T; out: string }> {
  const write = process.stdout.write.bind(process.stdout)
  let out = ''
  process.stdout.write = ((chunk: string | Uint8Array) => ((out += String(chunk)), true)) as typeof process.stdout.write
  try {
    return { result: await work(), out }
  } finally {
    process.stdout.write = write
  }
}

test('an unexpected exception is a 500 internal.error without internals; the log line masks the card number', async () => {
  const req = new Request('http://x/api/anything', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ pan: '4111111111111111' }),
  })
  const { result: res, out } = await captureStdout(() => route.POST(req, { params: Promise.resolve({}) }))
  assert.equal(res.status, 500)
  const text = await res.text()
  const body = JSON.parse(text)
  assert.equal(body.errorCode, 'internal.error')
  assert.equal(body.traceId, res.headers.get('x-trace-id'))
  assert.doesNotMatch(text, /exploded|secret|4111111111111111/)
  const line = JSON.parse(out.trim().split('\n').at(-1)!)
  assert.equal(line.status, 500)
  assert.equal(line.traceId, body.traceId)
  assert.match(line.error, /database exploded/)
  assert.doesNotMatch(out, /4111111111111111/)
  assert.match(out, /\[redacted\]/)
})

test('a method the route does not serve is a 405 with Allow', async () => {
  const res = await route.GET(new Request('http://x/api/anything'), { params: Promise.resolve({}) })
  assert.equal(res.status, 405)
  assert.equal(res.headers.get('allow'), 'POST')
  assert.equal((await res.json()).errorCode, 'http.method.not.allowed')
})

const echo = apiRoute({
  POST: endpoint({
    access: 'public',
    params: z.object({}),
    body: z.looseObject({ comment: z.string().optional() }),
    handle: async ({ body }) => body,
  }),
})

const post = (body: string | ReadableStream<Uint8Array>) =>
  echo.POST(
    new Request('http://x/api/echo', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit),
    {
      params: Promise.resolve({}),
    },
  )

test('a NUL character or a lone surrogate anywhere in the body, in a value or a key, is a 400 naming each path', async () => {
  const body = JSON.stringify({ comment: 'a\u0000', x: [{ y: 'ok' }, { y: '\ud800' }], m: { ['k\u0000']: 'v' } })
  const { result: res } = await captureStdout(() => post(body))
  assert.equal(res.status, 400)
  const answer = await res.json()
  assert.equal(answer.errorCode, 'validation.error')
  // the key's NUL is named as the text \u0000, not sent back as the character
  assert.deepEqual(Object.keys(answer.cause).sort(), ['comment', 'm.k\\u0000', 'x[1].y'])
})

test("fields named like Object.prototype's members (constructor, toString, __proto__ …) are named as any other", async () => {
  const names = Object.getOwnPropertyNames(Object.prototype)
  const body = `{${names.map((n) => `${JSON.stringify(n)}:"\\u0000"`).join(',')},"comment":{"valueOf":"\\ud800"}}`
  const { result: res } = await captureStdout(() => post(body))
  assert.equal(res.status, 400)
  const answer = JSON.parse(await res.text())
  assert.equal(answer.errorCode, 'validation.error')
  // every name an own member of `cause` (JSON.parse keeps `__proto__` as one), and `comment`'s wrong type named too
  assert.deepEqual(Object.keys(answer.cause).sort(), [...names, 'comment', 'comment.valueOf'].sort())
  for (const n of names) assert.match(answer.cause[n][0], /NUL/)
})

test('other control characters pass', async () => {
  const { result: res } = await captureStdout(() => post(JSON.stringify({ comment: '\u0001\u001f\u007f\t' })))
  assert.equal(res.status, 200)
  assert.equal((await res.json()).comment, '\u0001\u001f\u007f\t')
})

test('a body whose stream breaks off (the client went away) is logged once as a 499 warning, without a stack', async () => {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode('{"comment":'))
      c.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
    },
  })
  const { result: res, out } = await captureStdout(() => post(body))
  assert.equal(res.status, 499)
  const lines = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
  assert.equal(lines.length, 1)
  assert.equal(lines[0].level, 'warn')
  assert.equal(lines[0].status, 499)
  assert.equal(lines[0].aborted, true)
  assert.equal(lines[0].error, undefined)
  assert.equal(lines[0].requestId, res.headers.get('x-request-id'))
})
