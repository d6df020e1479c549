// Keyed hashes (HMAC-SHA256, key: SECRET_KEY): request fingerprints for idempotency — the normalised
// request in canonical JSON, so card numbers and codes enter only this hash, never the database — and
// the signatures of what the service issues (3-D Secure messages, payment tokens).
import { createHmac, timingSafeEqual } from 'node:crypto'
import { settings } from '../config'

function canonical(value: unknown): string {
  if (value === undefined) return 'null'
  if (typeof value === 'bigint') return JSON.stringify(value.toString())
  if (value instanceof Date) return JSON.stringify(value.toISOString())
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

function hmac(purpose: string, text: string) {
  const key = settings().secretKey
  if (!key) throw new Error('SECRET_KEY is not set')
  return createHmac('sha256', key).update(purpose).update('\0').update(text)
}

export function fingerprint(kind: string, request: unknown): string {
  return hmac(kind, canonical(request)).digest('hex')
}

/** a signature of `text` for one purpose, base64url */
export function sign(purpose: string, text: string): string {
  return hmac(purpose, text).digest('base64url')
}

/** compares a presented signature in constant time */
export function signatureMatches(purpose: string, text: string, presented: string): boolean {
  const expected = Buffer.from(sign(purpose, text))
  const given = Buffer.from(presented)
  return expected.length === given.length && timingSafeEqual(expected, given)
}
