// A site's public key: what a link without the API (GET /create?publicKey=…) names the site by. It authorises nothing
// but creating that site's bills through the link, so it may sit in a merchant's page. It is derived from SECRET_KEY,
// the site and its generation, like the signing secret (lib/notifications/signing.ts): never stored, shown whenever
// the merchant asks (dashboard Settings, `npm run site -- public-key`). Its SHA-256 is stored (a unique index) to find
// the site by the key; it is written when the key is shown, so a key works from when it has been seen. A rotation moves
// to the next generation: the previous key finds the site no more.
import { createHash } from 'node:crypto'
import { sign } from '../security/keyed-hash'
import { bumpPublicKey, publicKeyRow, siteOfPublicKeyHash, storePublicKeyHash } from '../sites/site-store'
import { SiteNotFound } from '../sites/site-tokens'

const PREFIX = 'pk_'

/** the site's key of a generation */
const keyOf = (siteId: string, generation: number) => `${PREFIX}${sign('form-public-key', `${siteId}:${generation}`)}`

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex')

/** the site's public key now (its hash stored if it is not yet, or was made with another SECRET_KEY) */
export async function publicKeyOf(siteId: string): Promise<{ key: string; generation: number }> {
  const row = await publicKeyRow(siteId)
  if (!row) throw new SiteNotFound(siteId)
  const key = keyOf(siteId, row.publicKeyGeneration)
  const hash = hashOf(key)
  // a rotation meanwhile: the key of the generation it made
  if (row.publicKeyHash !== hash && !(await storePublicKeyHash(siteId, row.publicKeyGeneration, hash)))
    return publicKeyOf(siteId)
  return { key, generation: row.publicKeyGeneration }
}

/** a new public key of the site; the previous one no longer finds it */
export async function rotatePublicKey(siteId: string): Promise<{ key: string; generation: number }> {
  const generation = await bumpPublicKey(siteId, (g) => hashOf(keyOf(siteId, g)))
  if (generation === null) throw new SiteNotFound(siteId)
  return { key: keyOf(siteId, generation), generation }
}

/** the site a presented key names, or null (a key of another shape finds none) */
export async function siteOfPublicKey(key: string): Promise<string | null> {
  if (!/^pk_[A-Za-z0-9_-]{43}$/.test(key)) return null
  return siteOfPublicKeyHash(hashOf(key))
}
