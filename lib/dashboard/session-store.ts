// The dashboard's sessions and sign-in windows: the one module of the DashboardSession and SignInWindow
// tables (lib/dashboard/dashboard-session.ts keeps the rules: the limits, the cookie, the hashes).
import { db } from '../db/client'
import { Prisma } from '../generated/prisma/client'

export interface DashboardSession {
  /** the session row's id (not the cookie's value) */
  id: string
  siteId: string
  /** the row of the token the session was opened with (revoking it ends the session) */
  tokenRef: string
  /** the first characters of the token the session was opened with: who acted, in the audit log */
  tokenHint: string
}

/** the fixed window of `windowSeconds` now, as a statement computes it */
const windowOf = (windowSeconds: number) =>
  Prisma.sql`to_timestamp(floor(extract(epoch FROM now()) / ${windowSeconds}::int) * ${windowSeconds}::int)`

/** counts a sign-in attempt under each key in the window now, in one statement; each key's count */
export async function countSignInAttempt(keys: string[], windowSeconds: number) {
  return db().$queryRaw<{ key: string; count: number }[]>`
    INSERT INTO "SignInWindow" (key, "windowStart", count)
    SELECT k, ${windowOf(windowSeconds)}, 1 FROM unnest(${keys}::text[]) k
    ON CONFLICT (key, "windowStart") DO UPDATE SET count = "SignInWindow".count + 1
    RETURNING key, count`
}

/** forgets the sign-in windows long past */
export async function forgetOldSignInWindows(windowSeconds: number): Promise<void> {
  await db()
    .$executeRaw`DELETE FROM "SignInWindow" WHERE "windowStart" < now() - make_interval(secs => ${2 * windowSeconds}::int)`
}

/** takes back a counted attempt (a success is not a failure) */
export async function uncountSignInAttempt(keys: string[], windowSeconds: number): Promise<void> {
  await db()
    .$executeRaw`UPDATE "SignInWindow" SET count = count - 1 WHERE key = ANY(${keys}::text[]) AND "windowStart" = ${windowOf(windowSeconds)} AND count > 0`
}

/** a new session's row; its id */
export async function insertSession(idHash: string, siteId: string, tokenRef: string): Promise<string> {
  const row = await db().dashboardSession.create({
    data: { idHash, siteId, tokenRef, lastSeenAt: new Date() },
    select: { id: true },
  })
  return row.id
}

/**
 * the live session of that hash, its idle time restarted; null when there is none (ended, idle longer than
 * `idleMinutes`, older than `maxHours`, or its token revoked)
 */
export async function touchSession(idHash: string, idleMinutes: number, maxHours: number) {
  const rows = await db().$queryRaw<DashboardSession[]>`
    UPDATE "DashboardSession" s SET "lastSeenAt" = now()
    FROM "SiteToken" t
    WHERE s."idHash" = ${idHash} AND s."endedAt" IS NULL
      AND s."lastSeenAt" > now() - make_interval(mins => ${idleMinutes}::int)
      AND s."createdAt" > now() - make_interval(hours => ${maxHours}::int)
      AND t.id = s."tokenRef" AND t."revokedAt" IS NULL
    RETURNING s.id, s."siteId", s."tokenRef", t.hint AS "tokenHint"`
  return rows[0] ?? null
}

/** ends the session of that hash, if live */
export async function endSessionRow(idHash: string): Promise<void> {
  await db().dashboardSession.updateMany({
    where: { idHash, endedAt: null },
    data: { endedAt: new Date() },
  })
}
