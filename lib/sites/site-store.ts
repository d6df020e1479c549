// The Site table's and its tokens' one owner (with the rate-limit windows the token check counts in):
// sites, their hashed API tokens, the token check's statements (one round trip per API request), the
// site's notification settings and its sandbox clock offset (read here; moved here, behind the site's
// gate that lib/sandbox/site-write.ts siteClockMove holds). The services (lib/sites/site-tokens.ts,
// lib/notifications/site-notify.ts, lib/sandbox/) keep the rules; the statements are here.
import { db, sqlRows, type Tx } from '../db/client'
import { Prisma } from '../generated/prisma/client'
import { settings } from '../config'
import type { TokenCheck, TokenWrite } from '../http/api-route'
import { logLine } from '../log/log-line'
import { clockOf, REAL_TIME, type SiteClock } from '../sandbox/site-clock'
import { gateIsOpen, statementGate, stillOnClock } from '../sandbox/site-write'

/**
 * a statement's fragment as the token check's callers pass one in: Prisma.sql's, described by its shape (lib/http/
 * hands it on without importing Prisma)
 */
export type Sql = { readonly sql: string; readonly values: unknown[] }
/**
 * the fragment `f` given as Sql, which must be Prisma.sql's (the endpoints build them so): a look-alike object would be
 * spliced in as a bind parameter, not as SQL, so it is refused
 */
function prismaSql(f: Sql): Prisma.Sql {
  if (!(f instanceof Prisma.Sql)) throw new TypeError("a statement's fragment must be built with Prisma.sql")
  return f
}

/** whether the site exists */
export async function siteExists(siteId: string): Promise<boolean> {
  return !!(await db().site.findUnique({ where: { id: siteId }, select: { id: true } }))
}

/** creates the site unless it exists; whether it did */
export async function insertSite(siteId: string): Promise<boolean> {
  const rows = await db().$executeRaw`INSERT INTO "Site" (id) VALUES (${siteId}) ON CONFLICT (id) DO NOTHING`
  return rows === 1
}

/** stores a token of the site by its hash and hint */
export async function insertToken(siteId: string, tokenHash: string, hint: string): Promise<void> {
  await db().siteToken.create({ data: { siteId, tokenHash, hint } })
}

/** revokes the site's active tokens of that hash or hint; how many */
export async function revokeActiveTokens(siteId: string, tokenHash: string, hint: string): Promise<number> {
  const { count } = await db().siteToken.updateMany({
    where: {
      siteId,
      revokedAt: null,
      OR: [{ tokenHash }, { hint }],
    },
    data: { revokedAt: new Date() },
  })
  return count
}

/** One site's tokens, oldest first: their row ids, hints and state (never a hash). */
export async function siteTokens(siteId: string) {
  return db().siteToken.findMany({
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
 * the last two together.
 */
export async function revokeTokenRow(
  siteId: string,
  tokenId: string,
  opts: { keepOneActive: boolean },
): Promise<RevokeById> {
  return db().$transaction(async (tx) => {
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

export async function listSites() {
  return db().site.findMany({
    orderBy: { id: 'asc' },
    include: { tokens: { orderBy: { createdAt: 'asc' }, select: { hint: true, createdAt: true, revokedAt: true } } },
  })
}

/** the site's active token of that hash (its row id and hint), for a dashboard sign-in; null when there is none */
export async function activeTokenOf(siteId: string, tokenHash: string) {
  return db().siteToken.findFirst({
    where: { tokenHash, siteId, revokedAt: null },
    select: { id: true, hint: true },
  })
}

// ---- the site's clock

/**
 * the site's clock, read now (real time for a site that does not exist); a write gets it from siteWrite
 * (lib/sandbox/site-write.ts), which holds it still
 */
export async function siteClock(siteId: string): Promise<SiteClock> {
  if (!settings().sandboxClock) return REAL_TIME
  const [row] = await db().$queryRaw<
    { offset: bigint }[]
  >`SELECT "clockOffsetMs" AS offset FROM "Site" WHERE id = ${siteId}`
  return clockOf(row?.offset)
}

/** moves the site's clock `ms` forward unless that takes it past `maxOffsetMs`; the offset after (none: refused) */
export async function addClockOffset(tx: Tx, siteId: string, ms: number, maxOffsetMs: number) {
  return tx.$queryRaw<{ offset: bigint }[]>`
    UPDATE "Site" SET "clockOffsetMs" = "clockOffsetMs" + ${ms}::bigint
    WHERE id = ${siteId} AND "clockOffsetMs" + ${ms}::bigint <= ${maxOffsetMs}::bigint
    RETURNING "clockOffsetMs" AS offset`
}

/** sets the site's clock offset to `target` when that moves it forward; the offset after (none: refused) */
export async function raiseClockOffset(tx: Tx, siteId: string, target: number) {
  return tx.$queryRaw<{ offset: bigint }[]>`
    UPDATE "Site" SET "clockOffsetMs" = ${target}::bigint
    WHERE id = ${siteId} AND "clockOffsetMs" < ${target}::bigint
    RETURNING "clockOffsetMs" AS offset`
}

/** a sandbox reset's part here: the site's clock back to real time (the statement the reset makes) */
export async function deleteSiteData(tx: Tx, siteId: string): Promise<void> {
  // and a retention sweep under way starts over (its place was on the clock the reset takes away)
  await tx.$executeRaw`UPDATE "Site" SET "clockOffsetMs" = 0, "retentionCursor" = NULL WHERE id = ${siteId}`
}

// ---- the site's notification settings

/** the site's secret version and rotation time (null: no such site) */
export async function siteSecretRow(siteId: string) {
  return db().site.findUnique({
    where: { id: siteId },
    select: { id: true, notifySecretVersion: true, notifySecretRotatedAt: true },
  })
}

/** the site's URL, secret version and rotation time (null: no such site) */
export async function siteNotifyRow(siteId: string) {
  return db().site.findUnique({
    where: { id: siteId },
    select: { id: true, notifyUrl: true, notifySecretVersion: true, notifySecretRotatedAt: true },
  })
}

export async function updateNotifyUrl(siteId: string, url: string | null): Promise<void> {
  await db().site.update({ where: { id: siteId }, data: { notifyUrl: url } })
}

/**
 * sets the site's URL and answers the one it replaced, by one statement (a change made meanwhile is not lost);
 * undefined when there is no such site
 */
export async function swapNotifyUrl(siteId: string, url: string): Promise<{ previous: string | null } | undefined> {
  const [row] = await db().$queryRaw<{ previous: string | null }[]>`
    UPDATE "Site" s SET "notifyUrl" = ${url}
    FROM (SELECT id, "notifyUrl" FROM "Site" WHERE id = ${siteId} FOR UPDATE) old
    WHERE s.id = old.id
    RETURNING old."notifyUrl" AS previous`
  return row
}

/** sets the site's URL to `to` only while it is still `from`; whether it did */
export async function replaceNotifyUrl(siteId: string, from: string, to: string | null): Promise<boolean> {
  const { count } = await db().site.updateMany({ where: { id: siteId, notifyUrl: from }, data: { notifyUrl: to } })
  return count === 1
}

/** a new secret version; the previous one signs on from now, unless `immediately` */
export async function bumpSecretVersion(siteId: string, immediately: boolean) {
  return db().site.update({
    where: { id: siteId },
    data: { notifySecretVersion: { increment: 1 }, notifySecretRotatedAt: immediately ? null : new Date() },
    select: { id: true, notifySecretVersion: true, notifySecretRotatedAt: true },
  })
}

// ---- the token check

// what a check and a write in it answer: the shapes the route wrapper (lib/http/api-route.ts) takes
export type { TokenCheck, TokenWrite } from '../http/api-route'

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
function tokenParts(hash: string, defaultPerMinute: number) {
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
function overLimit(row: Record<string, unknown>): { limited: true; retryAfterSeconds: number } | null {
  const lim = row['payin:lim'] as number | undefined
  if (lim === undefined) return null // no limit: nothing counted
  if (lim > 0 && (row['payin:count'] as number) > lim)
    return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(row['payin:retryAfter'] as number)) }
  forgetOldWindowsNowAndThen()
  return null
}

/** a row's own columns (the preloaded read's, or the write's), in their order, without the token check's */
function ownColumns<T>(row: Record<string, unknown>): T {
  const own: Record<string, unknown> = {}
  for (const k of Object.keys(row)) if (!k.startsWith('payin:')) own[k] = row[k]
  return own as T
}

/**
 * The site of the bearer token of SHA-256 `hash` (lib/sites/site-tokens.ts checkToken), the request counted against
 * the token's per-minute limit, in one statement; `preload`, a read of at most one row in the same statement.
 */
export async function checkTokenHash(hash: string, defaultPerMinute: number, preload?: Sql): Promise<TokenCheck> {
  const p = tokenParts(hash, defaultPerMinute)
  // on every API request: a prepared statement on the pool, not through Prisma's runtime
  const rider = preload
    ? Prisma.sql`, r.* FROM ${p.from} LEFT JOIN LATERAL (SELECT true AS ${column(FOUND)}, q.* FROM (${prismaSql(preload)}) q LIMIT 1) r ON true`
    : Prisma.sql` FROM ${p.from}`
  const [row] = await sqlRows<Record<string, unknown>>(Prisma.sql`WITH ${p.ctes} SELECT ${p.columns}${rider}`)
  if (!row) return null
  const limited = overLimit(row)
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
function forgetOldWindowsNowAndThen(): void {
  if (Math.random() >= 0.001) return
  db().$executeRaw`DELETE FROM "RateWindow" WHERE "windowStart" < now() - interval '10 minutes'`.catch((e: Error) =>
    logLine({ level: 'warn', kind: 'database', message: `old rate-limit windows not deleted: ${e.message}` }),
  )
}

/** lib/sites/site-tokens.ts writeWithTokenCheck's statement, for the token of SHA-256 `hash` */
export async function writeWithTokenHashCheck<T>(
  hash: string,
  defaultPerMinute: number,
  siteId: string,
  clock: SiteClock,
  ctes: Sql,
  result: string,
): Promise<TokenWrite<T>> {
  // the statement's snapshot precedes its gate: it can tell a clock that a reset set back only by the
  // offset, which a write on real time compares with 0 (statementGate)
  if (clock.offsetMs !== 0) throw new Error('a write in the token check is made on real time only')
  const p = tokenParts(hash, defaultPerMinute)
  const rows = await sqlRows<Record<string, unknown>>(Prisma.sql`
    WITH ${p.ctes}, ${statementGate(siteId)},
    gate AS (SELECT t.off FROM ${p.from} WHERE t."siteId" = ${siteId}${p.withinLimit}${stillOnClock('t.off', clock)}${gateIsOpen}),
    ${prismaSql(ctes)}
    SELECT ${p.columns}, (SELECT open FROM site_gate) AS ${column(GATE)}, r.* FROM ${p.from} LEFT JOIN (SELECT true AS ${column(FOUND)}, x.* FROM ${Prisma.raw(result)} x) r ON true`)
  const first = rows[0]
  if (!first) return { unauthorized: true }
  const limited = overLimit(first)
  if (limited) return limited
  if (first[SITE] !== siteId) return { forbidden: true }
  const siteClock = clockOf(first[CLOCK] as bigint)
  if (siteClock.offsetMs !== clock.offsetMs || first[GATE] === false) return { clockMoved: siteClock }
  return { rows: rows.filter((row) => row[FOUND] === true).map((row) => ownColumns<T>(row)), clock: siteClock }
}

// ---- the site's refund scheme

/** whether the site's refunds are postponed (read in the refund's transaction) */
export async function refundsPostponed(tx: Tx, siteId: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ postponed: boolean }[]>`
    SELECT "postponedRefunds" AS postponed FROM "Site" WHERE id = ${siteId}`
  return row?.postponed ?? false
}

/** puts the site's refunds on the postponed scheme, or back to immediate; false when there is no such site */
export async function setRefundsPostponed(siteId: string, postponed: boolean): Promise<boolean> {
  const { count } = await db().site.updateMany({ where: { id: siteId }, data: { postponedRefunds: postponed } })
  return count === 1
}

// ---- the site's holds

/** what the site's open holds do once their period is over: captured in full (the default) or reversed */
export interface HoldSetting {
  /** hours after its authorisation, 1 to 120 */
  hours: number
  reversal: boolean
}

/** the site's hold setting (read in the transaction that applies it); null when there is no such site */
export async function holdSettingOf(tx: Tx, siteId: string, forUpdate = false): Promise<HoldSetting | null> {
  // locked for a change: two changes at once are made one after the other (neither writes back what it read)
  const [row] = await tx.$queryRaw<HoldSetting[]>`
    SELECT "holdHours" AS hours, "holdReversal" AS reversal FROM "Site" WHERE id = ${siteId}${forUpdate ? Prisma.sql` FOR UPDATE` : Prisma.empty}`
  return row ?? null
}

/** writes the site's hold setting; false when there is no such site */
export async function writeHoldSetting(tx: Tx, siteId: string, s: HoldSetting): Promise<boolean> {
  const n = await tx.$executeRaw`
    UPDATE "Site" SET "holdHours" = ${s.hours}, "holdReversal" = ${s.reversal} WHERE id = ${siteId}`
  return n === 1
}

/** the site's hold setting, outside a write (the dashboard's settings page); null when there is no such site */
export const holdSettingOfSite = (siteId: string): Promise<HoldSetting | null> => holdSettingOf(db(), siteId)

// ---- the site's public key (links without the API, lib/form-links/public-key.ts)

/** the generation of the site's public key and the hash stored of it; null when there is no such site */
export async function publicKeyRow(siteId: string) {
  return db().site.findUnique({
    where: { id: siteId },
    select: { publicKeyGeneration: true, publicKeyHash: true },
  })
}

/** stores the hash of the key of `generation`, while that is still the site's generation; whether it did */
export async function storePublicKeyHash(siteId: string, generation: number, hash: string): Promise<boolean> {
  const { count } = await db().site.updateMany({
    where: { id: siteId, publicKeyGeneration: generation },
    data: { publicKeyHash: hash },
  })
  return count === 1
}

/**
 * the next generation of the site's key, its hash made by `hashOf` and stored by the same statement (the previous key
 * finds the site no more); null when there is no such site. The statement moves from the generation read only: a
 * rotation meanwhile makes it read again (no transaction, so no write here outside the house's site-write rules).
 */
export async function bumpPublicKey(siteId: string, hashOf: (generation: number) => string) {
  for (;;) {
    const row = await db().site.findUnique({ where: { id: siteId }, select: { publicKeyGeneration: true } })
    if (!row) return null
    const next = row.publicKeyGeneration + 1
    const { count } = await db().site.updateMany({
      where: { id: siteId, publicKeyGeneration: row.publicKeyGeneration },
      data: { publicKeyGeneration: next, publicKeyHash: hashOf(next) },
    })
    if (count === 1) return next
  }
}

/** the site whose public key has this hash, or null */
export async function siteOfPublicKeyHash(hash: string): Promise<string | null> {
  const row = await db().site.findUnique({ where: { publicKeyHash: hash }, select: { id: true } })
  return row?.id ?? null
}
// ---- the origins that may frame the site's payment pages

/** the site's allowed frame origins (lib/sites/frame-origins.ts); null when there is no such site */
export async function frameOriginsOf(siteId: string): Promise<string[] | null> {
  const row = await db().site.findUnique({ where: { id: siteId }, select: { frameOrigins: true } })
  return row ? row.frameOrigins : null
}

/** replaces the site's allowed frame origins (checked by the caller); false when there is no such site */
export async function writeFrameOrigins(siteId: string, origins: string[]): Promise<boolean> {
  const { count } = await db().site.updateMany({ where: { id: siteId }, data: { frameOrigins: origins } })
  return count === 1
}

// ---- the site's retention (lib/sandbox/retention-sweep.ts)

/** the site's retention in days (null: keeps everything); undefined when there is no such site */
export async function retentionOf(siteId: string): Promise<number | null | undefined> {
  const row = await db().site.findUnique({ where: { id: siteId }, select: { retentionDays: true } })
  return row ? row.retentionDays : undefined
}

/**
 * sets the site's retention (null: off); a site given one is due for a sweep at once, a site without none is never;
 * false when there is no such site
 */
export async function writeRetention(siteId: string, days: number | null): Promise<boolean> {
  const { count } = await db().site.updateMany({
    where: { id: siteId },
    data: { retentionDays: days, retentionDueAt: days === null ? null : new Date(), retentionCursor: null },
  })
  return count === 1
}

/** a site whose retention sweep an instance took: its retention and where its last sweep stopped */
export interface RetentionClaim {
  siteId: string
  days: number
  cursor: string | null
}

/**
 * Takes the site whose retention sweep is due first (real time `now`), if any, and moves its due time `leaseMs` on:
 * no other instance takes it meanwhile, and when this one dies the site is due again then. One statement on the
 * index of due times; a site taken by another instance's statement at the same moment is passed over.
 */
export async function claimRetentionSweep(now: Date, leaseMs: number): Promise<RetentionClaim | null> {
  const [row] = await db().$queryRaw<RetentionClaim[]>`
    UPDATE "Site" s SET "retentionDueAt" = ${new Date(now.getTime() + leaseMs)}
    FROM (SELECT id FROM "Site" WHERE "retentionDueAt" <= ${now} ORDER BY "retentionDueAt" LIMIT 1
          FOR UPDATE SKIP LOCKED) due
    WHERE s.id = due.id AND s."retentionDays" IS NOT NULL
    RETURNING s.id AS "siteId", s."retentionDays" AS days, s."retentionCursor" AS cursor`
  return row ?? null
}

/**
 * Ends a sweep of the site: due again at `dueAt` (real time), going on from `cursor` (null: from the start). Only
 * while the site still has a retention: one turned off meanwhile stays off.
 */
export async function finishRetentionSweep(siteId: string, dueAt: Date, cursor: string | null): Promise<void> {
  await db().$executeRaw`
    UPDATE "Site" SET "retentionDueAt" = ${dueAt}, "retentionCursor" = ${cursor}
    WHERE id = ${siteId} AND "retentionDays" IS NOT NULL`
}
