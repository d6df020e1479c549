// The site-level notification URL and its signing secret (a new one each time the URL is set).
import type { Db } from '../db/client'
import { httpUrlSchema } from '../wire/common-schemas'
import { siteSecret } from './signing'

/** sets (or, with null, clears) the site's URL; the new secret, or null when cleared */
export async function setNotifyUrl(db: Db, siteId: string, url: string | null): Promise<string | null> {
  if (url !== null && !httpUrlSchema.safeParse(url).success) throw new Error('the notification URL must be an absolute http(s) URL')
  const site = await db.site.update({
    where: { id: siteId },
    data: url === null ? { notifyUrl: null } : { notifyUrl: url, notifySecretVersion: { increment: 1 } },
  })
  return url === null ? null : siteSecret(siteId, site.notifySecretVersion)
}
