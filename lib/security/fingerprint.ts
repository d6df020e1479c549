// Request fingerprints for idempotency: an HMAC-SHA256 (key: SECRET_KEY) of the normalised request
// in canonical JSON. Card numbers and codes enter only this keyed hash, never the database.
import { createHmac } from 'node:crypto'
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

export function fingerprint(kind: string, request: unknown): string {
  const key = settings().secretKey
  if (!key) throw new Error('SECRET_KEY is not set')
  return createHmac('sha256', key).update(kind).update('\0').update(canonical(request)).digest('hex')
}
