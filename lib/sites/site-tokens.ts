// Sites and their API tokens. A token is 32 random bytes (base64url) behind a `sk_` prefix; only its
// SHA-256 is stored, so a database dump holds no usable token.
import { createHash, randomBytes } from 'node:crypto'
import type { SiteClock } from '../sandbox/site-clock'
import {
  activeTokenOf,
  checkTokenHash,
  insertSite,
  insertToken,
  revokeActiveTokens,
  revokeTokenRow,
  siteExists,
  writeWithTokenHashCheck,
  type Sql,
  type TokenCheck,
  type TokenWrite,
} from './site-store'

export { listSites, siteTokens, type RevokeById, type TokenCheck, type TokenWrite } from './site-store'

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
export async function requireSite(siteId: string): Promise<void> {
  if (!(await siteExists(siteId))) throw new SiteNotFound(siteId)
}

export async function ensureSite(siteId: string): Promise<{ created: boolean }> {
  if (!SITE_ID.test(siteId)) throw new Error('a site id is 1-200 characters of A-Z a-z 0-9 . _ : -')
  return { created: await insertSite(siteId) }
}

/** A new token for the site (created when missing); the token itself is returned once, never stored. */
export async function issueToken(siteId: string): Promise<string> {
  await ensureSite(siteId)
  const token = `sk_${randomBytes(32).toString('base64url')}`
  await insertToken(siteId, hashToken(token), tokenHint(token))
  return token
}

/** whether the token is an active (not revoked) token of the site; counted by no rate limit */
export async function isActiveToken(siteId: string, token: string): Promise<boolean> {
  return (await activeTokenOf(siteId, hashToken(token))) !== null
}

/**
 * Revokes a token given whole or by its hint (the first characters shown by `site list`); SiteNotFound for an unknown
 * site.
 */
export async function revokeToken(siteId: string, tokenOrHint: string): Promise<number> {
  const count = await revokeActiveTokens(siteId, hashToken(tokenOrHint), tokenOrHint)
  if (!count) await requireSite(siteId)
  return count
}

/**
 * Revokes one token of the site by its row id. With `keepOneActive` the site's last active token is
 * not revoked (`last-active`): the site's row is locked first, so two revocations at once cannot take
 * the last two together. The sessions the token opened end with it (every session lookup joins the
 * token's row: see lib/dashboard/session-store.ts).
 */
export const revokeTokenById = revokeTokenRow

/**
 * The site a bearer token belongs to (null: unknown or revoked), counting the request against the
 * token's per-minute limit (`limited` once it is over). One statement, one round trip. The lookup is
 * by the token's hash through a unique index: no secret is compared character by character, so the
 * answer time does not depend on how much of a guessed token is right.
 *
 * `preload`: a read of at most one row done in the same statement (see Endpoint.preload in
 * lib/http/api-route.ts), evaluated only when the token is valid; its row comes back as `preloaded`.
 */
export async function checkToken(token: string, defaultPerMinute: number, preload?: Sql): Promise<TokenCheck> {
  return checkTokenHash(hashToken(token), defaultPerMinute, preload)
}

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
  token: string,
  defaultPerMinute: number,
  siteId: string,
  clock: SiteClock,
  ctes: Sql,
  result: string,
): Promise<TokenWrite<T>> {
  return writeWithTokenHashCheck<T>(hashToken(token), defaultPerMinute, siteId, clock, ctes, result)
}
