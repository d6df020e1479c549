// Merchant dashboard sessions. Signing in takes a site id and one of its API tokens; the session is
// then an opaque random id in an httpOnly cookie, stored only as its SHA-256 (a database dump holds no
// usable session). A session ends when signed out, after DASHBOARD_IDLE_MINUTES (480: 8 hours) without
// a request, DASHBOARD_SESSION_MAX_HOURS (24) after signing in however busy, or when the token it was
// opened with is revoked (every lookup joins the token's row).
// Failed sign-ins are counted per client address and per site in fixed windows kept in PostgreSQL, so
// every instance enforces the same numbers; past a limit, sign-ins are refused with one message (signIn).
import { createHash, randomBytes } from 'node:crypto'
import { settings } from '../config'
import { db } from '../db/client'
import { Prisma } from '../generated/prisma/client'
import { fingerprint } from '../security/keyed-hash'
import { hashToken, SITE_ID } from '../sites/site-tokens'

export const SESSION_COOKIE = 'payin_dashboard'

export interface DashboardSession {
  /** the session row's id (not the cookie's value) */
  id: string
  siteId: string
  /** the row of the token the session was opened with (revoking it ends the session) */
  tokenRef: string
  /** the first characters of the token the session was opened with: who acted, in the audit log */
  tokenHint: string
}

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
  const window = Prisma.sql`to_timestamp(floor(extract(epoch FROM now()) / ${windowSeconds}::int) * ${windowSeconds}::int)`
  const counted = await db().$queryRaw<{ key: string; count: number }[]>`
    INSERT INTO "SignInWindow" (key, "windowStart", count)
    SELECT k, ${window}, 1 FROM unnest(${keys}::text[]) k
    ON CONFLICT (key, "windowStart") DO UPDATE SET count = "SignInWindow".count + 1
    RETURNING key, count`
  const count = (key: string) => counted.find((c) => c.key === key)?.count ?? 0
  if (Math.random() < 0.01)
    await db()
      .$executeRaw`DELETE FROM "SignInWindow" WHERE "windowStart" < now() - make_interval(secs => ${2 * windowSeconds}::int)`
  if (count(keys[0]) > failuresPerClient || (count(keys[1]) > failuresPerSite && count(keys[2]) > 1))
    return { ok: false, reason: 'limited' }
  const tokenRow =
    SITE_ID.test(siteId) && token.length > 0 && token.length <= 256
      ? await db().siteToken.findFirst({
          where: { tokenHash: hashToken(token), siteId, revokedAt: null },
          select: { id: true, hint: true },
        })
      : null
  if (!tokenRow) return { ok: false, reason: 'credentials' }
  // a success is not a failure: its count is taken back
  await db()
    .$executeRaw`UPDATE "SignInWindow" SET count = count - 1 WHERE key = ANY(${keys}::text[]) AND "windowStart" = ${window} AND count > 0`
  const cookieValue = randomBytes(32).toString('base64url')
  const row = await db().dashboardSession.create({
    data: { idHash: hashSessionId(cookieValue), siteId, tokenRef: tokenRow.id, lastSeenAt: new Date() },
    select: { id: true },
  })
  return { ok: true, cookieValue, session: { id: row.id, siteId, tokenRef: tokenRow.id, tokenHint: tokenRow.hint } }
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
  const rows = await db().$queryRaw<DashboardSession[]>`
    UPDATE "DashboardSession" s SET "lastSeenAt" = now()
    FROM "SiteToken" t
    WHERE s."idHash" = ${hashSessionId(cookieValue)} AND s."endedAt" IS NULL
      AND s."lastSeenAt" > now() - make_interval(mins => ${idleMinutes()}::int)
      AND s."createdAt" > now() - make_interval(hours => ${settings().dashboard.maxHours}::int)
      AND t.id = s."tokenRef" AND t."revokedAt" IS NULL
    RETURNING s.id, s."siteId", s."tokenRef", t.hint AS "tokenHint"`
  return rows[0] ?? null
}

/** Ends the session a cookie value names (signing out); nothing happens for an unknown value. */
export async function endSession(cookieValue: string | undefined): Promise<void> {
  if (!cookieValue || cookieValue.length > 100) return
  await db().dashboardSession.updateMany({
    where: { idHash: hashSessionId(cookieValue), endedAt: null },
    data: { endedAt: new Date() },
  })
}
