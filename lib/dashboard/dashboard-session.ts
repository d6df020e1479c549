// Merchant dashboard sessions. Signing in takes a site id and one of its API tokens; the session is
// then an opaque random id in an httpOnly cookie, stored only as its SHA-256 (a database dump holds no
// usable session). A session ends when signed out, after DASHBOARD_IDLE_MINUTES (480: 8 hours) without
// a request, or when the token it was opened with is revoked (every lookup joins the token's row).
// Failed sign-ins are counted per client address and per site in fixed windows kept in PostgreSQL, so
// every instance enforces the same numbers; past the limit every sign-in is refused with one message.
import { createHash, randomBytes } from 'node:crypto'
import { settings } from '../config'
import { db } from '../db/client'
import { fingerprint } from '../security/keyed-hash'
import { hashToken, SITE_ID } from '../sites/site-tokens'

export const SESSION_COOKIE = 'payin_dashboard'

export interface DashboardSession {
  /** the session row's id (not the cookie's value) */
  id: string
  siteId: string
  /** the first characters of the token the session was opened with: who acted, in the audit log */
  tokenHint: string
}

const hashSessionId = (value: string) => createHash('sha256').update(`dashboard-session\0${value}`).digest('hex')
const idleMinutes = () => settings().dashboard.idleMinutes

export type SignInOutcome = { ok: true; cookieValue: string; session: DashboardSession } | { ok: false; reason: 'credentials' | 'limited' }

/**
 * Opens a session for a valid, unrevoked token of the site. Wrong credentials and a full window give
 * the caller nothing to tell apart but `limited`: whether the site exists or the token is another
 * site's is never said.
 */
export async function signIn(siteId: string, token: string, clientAddress: string): Promise<SignInOutcome> {
  const { failuresPerClient, failuresPerSite, windowSeconds } = settings().dashboard
  const keys = [`client:${fingerprint('dashboard-client', clientAddress || 'unknown')}`, `site:${fingerprint('dashboard-site', siteId)}`]
  const limits = [failuresPerClient, failuresPerSite]
  const counted = await db().$queryRaw<{ key: string; count: number }[]>`
    SELECT key, count FROM "SignInWindow"
    WHERE key = ANY(${keys}::text[]) AND "windowStart" = to_timestamp(floor(extract(epoch FROM now()) / ${windowSeconds}::int) * ${windowSeconds}::int)`
  if (counted.some((c) => c.count >= limits[keys.indexOf(c.key)])) return { ok: false, reason: 'limited' }
  const tokenRow =
    SITE_ID.test(siteId) && token.length > 0 && token.length <= 256
      ? await db().siteToken.findFirst({ where: { tokenHash: hashToken(token), siteId, revokedAt: null }, select: { id: true, hint: true } })
      : null
  if (!tokenRow) {
    await db().$executeRaw`
      INSERT INTO "SignInWindow" (key, "windowStart", count)
      SELECT k, to_timestamp(floor(extract(epoch FROM now()) / ${windowSeconds}::int) * ${windowSeconds}::int), 1 FROM unnest(${keys}::text[]) k
      ON CONFLICT (key, "windowStart") DO UPDATE SET count = "SignInWindow".count + 1`
    if (Math.random() < 0.01) await db().$executeRaw`DELETE FROM "SignInWindow" WHERE "windowStart" < now() - make_interval(secs => ${2 * windowSeconds}::int)`
    return { ok: false, reason: 'credentials' }
  }
  const cookieValue = randomBytes(32).toString('base64url')
  const row = await db().dashboardSession.create({
    data: { idHash: hashSessionId(cookieValue), siteId, tokenRef: tokenRow.id, lastSeenAt: new Date() },
    select: { id: true },
  })
  return { ok: true, cookieValue, session: { id: row.id, siteId, tokenHint: tokenRow.hint } }
}

/**
 * The live session a cookie value names, its idle time restarted; null when there is none (never
 * opened, signed out, idle too long, or its token revoked).
 */
export async function sessionOf(cookieValue: string | undefined): Promise<DashboardSession | null> {
  if (!cookieValue || cookieValue.length > 100) return null
  const rows = await db().$queryRaw<DashboardSession[]>`
    UPDATE "DashboardSession" s SET "lastSeenAt" = now()
    FROM "SiteToken" t
    WHERE s."idHash" = ${hashSessionId(cookieValue)} AND s."endedAt" IS NULL
      AND s."lastSeenAt" > now() - make_interval(mins => ${idleMinutes()}::int)
      AND t.id = s."tokenRef" AND t."revokedAt" IS NULL
    RETURNING s.id, s."siteId", t.hint AS "tokenHint"`
  return rows[0] ?? null
}

/** Ends the session a cookie value names (signing out); nothing happens for an unknown value. */
export async function endSession(cookieValue: string | undefined): Promise<void> {
  if (!cookieValue || cookieValue.length > 100) return
  await db().dashboardSession.updateMany({ where: { idHash: hashSessionId(cookieValue), endedAt: null }, data: { endedAt: new Date() } })
}
