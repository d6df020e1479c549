// Merchant dashboard sessions. Signing in takes a site id and one of its API tokens; the session is
// then an opaque random id in an httpOnly cookie, stored only as its SHA-256 (a database dump holds no
// usable session). A session ends when signed out, after DASHBOARD_IDLE_MINUTES (480: 8 hours) without
// a request, DASHBOARD_SESSION_MAX_HOURS (24) after signing in however busy, or when the token it was
// opened with is revoked (every lookup joins the token's row).
// Failed sign-ins are counted per client address and per site in fixed windows kept in PostgreSQL, so
// every instance enforces the same numbers; past a limit, sign-ins are refused with one message (signIn).
import { createHash, randomBytes } from 'node:crypto'
import { settings } from '../config'
import { fingerprint } from '../security/keyed-hash'
import { activeTokenOf } from '../sites/site-store'
import { hashToken, SITE_ID } from '../sites/site-tokens'
import {
  countSignInAttempt,
  endSessionRow,
  forgetOldSignInWindows,
  insertSession,
  touchSession,
  uncountSignInAttempt,
  type DashboardSession,
} from './session-store'

export const SESSION_COOKIE = 'payin_dashboard'

export type { DashboardSession }

const hashSessionId = (value: string) => createHash('sha256').update(`dashboard-session\0${value}`).digest('hex')
const idleMinutes = () => settings().dashboard.idleMinutes

export type SignInOutcome =
  { ok: true; cookieValue: string; session: DashboardSession } | { ok: false; reason: 'credentials' | 'limited' }

/**
 * Opens a session for a valid, unrevoked token of the site. Wrong credentials and a full window give
 * the caller nothing to tell apart but `limited`: whether the site exists or the token is another
 * site's is never said.
 *
 * Every attempt is counted before it is judged, in one statement (parallel attempts each see their own
 * count, so none slips past the limit); a successful one is then taken back. Refused: a client past its
 * limit, and, once a site has had more failures than its limit, every client that has already failed
 * for it in the window. A client with a clean record still gets its one check, so a flood of wrong
 * tokens against a site id does not lock its merchant out.
 */
export async function signIn(siteId: string, token: string, clientAddress: string): Promise<SignInOutcome> {
  const { failuresPerClient, failuresPerSite, windowSeconds } = settings().dashboard
  const client = fingerprint('dashboard-client', clientAddress || 'unknown')
  const site = fingerprint('dashboard-site', siteId)
  const keys = [`client:${client}`, `site:${site}`, `pair:${fingerprint('dashboard-pair', `${site}\0${client}`)}`]
  const counted = await countSignInAttempt(keys, windowSeconds)
  const count = (key: string) => counted.find((c) => c.key === key)?.count ?? 0
  if (Math.random() < 0.01) await forgetOldSignInWindows(windowSeconds)
  if (count(keys[0]) > failuresPerClient || (count(keys[1]) > failuresPerSite && count(keys[2]) > 1))
    return { ok: false, reason: 'limited' }
  const tokenRow =
    SITE_ID.test(siteId) && token.length > 0 && token.length <= 256
      ? await activeTokenOf(siteId, hashToken(token))
      : null
  if (!tokenRow) return { ok: false, reason: 'credentials' }
  // a success is not a failure: its count is taken back
  await uncountSignInAttempt(keys, windowSeconds)
  const cookieValue = randomBytes(32).toString('base64url')
  const id = await insertSession(hashSessionId(cookieValue), siteId, tokenRow.id)
  return { ok: true, cookieValue, session: { id, siteId, tokenRef: tokenRow.id, tokenHint: tokenRow.hint } }
}

/** seconds until the sign-in window in progress ends (a refused sign-in's Retry-After) */
export function signInRetryAfter(now = Date.now()): number {
  const windowMs = settings().dashboard.windowSeconds * 1000
  return Math.max(1, Math.ceil((windowMs - (now % windowMs)) / 1000))
}

/**
 * The live session a cookie value names, its idle time restarted; null when there is none (never
 * opened, signed out, idle too long, too old, or its token revoked).
 */
export async function sessionOf(cookieValue: string | undefined): Promise<DashboardSession | null> {
  if (!cookieValue || cookieValue.length > 100) return null
  return touchSession(hashSessionId(cookieValue), idleMinutes(), settings().dashboard.maxHours)
}

/** Ends the session a cookie value names (signing out); nothing happens for an unknown value. */
export async function endSession(cookieValue: string | undefined): Promise<void> {
  if (!cookieValue || cookieValue.length > 100) return
  await endSessionRow(hashSessionId(cookieValue))
}
