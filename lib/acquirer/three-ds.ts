// The emulated 3-D Secure messages. A PaReq names the payment it was issued for; a PaRes names the
// payment and the payer's result. Both are signed with the service key, so a PaRes cannot be forged,
// altered to "passed", or replayed on another payment.
import { sign, signatureMatches } from '../security/keyed-hash'

const encode = (text: string) => Buffer.from(text).toString('base64url')
const decode = (text: string) => Buffer.from(text, 'base64url').toString()

function seal(purpose: string, body: string): string {
  return `${encode(body)}.${sign(purpose, body)}`
}

function open(purpose: string, message: string): string | null {
  if (typeof message !== 'string' || message.length > 1024) return null
  const [b, signature, extra] = message.split('.')
  if (!b || !signature || extra !== undefined) return null
  const body = decode(b)
  return signatureMatches(purpose, body, signature) ? body : null
}

/** the PaReq of a payment (its internal id) */
export const issuePareq = (paymentRef: string) => seal('3ds-pareq', paymentRef)

/** the payment a PaReq was issued for, or null when it was not issued by this service */
export const readPareq = (pareq: string) => open('3ds-pareq', pareq)

export const issuePares = (paymentRef: string, passed: boolean) =>
  seal('3ds-pares', `${paymentRef}:${passed ? 'Y' : 'N'}`)

export function readPares(pares: string): { paymentRef: string; passed: boolean } | null {
  const body = open('3ds-pares', pares)
  const m = body ? /^([0-9a-f-]{36}):([YN])$/.exec(body) : null
  return m ? { paymentRef: m[1], passed: m[2] === 'Y' } : null
}
