// Apple Pay and Google Pay tokens in the sandbox. A real wallet token is encrypted for the merchant's payment
// processor and cannot be read here, so the sandbox takes only its own test tokens, whose text decides the
// outcome (as a test card's number does), and refuses anything else. Pure functions: nothing stores a token.
import { inflateSync } from 'node:zlib'

/** the outcome of a test token: approved, declined with a reason, or a 3-D Secure challenge */
export type WalletOutcome =
  | { kind: 'approved' }
  | { kind: 'declined'; reason: 'ACQUIRING_DECLINED' | 'ACQUIRING_INSUFFICIENT_FUNDS' }
  | { kind: 'threeDS' }

/** the sandbox's wallet test tokens, by their text */
export const WALLET_TEST_TOKENS: Readonly<Record<string, WalletOutcome>> = {
  'sandbox-approved': { kind: 'approved' },
  'sandbox-declined': { kind: 'declined', reason: 'ACQUIRING_DECLINED' },
  'sandbox-insufficient-funds': { kind: 'declined', reason: 'ACQUIRING_INSUFFICIENT_FUNDS' },
  'sandbox-3ds': { kind: 'threeDS' },
}

/** the masked card of the sandbox's device account behind every wallet token, by wallet */
export const WALLET_DEVICE_CARDS = { APPLE_PAY_TOKEN: '411111******1111', GOOGLE_PAY_TOKEN: '555555******4444' }

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** the bytes of a text in standard base64 (padded), or undefined when it is not that */
const base64Bytes = (t: string): Buffer | undefined =>
  BASE64.test(t) && t.length % 4 === 0 ? Buffer.from(t, 'base64') : undefined

/**
 * The test token a wallet token's text stands for, or undefined: the text itself, or its base64, or the base64 of
 * its zlib stream (how the Go client sendtips/qiwi sends Google Pay tokens).
 */
export function walletTestToken(text: string): string | undefined {
  const t = text.trim()
  if (Object.hasOwn(WALLET_TEST_TOKENS, t)) return t
  const bytes = base64Bytes(t)
  if (!bytes) return undefined
  for (const decoded of [bytes, inflated(bytes)]) {
    const name = decoded?.toString('utf8').trim()
    if (name !== undefined && Object.hasOwn(WALLET_TEST_TOKENS, name)) return name
  }
  return undefined
}

/**
 * The test token of an Apple Pay token given as one string: a test token as walletTestToken reads it, or the base64
 * of Apple's PKPaymentToken JSON (what the Go client's ApplePay takes) whose `data` is one.
 */
export function applePayTestToken(text: string): string | undefined {
  const direct = walletTestToken(text)
  if (direct !== undefined) return direct
  const bytes = base64Bytes(text.trim())
  if (!bytes) return undefined
  try {
    const token: unknown = JSON.parse(bytes.toString('utf8'))
    const data = (token as { data?: unknown } | null)?.data
    return typeof data === 'string' ? walletTestToken(data) : undefined
  } catch {
    return undefined
  }
}

function inflated(bytes: Buffer): Buffer | undefined {
  try {
    // a test token is a few bytes: a larger stream is not one (and is not inflated further)
    return inflateSync(bytes, { maxOutputLength: 1024 })
  } catch {
    return undefined
  }
}

/** the outcome of a wallet token's test token (as walletTestToken found it) */
export const walletOutcome = (testToken: string): WalletOutcome => WALLET_TEST_TOKENS[testToken]
