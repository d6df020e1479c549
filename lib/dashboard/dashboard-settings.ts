// The dashboard's settings of a site: its notification URL, its signing secret, its API tokens, what its holds do
// at the end of their period (lib/payments/hold-expiry.ts) and the origins that may frame its payment pages,
// through the services the site command uses (lib/notifications/site-notify.ts, lib/sites/site-tokens.ts),
// each change recorded in the audit log (who: the session's token hint). No framework imports.
//
// Secrets and tokens: a new API token and a rotated signing secret are answered once, to the request
// that made them, and never written anywhere (a token's SHA-256 and hint are stored; a secret is
// derived from SECRET_KEY and its version, see lib/notifications/signing.ts). The settings overview
// the page reads carries neither: the page never shows a secret, so a reload shows nothing to copy. The
// operator's `npm run site -- secret` can still derive it; in the dashboard, a merchant who lost it
// rotates (the previous one keeps signing for the grace period, so nothing breaks meanwhile).
import { settings } from '../config'
import { fieldError, incorrectInvocation, notFound } from '../http/api-error'
import {
  checkedNotifyUrl,
  notifySettings,
  NotifyUrlRefused,
  rotateNotifySecret,
  setNotifyUrl,
} from '../notifications/site-notify'
import { setHoldSetting } from '../payments/hold-expiry'
import { FrameOriginRefused, frameOrigins, setFrameOrigins } from '../sites/frame-origins'
import { publicKeyOf, rotatePublicKey } from '../form-links/public-key'
import { holdSettingOfSite, type HoldSetting } from '../sites/site-store'
import { issueToken, revokeTokenById, siteTokens, tokenHint } from '../sites/site-tokens'
import { latestSiteAudit } from './audit-store'
import { auditableUrl, recordAudit } from './dashboard-audit'
import { CLOCK_ACTION, clockOverview, type ClockOverview } from './dashboard-clock'
import type { DashboardSession } from './dashboard-session'

// and the sandbox clock's advances (lib/dashboard/dashboard-clock.ts), shown in the same log
export const SETTINGS_ACTIONS = [
  'notify-url',
  'rotate-secret',
  'create-token',
  'revoke-token',
  CLOCK_ACTION,
  'holds',
  'rotate-public-key',
  'frame-origins',
  // the payment page's themes (lib/dashboard/dashboard-themes.ts)
  'theme',
  'delete-theme',
] as const
export type SettingsAction = (typeof SETTINGS_ACTIONS)[number]

/** the audit log's subject of a rotation (what was acted on) */
export const SIGNING_SECRET = 'signing secret'
/** the audit log's subject of a public key's rotation */
export const PUBLIC_KEY = 'public key'
/** the audit log's action and subject of a change of the hold setting */
export const HOLDS_ACTION = 'holds'
/** the audit log's subject of a URL cleared */
export const NO_URL = '(none)'

/** the audit log's action of a change of the allowed frame origins */
export const FRAME_ORIGINS_ACTION = 'frame-origins'
/** the field of the frame origins, in requests and in the contract's field errors */
export const ORIGINS_FIELD = 'origins'

/** the field of the notification URL, in requests and in the contract's field errors */
export const URL_FIELD = 'url'

export interface SettingsOverview {
  notifyUrl: string | null
  secret: { version: number; rotatedAt: Date | null; previousUntil: Date | null; graceHours: number }
  tokens: { id: string; hint: string; createdAt: Date; revokedAt: Date | null; thisSession: boolean }[]
  /** what the site's open holds do at the end of their period, and the period */
  holds: HoldSetting
  /** the origins that may frame the site's payment pages and hear their events */
  frameOrigins: string[]
  /** the site's sandbox clock; null with SANDBOX_CLOCK=off */
  clock: ClockOverview | null
  /** the site's public key of links without the API (public: it authorises nothing else; lib/form-links) */
  publicKey: string
  audit: { at: Date; actor: string; action: string; subject: string; outcome: string; detail: Record<string, string> }[]
}

const AUDIT_SHOWN = 20

/** what the settings page shows: no secret, no token, no hash */
export async function settingsOverview(session: DashboardSession): Promise<SettingsOverview> {
  const [notify, tokens, holds, origins, clock, audit, publicKey] = await Promise.all([
    notifySettings(session.siteId),
    siteTokens(session.siteId),
    holdSettingOfSite(session.siteId),
    frameOrigins(session.siteId),
    clockOverview(session.siteId),
    latestSiteAudit(session.siteId, [...SETTINGS_ACTIONS], AUDIT_SHOWN),
    publicKeyOf(session.siteId),
  ])
  return {
    notifyUrl: notify.url,
    secret: {
      version: notify.secretVersion,
      rotatedAt: notify.rotatedAt,
      previousUntil: notify.previousUntil,
      graceHours: graceHours(),
    },
    tokens: tokens.map((t) => ({ ...t, thisSession: t.id === session.tokenRef })),
    holds: holds ?? { hours: 72, reversal: false },
    frameOrigins: origins ?? [],
    clock,
    publicKey: publicKey.key,
    audit: audit.map((a) => ({ ...a, detail: textFields(a.detail) })),
  }
}

/** an entry's detail (a JSON object of strings as recordAudit writes it); anything else is left out */
const textFields = (detail: unknown): Record<string, string> =>
  detail && typeof detail === 'object' && !Array.isArray(detail)
    ? Object.fromEntries(Object.entries(detail).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {}

const graceHours = () => Math.round((settings().notifySecretGraceMs / 3600_000) * 100) / 100

/**
 * sets or (blank) clears the site's notification URL by the service's one rule; a refusal is the contract's 400 naming
 * `url`
 */
export async function changeNotifyUrl(session: DashboardSession, input: string): Promise<{ url: string | null }> {
  let url: string | null
  try {
    url = checkedNotifyUrl(input)
  } catch (e) {
    if (!(e instanceof NotifyUrlRefused)) throw e
    await recordAudit(session, { action: 'notify-url', subject: auditableUrl(input), outcome: `refused: ${e.reason}` })
    throw fieldError(URL_FIELD, e.reason)
  }
  await setNotifyUrl(session.siteId, url)
  await recordAudit(session, {
    action: 'notify-url',
    subject: url ? auditableUrl(url) : NO_URL,
    outcome: url ? 'set' : 'cleared',
  })
  return { url }
}

/**
 * What the site's open holds do at the end of their period (captured in full or reversed) and the period, in hours (1
 * to 120, checked by the request's schema); the change and its audit entry in one write of the site
 */
export async function changeHolds(
  session: DashboardSession,
  change: { action: 'capture' | 'reverse'; hours: number },
): Promise<{ action: 'capture' | 'reverse'; hours: number }> {
  const setting = await setHoldSetting(
    session.siteId,
    { reversal: change.action === 'reverse', hours: change.hours },
    (tx, s) =>
      recordAudit(
        session,
        {
          action: HOLDS_ACTION,
          subject: HOLDS_ACTION,
          outcome: s.reversal ? 'reverse' : 'capture',
          detail: { hours: String(s.hours) },
        },
        tx,
      ),
  )
  if (!setting) throw notFound('Site')
  return { action: setting.reversal ? 'reverse' : 'capture', hours: setting.hours }
}

/**
 * replaces the origins that may frame the site's payment pages (none: no one may); a refusal is the contract's 400
 * naming `origins`, recorded as the URL's are
 */
export async function changeFrameOrigins(session: DashboardSession, inputs: string[]): Promise<{ origins: string[] }> {
  let origins: string[] | null
  try {
    origins = await setFrameOrigins(session.siteId, inputs)
  } catch (e) {
    if (!(e instanceof FrameOriginRefused)) throw e
    await recordAudit(session, {
      action: FRAME_ORIGINS_ACTION,
      subject: auditableUrl(e.origin),
      outcome: `refused: ${e.reason}`,
    })
    throw fieldError(ORIGINS_FIELD, `${e.origin}: ${e.reason}`)
  }
  if (!origins) throw notFound('Site')
  await recordAudit(session, {
    action: FRAME_ORIGINS_ACTION,
    subject: origins.length ? origins.join(' ') : NO_URL,
    outcome: origins.length ? 'set' : 'cleared',
  })
  return { origins }
}

/** a new signing secret, answered once; the previous one signs until `previousUntil` (null: not at all) */
export async function rotateSecret(
  session: DashboardSession,
  immediately: boolean,
): Promise<{ secret: string; previousUntil: string | null; graceHours: number }> {
  const s = await rotateNotifySecret(session.siteId, immediately)
  await recordAudit(session, {
    action: 'rotate-secret',
    subject: SIGNING_SECRET,
    outcome: s.previousUntil ? 'rotated' : 'rotated, previous ended',
    detail: {
      version: String(s.version),
      ...(s.previousUntil ? { previousUntil: s.previousUntil.toISOString() } : {}),
    },
  })
  return { secret: s.current, previousUntil: s.previousUntil?.toISOString() ?? null, graceHours: graceHours() }
}

/** a new public key of the site (the previous one stops finding it at once) */
export async function changePublicKey(session: DashboardSession): Promise<{ publicKey: string }> {
  const k = await rotatePublicKey(session.siteId)
  await recordAudit(session, {
    action: 'rotate-public-key',
    subject: PUBLIC_KEY,
    outcome: 'rotated',
    detail: { generation: String(k.generation) },
  })
  return { publicKey: k.key }
}

/** a new API token of the site, answered once (only its hash and hint are stored) */
export async function createToken(session: DashboardSession): Promise<{ token: string; hint: string }> {
  const token = await issueToken(session.siteId)
  const hint = tokenHint(token)
  await recordAudit(session, { action: 'create-token', subject: hint, outcome: 'created' })
  return { token, hint }
}

/**
 * Revokes one of the site's tokens (by its row id). The site's last active token is refused (409):
 * with none left the merchant could neither call the API nor sign in here again. Every dashboard session
 * opened with the token ends with it; `signedOut` says whether this one did.
 */
export async function revokeToken(
  session: DashboardSession,
  id: string,
): Promise<{ revoked: string; signedOut: boolean }> {
  const tokenId = id.toLowerCase() // as PostgreSQL writes a uuid
  const r = await revokeTokenById(session.siteId, tokenId, { keepOneActive: true })
  if (r.outcome === 'not-found') throw notFound('Token')
  if (r.outcome === 'revoked-already') throw incorrectInvocation('The token is revoked already')
  if (r.outcome === 'last-active') {
    await recordAudit(session, { action: 'revoke-token', subject: r.hint, outcome: 'refused: last active token' })
    throw incorrectInvocation('The site’s last active token cannot be revoked: create another one first')
  }
  const signedOut = session.tokenRef === tokenId
  await recordAudit(session, {
    action: 'revoke-token',
    subject: r.hint,
    outcome: signedOut ? 'revoked, this session ended' : 'revoked',
  })
  return { revoked: r.hint, signedOut }
}
