// A site's notification settings: its URL, and the secret that signs its notifications (it exists
// from the site's creation; the merchant can see it at any time and rotate it).
import { settings } from '../config'
import type { Db } from '../db/client'
import { callbackUrlSchema } from './callback-url'
import { siteSecrets, type SiteSecrets } from './signing'

async function siteOf(db: Db, siteId: string) {
  const site = await db.site.findUnique({ where: { id: siteId }, select: { id: true, notifySecretVersion: true, notifySecretRotatedAt: true } })
  if (!site) throw new Error(`there is no site ${siteId}`)
  return site
}

/** the site's secrets now: the current one, and the previous one while its grace period lasts */
export async function notifySecrets(db: Db, siteId: string): Promise<SiteSecrets> {
  return siteSecrets(await siteOf(db, siteId), settings().notifySecretGraceMs)
}

/** sets (or, with null, clears) the site's URL; its secrets */
export async function setNotifyUrl(db: Db, siteId: string, url: string | null): Promise<SiteSecrets> {
  if (url !== null) {
    const parsed = callbackUrlSchema.safeParse(url)
    if (!parsed.success)
      throw new Error(`the notification URL ${parsed.error.issues[0].message} (networks allowed by NOTIFY_ALLOW_NETWORKS in this command's environment: ${process.env.NOTIFY_ALLOW_NETWORKS || 'none'})`)
  }
  await siteOf(db, siteId)
  await db.site.update({ where: { id: siteId }, data: { notifyUrl: url } })
  return notifySecrets(db, siteId)
}

/** makes a new secret; the one it replaces still signs for NOTIFY_SECRET_GRACE_HOURS, or not at all `immediately` (after a leak) */
export async function rotateNotifySecret(db: Db, siteId: string, immediately = false): Promise<SiteSecrets> {
  await siteOf(db, siteId)
  await db.site.update({ where: { id: siteId }, data: { notifySecretVersion: { increment: 1 }, notifySecretRotatedAt: immediately ? null : new Date() } })
  return notifySecrets(db, siteId)
}
