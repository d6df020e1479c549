// A merchant's notification receiver on loopback, for the notification tests: it records every request
// (path, headers, raw body) and behaves by path — /fail-twice… answers 500 twice, /slow-once… answers
// the first request after 6 s, /hang-once… never answers the first, /redirect… answers 302, /stall…
// holds every request until release(); anything else answers 200. Waits are event-driven: each
// arrival re-checks what a test waits for.
// Every notification it receives is checked against the OpenAPI document's webhooks (body and signature
// headers): one that does not match fails waitFor and close().
// Also here: the checks existing client libraries of the protocol make, as a merchant would run them.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { EventEmitter } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { documentChecker, UndocumentedAnswer } from './openapi-check.ts'

export interface Received {
  path: string
  signature: string
  payinSignature: string
  /** the Accept header (production's notifications say application/json) */
  accept: string
  body: string
  at: number
}

export function receiver() {
  const got: Received[] = []
  /** notifications that do not match the document's webhooks */
  const undocumented: string[] = []
  const seen = new Map<string, number>()
  const stalled: http.ServerResponse[] = []
  let stalledNow = 0
  let stalledMax = 0
  let released = false
  const events = new EventEmitter()
  events.setMaxListeners(0)
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const path = req.url!
      const n = (seen.get(path) ?? 0) + 1
      seen.set(path, n)
      got.push({
        path,
        signature: String(req.headers.signature ?? ''),
        payinSignature: String(req.headers['payin-signature'] ?? ''),
        accept: String(req.headers.accept ?? ''),
        body,
        at: Date.now(),
      })
      const problem = documentChecker().webhookProblemOf(body, req.headers as Record<string, string | undefined>)
      if (problem) undocumented.push(problem)
      // what a test waits for is counted before it is told of the arrival
      const changed = () => events.emit('change')
      if (path.startsWith('/stall') && !released) {
        stalledMax = Math.max(stalledMax, ++stalledNow)
        res.on('close', () => {
          stalledNow--
          changed()
        })
        stalled.push(res)
        return changed()
      }
      changed()
      if (path.startsWith('/fail-twice') && n <= 2) return res.writeHead(500).end('no')
      if (path.startsWith('/slow-once') && n === 1) return setTimeout(() => res.writeHead(200).end(), 6000)
      if (path.startsWith('/hang-once') && n === 1) return // never answered
      if (path.startsWith('/redirect')) return res.writeHead(302, { Location: '/ok/redirected' }).end()
      res.writeHead(200).end('ok')
    })
  })
  return {
    got,
    /** the most /stall requests held at once */
    get stalledMax() {
      return stalledMax
    },
    get stalledNow() {
      return stalledNow
    },
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    /** answers every held /stall request, and from now on answers them at once */
    release() {
      released = true
      for (const res of stalled.splice(0)) if (!res.writableEnded) res.writeHead(200).end('ok')
    },
    close() {
      server.closeAllConnections()
      server.close()
      if (undocumented.length) throw new UndocumentedAnswer(undocumented[0])
    },
    /** the requests to one path */
    forPath: (p: string) => got.filter((g) => g.path === p),
    /** resolves once `pred` holds for what was received (checked on every arrival) */
    waitFor(pred: (r: Received[]) => boolean, ms = 10_000): Promise<void> {
      if (undocumented.length) return Promise.reject(new UndocumentedAnswer(undocumented[0]))
      if (pred(got)) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const check = () => {
          if (undocumented.length) {
            clearTimeout(timer)
            events.off('change', check)
            return reject(new UndocumentedAnswer(undocumented[0]))
          }
          if (!pred(got)) return
          clearTimeout(timer)
          events.off('change', check)
          resolve()
        }
        const timer = setTimeout(() => {
          events.off('change', check)
          reject(new Error(`the receiver did not see it within ${ms} ms; it saw ${got.map((g) => g.path).join(', ')}`))
        }, ms)
        events.on('change', check)
      })
    },
  }
}

export type Receiver = ReturnType<typeof receiver>

/** the object a notification tells of (a CHECK_CARD's: checkPaymentMethod, as production names it) */
export function objectOf(body: string): any {
  const n = JSON.parse(body)
  return n.type === 'CHECK_CARD' ? n.checkPaymentMethod : n[String(n.type).toLowerCase()]
}

const idOf = (o: any) => o.captureId ?? o.refundId ?? o.paymentId
const hmacHex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex')
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** the object's amount as its JSON text in the body (the object's amount is the first one) */
const amountAsWritten = (body: string) => /"amount":\{"value":(-?[0-9.]+)/.exec(body)?.[1]

/** `{id}|{createdDateTime}|{amount}` signed with the secret matches the `Signature` header */
const signatureMatches =
  (secret: string, r: Pick<Received, 'signature'>, date: string, amount: string | undefined) => (o: any) =>
    same(hmacHex(secret, `${idOf(o)}|${date}|${amount}`), r.signature)

/** Client 1: `Signature` over the values as written in the body. */
export function verifyAsWritten(secret: string, r: Pick<Received, 'signature' | 'body'>): boolean {
  const o = objectOf(r.body)
  return signatureMatches(secret, r, o.createdDateTime, amountAsWritten(r.body))(o)
}

/**
 * `2026-11-23T20:37:38.584+03:00` → `2026-11-23T20:37:38+03:00`, as a client that parses and re-formats the date to
 * seconds does
 */
export function dateToSeconds(text: string): string {
  const offset = /([+-]\d{2}:\d{2}|Z)$/.exec(text)?.[1] ?? 'Z'
  const minutes =
    offset === 'Z' ? 0 : (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)))
  const local = new Date(Date.parse(text) + minutes * 60_000).toISOString().slice(0, 19)
  return `${local}${offset === 'Z' ? '+00:00' : offset}`
}

/** Client 2: re-formats the date to whole seconds with its offset before signing. */
export function verifyDateReformatted(secret: string, r: Pick<Received, 'signature' | 'body'>): boolean {
  const o = objectOf(r.body)
  return signatureMatches(secret, r, dateToSeconds(o.createdDateTime), amountAsWritten(r.body))(o)
}

/** Client 3: re-formats the parsed amount with two decimals (`%.2f`) before signing. */
export function verifyAmountReformatted(secret: string, r: Pick<Received, 'signature' | 'body'>): boolean {
  const o = objectOf(r.body)
  return signatureMatches(secret, r, o.createdDateTime, Number(o.amount.value).toFixed(2))(o)
}

/** `Payin-Signature: t=…,v1=…`: the whole raw body, refused when t is more than 5 minutes away */
export function verifyPayinSignature(
  secret: string,
  r: Pick<Received, 'payinSignature' | 'body'>,
  now = Date.now(),
): boolean {
  const parts = r.payinSignature.split(',').map((p) => p.split('='))
  const t = Number(parts.find(([k]) => k === 't')?.[1])
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > 300) return false
  const expected = hmacHex(secret, `${t}.${r.body}`)
  return parts.some(([k, v]) => k === 'v1' && v !== undefined && same(v, expected))
}

/** every client's check at once (the three `Signature` styles and `Payin-Signature`) */
export function verifiesEveryWay(secret: string, r: Received): boolean {
  return (
    verifyAsWritten(secret, r) &&
    verifyDateReformatted(secret, r) &&
    verifyAmountReformatted(secret, r) &&
    verifyPayinSignature(secret, r)
  )
}
