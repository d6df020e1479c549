// A received notification checked as a merchant's handler checks it (the local listener, scripts/webhooks.ts):
// both signatures with the site's secrets, written from the protocol's description rather than from the
// signing code, so that it catches what a client would catch.
// - `Signature` (production's): hex HMAC-SHA256 over `{id}|{createdDateTime}|{amount.value}` of the body's
//   object, the amount with two decimals; made with the previous secret during a rotation's grace period.
// - `Payin-Signature: t=<unix seconds>,v1=<hex>[,v1=…]`: HMAC-SHA256 of `<t>.<raw body>`, one v1 per secret;
//   a `t` more than five minutes from now is a replay (or a clock far off).
import { createHmac, timingSafeEqual } from 'node:crypto'

/** the longest a `Payin-Signature` may be from now, as the documented handler allows */
export const REPLAY_WINDOW_SECONDS = 300

/** what a notification tells: its type, its object's id, status and amount (as the listener prints them) */
export interface NotificationSummary {
  type: string
  id: string
  status: string
  amount: string
  currency: string
}

export interface NotificationCheck {
  /** null when the body is not a notification at all */
  summary: NotificationSummary | null
  /** why the signatures do not verify; empty when both do */
  problems: string[]
}

const hmacHex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex')
/** equal in constant time; lengths compared as bytes (a header may carry non-ASCII characters) */
const same = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)]
  return x.length === y.length && timingSafeEqual(x, y)
}

const ID_FIELDS: Record<string, string> = { PAYMENT: 'paymentId', CAPTURE: 'captureId', REFUND: 'refundId' }

/** a CHECK_CARD body (a card verification: no amount, its own object and signed fields), summarised */
function readCheckCard(body: Obj): { summary: NotificationSummary; signed: string } | string {
  const o = body.checkPaymentMethod
  if (!isObject(o)) return 'the body has no "checkPaymentMethod" object'
  const summary: NotificationSummary = {
    type: 'CHECK_CARD',
    id: String(o.requestUid ?? '?'),
    status: `${String(o.status ?? '?')}${o.isValidCard === true ? ' (valid card)' : o.isValidCard === false ? ' (invalid card)' : ''}`,
    amount: '0.00',
    currency: '-',
  }
  return { summary, signed: `${summary.id}|${String(o.checkOperationDate)}` }
}

type Obj = Record<string, unknown>
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** the body's envelope read: its type, object and the fields `Signature` covers; or why it cannot be */
function readBody(raw: string): { summary: NotificationSummary; signed: string } | string {
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return 'the body is not JSON'
  }
  if (isObject(body) && body.type === 'CHECK_CARD') return readCheckCard(body)
  if (!isObject(body) || typeof body.type !== 'string' || !ID_FIELDS[body.type])
    return 'the body is not a notification (no type PAYMENT, CAPTURE, REFUND or CHECK_CARD)'
  const o = body[body.type.toLowerCase()]
  if (!isObject(o)) return `the body has no "${body.type.toLowerCase()}" object`
  const amount = isObject(o.amount) ? o.amount : {}
  const status = isObject(o.status) ? o.status : {}
  const value = Number(amount.value)
  const summary: NotificationSummary = {
    type: body.type,
    id: String(o[ID_FIELDS[body.type]] ?? '?'),
    status: String(status.value ?? '?'),
    amount: Number.isFinite(value) ? value.toFixed(2) : '?',
    currency: String(amount.currency ?? '?'),
  }
  return { summary, signed: `${summary.id}|${String(o.createdDateTime)}|${summary.amount}` }
}

/**
 * Checks a notification's raw body and its two signature headers against the site's secrets (the current one and,
 * during a rotation's grace period, the previous one). `now`: for the replay window.
 */
export function checkNotification(
  raw: string,
  headers: { signature?: string; payinSignature?: string },
  secrets: readonly string[],
  now = Date.now(),
): NotificationCheck {
  const read = readBody(raw)
  const problems: string[] = []
  if (typeof read === 'string') problems.push(read)
  else if (!headers.signature) problems.push('no Signature header')
  else if (!secrets.some((s) => same(hmacHex(s, read.signed), headers.signature!)))
    problems.push(`Signature does not match ${read.signed} with the site's secret`)
  problems.push(...payinSignatureProblems(raw, headers.payinSignature, secrets, now))
  return { summary: typeof read === 'string' ? null : read.summary, problems }
}

function payinSignatureProblems(raw: string, header: string | undefined, secrets: readonly string[], now: number) {
  if (!header) return ['no Payin-Signature header']
  const parts = header.split(',').map((p) => p.trim().split('='))
  const t = Number(parts.find(([k]) => k === 't')?.[1])
  if (!Number.isInteger(t)) return ['Payin-Signature has no t=<unix seconds>']
  const away = Math.round(Math.abs(now / 1000 - t))
  const problems: string[] = []
  if (away > REPLAY_WINDOW_SECONDS) problems.push(`Payin-Signature's t is ${away} s from now (a replay?)`)
  const expected = secrets.map((s) => hmacHex(s, `${t}.${raw}`))
  if (!parts.some(([k, v]) => k === 'v1' && v !== undefined && expected.some((e) => same(e, v))))
    problems.push("Payin-Signature does not match the body with the site's secret")
  return problems
}

/** the listener's line for one notification: `<type> <id> <status> <amount> <currency> signature OK` (or BAD: why) */
export function notificationLine(check: NotificationCheck): string {
  const s = check.summary ?? { type: '?', id: '?', status: '?', amount: '?', currency: '?' }
  const verdict = check.problems.length ? `signature BAD: ${check.problems.join('; ')}` : 'signature OK'
  return `${s.type} ${s.id} ${s.status} ${s.amount} ${s.currency} ${verdict}`
}
