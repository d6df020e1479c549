// The payment page's abuse limits, kept in PostgreSQL so that every instance enforces the same numbers:
// - a bill whose last PAGE_BILL_ATTEMPTS (5) page attempts all failed (declined, or still unfinished)
//   pauses for PAGE_BILL_PAUSE_SECONDS (600) after the last of them; the payer is told when to retry.
//   Checked under the bill's row lock, in the transaction that writes the attempt, so parallel
//   attempts cannot slip past it.
// - a client address may start PAGE_CLIENT_ATTEMPTS (20) attempts per PAGE_CLIENT_WINDOW_SECONDS
//   (600), across bills; the next ones wait for the window's end. Counted in fixed windows, one
//   statement per attempt; the address is stored only as a keyed hash.
// Either limit is off at 0. API payments are not counted: they are the merchant's, behind its token. A client's
// bills made by links (/create) are counted alike, in a count of their own.
import { settings } from '../config'
import { ApiError } from '../http/api-error'
import { fingerprint } from '../security/keyed-hash'
import { lastPageAttempts, type Tx } from '../settlement/bill-store'
import { countClientAttemptRow, forgetOldClientWindows } from './attempt-store'

/** a refusal the page explains: `bill.paused` or `client.slowed`, with the seconds to wait */
export function attemptsLimited(kind: 'bill.paused' | 'client.slowed', retryAfterSeconds: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds))
  return new ApiError(
    429,
    'rate.limit.exceeded',
    kind === 'bill.paused'
      ? 'Too many unsuccessful attempts on this bill'
      : 'Too many payment attempts from this client',
    'Too many attempts',
    { [kind === 'bill.paused' ? 'bill' : 'client']: [`${kind}:${seconds}`] },
    { 'Retry-After': String(seconds) },
  )
}

/** Counts one more of `what` (a count of its own) for the client; refuses it once the client's window is full. */
async function countInClientWindow(what: 'page-client' | 'link-client', clientAddress: string): Promise<void> {
  const { clientAttempts, clientWindowMs } = settings().pageLimits
  if (clientAttempts <= 0) return
  const windowSeconds = clientWindowMs / 1000
  const row = await countClientAttemptRow(fingerprint(what, clientAddress || 'unknown'), windowSeconds)
  // now and then, forget windows long past (of either count: they share a table)
  if (what === 'page-client' && Math.random() < 0.01) await forgetOldClientWindows(windowSeconds)
  if (row && row.count > clientAttempts) throw attemptsLimited('client.slowed', row.retryAfter)
}

/** Counts an attempt of the client; refuses it once the client's window is full. */
export const countClientAttempt = (clientAddress: string) => countInClientWindow('page-client', clientAddress)

/**
 * Counts a bill made by a link without the API (lib/form-links) against the client: as many per window as payment
 * attempts, in a count of their own; refuses it once the window is full.
 */
export const countLinkBill = (clientAddress: string) => countInClientWindow('link-client', clientAddress)

/**
 * Refuses a new attempt on a bill paused by a streak of failed attempts. Runs in the attempt's
 * transaction, after the bill's row is locked.
 */
export async function checkBillStreak(tx: Tx, billRef: string, now: Date): Promise<void> {
  const { billStreak, billPauseMs } = settings().pageLimits
  if (billStreak <= 0) return
  const last = await lastPageAttempts(tx, billRef, billStreak)
  if (last.length < billStreak || last.some((p) => p.status === 'COMPLETED')) return
  const until = last[0].createdAt.getTime() + billPauseMs
  if (until > now.getTime()) throw attemptsLimited('bill.paused', (until - now.getTime()) / 1000)
}
