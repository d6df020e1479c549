// Sites and their API tokens. A token is 32 random bytes (base64url) behind a `sk_` prefix; only its
// SHA-256 is stored, so a database dump holds no usable token.
import { createHash, randomBytes } from 'node:crypto'
import { sqlRows, type Db } from '../db/client'
import { Prisma } from '../generated/prisma/client'

export const SITE_ID = /^[A-Za-z0-9._:-]{1,200}$/

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export async function ensureSite(db: Db, siteId: string): Promise<{ created: boolean }> {
  if (!SITE_ID.test(siteId)) throw new Error('a site id is 1-200 characters of A-Z a-z 0-9 . _ : -')
  const rows = await db.$executeRaw`INSERT INTO "Site" (id) VALUES (${siteId}) ON CONFLICT (id) DO NOTHING`
  return { created: rows === 1 }
}

/** A new token for the site (created when missing); the token itself is returned once, never stored. */
export async function issueToken(db: Db, siteId: string): Promise<string> {
  await ensureSite(db, siteId)
  const token = `sk_${randomBytes(32).toString('base64url')}`
  await db.siteToken.create({ data: { siteId, tokenHash: hashToken(token), hint: token.slice(0, 9) } })
  return token
}

/** Revokes a token given whole or by its hint (the first characters shown by `site list`). */
export async function revokeToken(db: Db, siteId: string, tokenOrHint: string): Promise<number> {
  const { count } = await db.siteToken.updateMany({
    where: {
      siteId,
      revokedAt: null,
      OR: [{ tokenHash: hashToken(tokenOrHint) }, { hint: tokenOrHint }],
    },
    data: { revokedAt: new Date() },
  })
  return count
}

export async function listSites(db: Db) {
  return db.site.findMany({
    orderBy: { id: 'asc' },
    include: { tokens: { orderBy: { createdAt: 'asc' }, select: { hint: true, createdAt: true, revokedAt: true } } },
  })
}

export type TokenCheck = { siteId: string } | { limited: true; retryAfterSeconds: number } | null

/**
 * The site a bearer token belongs to (null: unknown or revoked), counting the request against the
 * token's per-minute limit (`limited` once it is over). One statement, one round trip. The lookup is
 * by the token's hash through a unique index: no secret is compared character by character, so the
 * answer time does not depend on how much of a guessed token is right.
 */
export async function checkToken(db: Db, token: string, defaultPerMinute: number): Promise<TokenCheck> {
  const hash = hashToken(token)
  // on every API request: a prepared statement on the pool, not through Prisma's runtime
  if (defaultPerMinute <= 0) {
    const [row] = await sqlRows<{ siteId: string }>(Prisma.sql`SELECT "siteId" FROM "SiteToken" WHERE "tokenHash" = ${hash} AND "revokedAt" IS NULL`)
    return row ? { siteId: row.siteId } : null
  }
  const rows = await sqlRows<{ siteId: string; lim: number; count: number; retryAfter: number }>(Prisma.sql`
    WITH t AS (
      SELECT id, "siteId", COALESCE("rateLimitPerMinute", ${defaultPerMinute}::int) AS lim
      FROM "SiteToken" WHERE "tokenHash" = ${hash} AND "revokedAt" IS NULL
    ), w AS (
      INSERT INTO "RateWindow" ("tokenRef", "windowStart", count)
      SELECT id, date_trunc('minute', now()), 1 FROM t
      ON CONFLICT ("tokenRef", "windowStart") DO UPDATE SET count = "RateWindow".count + 1
      RETURNING count
    )
    SELECT t."siteId", t.lim, w.count,
      EXTRACT(EPOCH FROM date_trunc('minute', now()) + interval '1 minute' - now())::float8 AS "retryAfter"
    FROM t, w`)
  const row = rows[0]
  if (!row) return null
  if (row.lim > 0 && row.count > row.lim) return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(row.retryAfter)) }
  // now and then, forget windows long past
  if (Math.random() < 0.001) await db.$executeRaw`DELETE FROM "RateWindow" WHERE "windowStart" < now() - interval '10 minutes'`
  return { siteId: row.siteId }
}
