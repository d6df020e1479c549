// Notification signatures.
// - `Signature`, as the production protocol signs (existing clients verify it): lowercase hex
//   HMAC-SHA256 with the site's secret over `{id}|{createdDateTime}|{amount.value}`, the values as
//   written in the body (the amount as its two-decimal text). It covers three fields and no time; a CHECK_CARD's
//   covers `{requestUid}|{checkOperationDate}`.
// - `Payin-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, beyond production:
//   the whole body and the moment of sending, so a receiver can refuse a changed body or a replay.
// A site's secret is derived from SECRET_KEY and the site's secret version, so it is never stored and
// exists from the site's creation. After a rotation the previous secret keeps signing `Signature` for
// the grace period (a receiver not yet switched keeps verifying), and `Payin-Signature` carries a v1
// for each of the two secrets (a receiver already switched verifies at once).
import { createHmac } from 'node:crypto'
import { sign } from '../security/keyed-hash'
import { ID_FIELD, OBJECT_KEY, type NotificationType } from './notification-envelope'

export const siteSecret = (siteId: string, version: number) => `whsec_${sign('notify-secret', `${siteId}:${version}`)}`

export interface SiteSecrets {
  /** the secret made by the latest rotation (or the site's first) */
  current: string
  /** the one before, while its grace period lasts */
  previous: string | null
  previousUntil: Date | null
}

export function siteSecrets(
  site: { id: string; notifySecretVersion: number; notifySecretRotatedAt: Date | null },
  graceMs: number,
  now = new Date(),
): SiteSecrets {
  const until =
    site.notifySecretRotatedAt && site.notifySecretVersion > 0
      ? new Date(site.notifySecretRotatedAt.getTime() + graceMs)
      : null
  const inGrace = until !== null && until.getTime() > now.getTime()
  return {
    current: siteSecret(site.id, site.notifySecretVersion),
    previous: inGrace ? siteSecret(site.id, site.notifySecretVersion - 1) : null,
    previousUntil: inGrace ? until : null,
  }
}

/** of a notification body's object, the fields `Signature` covers (the id's name depends on the type) */
type SignedObject = Record<string, unknown> & { createdDateTime: string; amount: { value: string | number } }

/**
 * the text `Signature` covers: `{id}|{createdDateTime}|{amount.value}` of the body's object; a CHECK_CARD's (no
 * amount), `{requestUid}|{checkOperationDate}`, as production signs it
 */
export function signedText(body: string): string {
  const parsed = JSON.parse(body) as { type: NotificationType } & Record<string, unknown>
  if (parsed.type === 'CHECK_CARD') {
    const check = parsed[OBJECT_KEY.CHECK_CARD] as { requestUid: string; checkOperationDate: string }
    return `${check.requestUid}|${check.checkOperationDate}`
  }
  const o = parsed[OBJECT_KEY[parsed.type]] as SignedObject
  // amounts are written with two decimals; a double of at most 1e9 with two decimals prints back exactly
  return `${o[ID_FIELD[parsed.type]]}|${o.createdDateTime}|${Number(o.amount.value).toFixed(2)}`
}

const hmacHex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex')

/** the headers that sign one sending of a notification body */
export function signatureHeaders(
  secrets: SiteSecrets,
  body: string,
  now = new Date(),
): { Signature: string; 'Payin-Signature': string } {
  const t = Math.floor(now.getTime() / 1000)
  const all = secrets.previous ? [secrets.current, secrets.previous] : [secrets.current]
  return {
    Signature: hmacHex(secrets.previous ?? secrets.current, signedText(body)),
    'Payin-Signature': [`t=${t}`, ...all.map((s) => `v1=${hmacHex(s, `${t}.${body}`)}`)].join(','),
  }
}
