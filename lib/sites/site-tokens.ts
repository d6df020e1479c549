// Sites and their API tokens. A token is 32 random bytes (base64url) behind a `sk_` prefix; only its
// SHA-256 is stored, so a database dump holds no usable token.
import { createHash, randomBytes } from 'node:crypto'
import { sqlRows, type Db } from '../db/client'
import { Prisma } from '../generated/prisma/client'
import { logLine } from '../log/log-line'
import { clockOf, type SiteClock } from '../sandbox/site-clock'
import { gateIsOpen, statementGate, stillOnClock } from '../sandbox/site-write'

export const SITE_ID = /^[A-Za-z0-9._:-]{1,200}$/

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** the token's first characters, stored and shown to tell tokens apart (`sk_` and six of its own) */
export const tokenHint = (token: string) => token.slice(0, 9)

/** No site has this id (the site command answers it in one line; see scripts/site.ts). */
export class SiteNotFound extends Error {
  constructor(readonly siteId: string) {
    super(`there is no site ${siteId}`)
  }
}

/** throws SiteNotFound unless the site exists */
export async function requireSite(db: Db, siteId: string): Promise<void> {
  if (!(await db.site.findUnique({ where: { id: siteId }, select: { id: true } }))) throw new SiteNotFound(siteId)
}

export async function ensureSite(db: Db, siteId: string): Promise<{ created: boolean }> {
  if (!SITE_ID.test(siteId)) throw new Error('a site id is 1-200 characters of A-Z a-z 0-9 . _ : -')
  const rows = await db.$executeRaw`INSERT INTO "Site" (id) VALUES (${siteId}) ON CONFLICT (id) DO NOTHING`
  return { created: rows === 1 }
}

/** A new token for the site (created when missing); the token itself is returned once, never stored. */
export async function issueToken(db: Db, siteId: string): Promise<string> {
  await ensureSite(db, siteId)
  const token = `sk_${randomBytes(32).toString('base64url')}`
  await db.siteToken.create({ data: { siteId, tokenHash: hashToken(token), hint: tokenHint(token) } })
  return token
}

/**
 * Revokes a token given whole or by its hint (the first characters shown by `site list`); SiteNotFound for an unknown
 * site.
 */
export async function revokeToken(db: Db, siteId: string, tokenOrHint: string): Promise<number> {
  const { count } = await db.siteToken.updateMany({
    where: {
      siteId,
      revokedAt: null,
      OR: [{ tokenHash: hashToken(tokenOrHint) }, { hint: tokenOrHint }],
    },
    data: { revokedAt: new Date() },
  })
  if (!count) await requireSite(db, siteId)
  return count
}

/** One site's tokens, oldest first: their row ids, hints and state (never a hash). */
export async function siteTokens(db: Db, siteId: string) {
  return db.siteToken.findMany({
    where: { siteId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, hint: true, createdAt: true, revokedAt: true },
  })
}

export type RevokeById =
  | { outcome: 'revoked'; hint: string }
  | { outcome: 'not-found' }
  | { outcome: 'revoked-already'; hint: string }
  | { outcome: 'last-active'; hint: string }

/**
 * Revokes one token of the site by its row id. With `keepOneActive` the site's last active token is
 * not revoked (`last-active`): the site's row is locked first, so two revocations at once cannot take
 * the last two together. The sessions the token opened end with it (every session lookup joins the
 * token's row: see lib/dashboard/dashboard-session.ts).
 */
export async function revokeTokenById(
  db: Db,
  siteId: string,
  tokenId: string,
  opts: { keepOneActive: boolean },
): Promise<RevokeById> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "Site" WHERE id = ${siteId} FOR UPDATE`
    const token = await tx.siteToken.findFirst({
      where: { id: tokenId, siteId },
      select: { id: true, hint: true, revokedAt: true },
    })
    if (!token) return { outcome: 'not-found' }
    if (token.revokedAt) return { outcome: 'revoked-already', hint: token.hint }
    if (opts.keepOneActive && (await tx.siteToken.count({ where: { siteId, revokedAt: null } })) <= 1)
      return { outcome: 'last-active', hint: token.hint }
    await tx.siteToken.update({ where: { id: token.id }, data: { revokedAt: new Date() } })
    return { outcome: 'revoked', hint: token.hint }
  })
}

export async function listSites(db: Db) {
  return db.site.findMany({
    orderBy: { id: 'asc' },
    include: { tokens: { orderBy: { createdAt: 'asc' }, select: { hint: true, createdAt: true, revokedAt: true } } },
  })
}

export type TokenCheck =
  | { siteId: string; clock: SiteClock; preloaded?: Record<string, unknown> | null }
  | { limited: true; retryAfterSeconds: number }
  | null

// the token's own columns in a row that also carries a preloaded read's or a write's: names no table of ours has
const SITE = 'payin:siteId'
/** the token's site's sandbox clock offset (lib/sandbox/site-clock.ts), read with the token */
const CLOCK = 'payin:clockOffsetMs'
const FOUND = 'payin:found'
/** whether a write's statement held the site's gate (lib/sandbox/site-write.ts statementGate) */
const GATE = 'payin:gate'
const column = (name: string) => Prisma.raw(`"${name}"`)

/**
 * The token's part of a statement: `ctes` finds the token's row (`t`, none when unknown or revoked)
 * with its site's clock offset and, with a limit, counts the request in the minute's window (`w`); `columns`
 * are its answer's, `from` joins them, `withinLimit` is the condition (after a WHERE) of a request within the
 * limit.
 */
function tokenParts(token: string, defaultPerMinute: number) {
  const hash = hashToken(token)
  if (defaultPerMinute <= 0)
    return {
      ctes: Prisma.sql`t AS (
        SELECT tok."siteId", s."clockOffsetMs" AS off
        FROM "SiteToken" tok JOIN "Site" s ON s.id = tok."siteId" WHERE tok."tokenHash" = ${hash} AND tok."revokedAt" IS NULL)`,
      columns: Prisma.sql`t."siteId" AS ${column(SITE)}, t.off AS ${column(CLOCK)}`,
      from: Prisma.sql`t`,
      withinLimit: Prisma.empty,
    }
  return {
    ctes: Prisma.sql`t AS (
        SELECT tok.id, tok."siteId", COALESCE(tok."rateLimitPerMinute", ${defaultPerMinute}::int) AS lim, s."clockOffsetMs" AS off
        FROM "SiteToken" tok JOIN "Site" s ON s.id = tok."siteId" WHERE tok."tokenHash" = ${hash} AND tok."revokedAt" IS NULL
      ), w AS (
        INSERT INTO "RateWindow" ("tokenRef", "windowStart", count)
        SELECT id, date_trunc('minute', now()), 1 FROM t
        ON CONFLICT ("tokenRef", "windowStart") DO UPDATE SET count = "RateWindow".count + 1
        RETURNING count
      )`,
    columns: Prisma.sql`t."siteId" AS ${column(SITE)}, t.off AS ${column(CLOCK)}, t.lim AS "payin:lim", w.count AS "payin:count",
        EXTRACT(EPOCH FROM date_trunc('minute', now()) + interval '1 minute' - now())::float8 AS "payin:retryAfter"`,
    from: Prisma.sql`t CROSS JOIN w`,
    withinLimit: Prisma.sql` AND NOT (t.lim > 0 AND w.count > t.lim)`,
  }
}

/**
 * a counted request over its token's limit: the seconds to the window's end; otherwise null (and, now and then, old
 * windows go)
 */
function overLimit(db: Db, row: Record<string, unknown>): { limited: true; retryAfterSeconds: number } | null {
  const lim = row['payin:lim'] as number | undefined
  if (lim === undefined) return null // no limit: nothing counted
  if (lim > 0 && (row['payin:count'] as number) > lim)
    return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(row['payin:retryAfter'] as number)) }
  forgetOldWindowsNowAndThen(db)
  return null
}

/** a row's own columns (the preloaded read's, or the write's), in their order, without the token check's */
function ownColumns<T>(row: Record<string, unknown>): T {
  const own: Record<string, unknown> = {}
  for (const k of Object.keys(row)) if (!k.startsWith('payin:')) own[k] = row[k]
  return own as T
}

/**
 * The site a bearer token belongs to (null: unknown or revoked), counting the request against the
 * token's per-minute limit (`limited` once it is over). One statement, one round trip. The lookup is
 * by the token's hash through a unique index: no secret is compared character by character, so the
 * answer time does not depend on how much of a guessed token is right.
 *
 * `preload`: a read of at most one row done in the same statement (see Endpoint.preload in
 * lib/http/api-route.ts), evaluated only when the token is valid; its row comes back as `preloaded`.
 */
export async function checkToken(
  db: Db,
  token: string,
  defaultPerMinute: number,
  preload?: Prisma.Sql,
): Promise<TokenCheck> {
  const p = tokenParts(token, defaultPerMinute)
  // on every API request: a prepared statement on the pool, not through Prisma's runtime
  const rider = preload
    ? Prisma.sql`, r.* FROM ${p.from} LEFT JOIN LATERAL (SELECT true AS ${column(FOUND)}, q.* FROM (${preload}) q LIMIT 1) r ON true`
    : Prisma.sql` FROM ${p.from}`
  const [row] = await sqlRows<Record<string, unknown>>(Prisma.sql`WITH ${p.ctes} SELECT ${p.columns}${rider}`)
  if (!row) return null
  const limited = overLimit(db, row)
  if (limited) return limited
  return {
    siteId: row[SITE] as string,
    clock: clockOf(row[CLOCK] as bigint),
    ...(preload ? { preloaded: row[FOUND] === true ? ownColumns<Record<string, unknown>>(row) : null } : {}),
  }
}

/**
 * Now and then (one request in a thousand) the windows long past are deleted, apart from the request:
 * its answer (and a write it already made) does not depend on that clean-up, which may fail alone.
 */
function forgetOldWindowsNowAndThen(db: Db): void {
  if (Math.random() >= 0.001) return
  db.$executeRaw`DELETE FROM "RateWindow" WHERE "windowStart" < now() - interval '10 minutes'`.catch((e: Error) =>
    logLine({ level: 'warn', kind: 'database', message: `old rate-limit windows not deleted: ${e.message}` }),
  )
}

export type TokenWrite<T> =
  | { rows: T[]; clock: SiteClock }
  | { unauthorized: true }
  | { limited: true; retryAfterSeconds: number }
  | { forbidden: true }
  | { clockMoved: SiteClock }

/**
 * A write made in the token check's own statement (one round trip, see DeferredAuth in
 * lib/http/api-route.ts): `ctes` are WITH-clause parts that write only through the CTE `gate`, which
 * has one row when the token is valid, within its limit and the path's site's, and none otherwise;
 * `result` names the part whose rows come back. The token's request is counted as checkToken counts it.
 * When the gate is closed nothing is written and the outcome says why, in checkToken's order (unknown
 * token, over the limit, another site's).
 *
 * `clock`: the site's clock the write was made for (its times, its time rules), real time: the gate opens
 * only while the site's clock is still that one and the statement holds the site's gate (lib/sandbox/site-write.ts
 * statementGate: no sandbox reset or clock advance of the site under way or asked for); otherwise nothing is
 * written and `clockMoved` gives the site's clock as the statement read it (the request is counted: the token
 * check is settled either way), and the write is to be made with siteWrite.
 */
export async function writeWithTokenCheck<T>(
  db: Db,
  token: string,
  defaultPerMinute: number,
  siteId: string,
  clock: SiteClock,
  ctes: Prisma.Sql,
  result: string,
): Promise<TokenWrite<T>> {
  // the statement's snapshot precedes its gate: it can tell a clock that a reset set back only by the
  // offset, which a write on real time compares with 0 (statementGate)
  if (clock.offsetMs !== 0) throw new Error('a write in the token check is made on real time only')
  const p = tokenParts(token, defaultPerMinute)
  const rows = await sqlRows<Record<string, unknown>>(Prisma.sql`
    WITH ${p.ctes}, ${statementGate(siteId)},
    gate AS (SELECT t.off FROM ${p.from} WHERE t."siteId" = ${siteId}${p.withinLimit}${stillOnClock('t.off', clock)}${gateIsOpen}),
    ${ctes}
    SELECT ${p.columns}, (SELECT open FROM site_gate) AS ${column(GATE)}, r.* FROM ${p.from} LEFT JOIN (SELECT true AS ${column(FOUND)}, x.* FROM ${Prisma.raw(result)} x) r ON true`)
  const first = rows[0]
  if (!first) return { unauthorized: true }
  const limited = overLimit(db, first)
  if (limited) return limited
  if (first[SITE] !== siteId) return { forbidden: true }
  const siteClock = clockOf(first[CLOCK] as bigint)
  if (siteClock.offsetMs !== clock.offsetMs || first[GATE] === false) return { clockMoved: siteClock }
  return { rows: rows.filter((row) => row[FOUND] === true).map((row) => ownColumns<T>(row)), clock: siteClock }
}
