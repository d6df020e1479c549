// A site's notification settings: its URL, and the secret that signs its notifications (it exists
// from the site's creation; the merchant can see it at any time and rotate it). The site command
// (scripts/site.ts) and the dashboard's settings (lib/dashboard/dashboard-settings.ts) both come here,
// so one rule decides which URLs a site may have; the local listener (scripts/webhooks.ts) alone sets its own
// loopback URL without it, the delivering service's rule deciding at delivery.
import { settings } from '../config'
import { httpUrlSchema } from '../wire/common-schemas'
import {
  bumpSecretVersion,
  replaceNotifyUrl,
  siteNotifyRow,
  siteSecretRow,
  swapNotifyUrl,
  updateNotifyUrl,
} from '../sites/site-store'
import { SiteNotFound } from '../sites/site-tokens'
import { callbackUrlSchema, processPolicy } from './callback-url'
import { attemptsWithError } from './notification-store'
import { isLoopbackUrl, policyInWords, REFUSED_ATTEMPT } from './outgoing-policy'
import { siteSecrets, type SiteSecrets } from './signing'

/**
 * A notification URL the rule refuses; `reason` is the contract's field message ("must not point to a private
 * address").
 */
export class NotifyUrlRefused extends Error {
  constructor(readonly reason: string) {
    super(`the notification URL ${reason}`)
  }
}

/**
 * The one rule for a site's notification URL: `null` or blank means none; otherwise an absolute
 * http(s) URL whose host is not a literal address this process refuses to call (NOTIFY_ALLOW_NETWORKS
 * opens networks). Answers the URL to store (trimmed) or throws NotifyUrlRefused.
 */
export function checkedNotifyUrl(url: string | null): string | null {
  const trimmed = url?.trim() ?? ''
  if (trimmed === '') return null
  const parsed = callbackUrlSchema.safeParse(trimmed)
  if (!parsed.success) throw new NotifyUrlRefused(parsed.error.issues[0].message)
  return trimmed
}

/** which receivers this process's rule allows, in words (the start banner, the commands' refusals) */
export const policyNow = (): string => policyInWords(processPolicy())

async function siteOf(siteId: string) {
  const site = await siteSecretRow(siteId)
  if (!site) throw new SiteNotFound(siteId)
  return site
}

/** the site's secrets now: the current one, and the previous one while its grace period lasts */
export async function notifySecrets(siteId: string): Promise<SiteSecrets> {
  return siteSecrets(await siteOf(siteId), settings().notifySecretGraceMs)
}

/**
 * the site's notification settings without any secret: its URL, and when its secret was last rotated and the previous
 * one stops signing
 */
export async function notifySettings(
  siteId: string,
): Promise<{ url: string | null; secretVersion: number; rotatedAt: Date | null; previousUntil: Date | null }> {
  const site = await siteNotifyRow(siteId)
  if (!site) throw new SiteNotFound(siteId)
  return {
    url: site.notifyUrl,
    secretVersion: site.notifySecretVersion,
    rotatedAt: site.notifySecretRotatedAt,
    previousUntil: siteSecrets(site, settings().notifySecretGraceMs).previousUntil,
  }
}

/** sets (or, with null or blank, clears) the site's URL, by checkedNotifyUrl's rule (NotifyUrlRefused); its secrets */
export async function setNotifyUrl(siteId: string, url: string | null): Promise<SiteSecrets> {
  const checked = checkedNotifyUrl(url)
  await siteOf(siteId)
  await updateNotifyUrl(siteId, checked)
  return notifySecrets(siteId)
}

/**
 * Points the site's notifications at `url` for a while: the local listener's own URL on this machine (loopback), which
 * it sets whatever this process's NOTIFY_ALLOW_NETWORKS (the server that delivers decides, by its own setting; a
 * refused delivery is recorded, and refusedDeliveriesTo finds it). Any other URL is NotifyUrlRefused. Answers the URL
 * it replaced (null: none), for putBackNotifyUrl.
 */
export async function borrowNotifyUrl(siteId: string, url: string): Promise<{ previous: string | null }> {
  if (!httpUrlSchema.safeParse(url).success || !isLoopbackUrl(url))
    throw new NotifyUrlRefused("must be an http(s) URL on this machine (the listener's own)")
  const swapped = await swapNotifyUrl(siteId, url)
  if (!swapped) throw new SiteNotFound(siteId)
  return swapped
}

/** how many deliveries of the site's notifications to `url` were refused by the delivering service's policy */
export async function refusedDeliveriesTo(siteId: string, url: string): Promise<number> {
  return attemptsWithError(siteId, url, REFUSED_ATTEMPT)
}

/**
 * Puts back the URL borrowNotifyUrl replaced, as it was (it passed the rule of whoever set it), unless the site's URL
 * was changed since (then the newer choice stays): whether it did.
 */
export async function putBackNotifyUrl(siteId: string, borrowed: string, previous: string | null): Promise<boolean> {
  return replaceNotifyUrl(siteId, borrowed, previous)
}

/**
 * Makes a new secret; the one it replaces still signs for NOTIFY_SECRET_GRACE_HOURS, or not at all
 * `immediately` (after a leak). The secrets answered are those of the row this rotation wrote (two
 * rotations at once each answer their own version).
 */
export async function rotateNotifySecret(
  siteId: string,
  immediately = false,
): Promise<SiteSecrets & { version: number }> {
  await siteOf(siteId)
  const site = await bumpSecretVersion(siteId, immediately)
  return { ...siteSecrets(site, settings().notifySecretGraceMs), version: site.notifySecretVersion }
}
