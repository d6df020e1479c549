// The origins that may frame a site's payment pages (issue 31): exact origins only — https, or http on a loopback
// host for a merchant testing on their own machine — so that a page's frame-ancestors names exactly them and its
// events (lib/pay-form/embed-events.ts) go to no one else. No wildcard, no path: a payment page framed by a page of
// an unexpected origin could be dressed up to phish a payer's card.
import { frameOriginsOf, writeFrameOrigins } from './site-store'

/** at most this many origins per site: a list, not a pattern */
export const MAX_FRAME_ORIGINS = 10
const MAX_ORIGIN_LENGTH = 200

/** an origin refused, with the reason in the contract's field-message words */
export class FrameOriginRefused extends Error {
  constructor(
    readonly origin: string,
    readonly reason: string,
  ) {
    super(`${origin}: ${reason}`)
  }
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/
/**
 * a host as a CSP source and a postMessage target can carry it: a name (after the URL parser's IDNA: `xn--` labels)
 * or a bracketed IPv6 literal. The parser leaves `;`, `,`, `$`, quotes and the like in a name, which would end or
 * extend the page's Content-Security-Policy directive.
 */
const PLAIN_HOST = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])$/

/**
 * the origin `input` names, as browsers write it (`https://shop.example`, `http://127.0.0.1:8080`); a trailing slash
 * is allowed, anything else beyond the origin is refused
 */
export function checkedFrameOrigin(input: string): string {
  const text = input.trim()
  const refuse = (reason: string) => new FrameOriginRefused(text.slice(0, MAX_ORIGIN_LENGTH), reason)
  if (text.length > MAX_ORIGIN_LENGTH) throw refuse(`must be at most ${MAX_ORIGIN_LENGTH} characters`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw refuse('must be an origin such as https://shop.example')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('must be an https origin')
  if (!PLAIN_HOST.test(url.hostname)) throw refuse('must name a host of letters, digits, dots and hyphens')
  if (url.protocol === 'http:' && !LOOPBACK_HOST.test(url.hostname))
    throw refuse('must be an https origin (http only on a loopback host)')
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/' || /[*]/.test(text))
    throw refuse('must be an origin alone: no path, query, credentials or wildcard')
  if (text !== url.origin && text !== `${url.origin}/`) throw refuse(`must be written as ${url.origin}`)
  return url.origin
}

/** the list checked, each origin once, in the order given; the first refusal is thrown */
export function checkedFrameOrigins(inputs: readonly string[]): string[] {
  const origins = [...new Set(inputs.filter((s) => s.trim() !== '').map(checkedFrameOrigin))]
  if (origins.length > MAX_FRAME_ORIGINS)
    throw new FrameOriginRefused(origins[MAX_FRAME_ORIGINS], `at most ${MAX_FRAME_ORIGINS} origins`)
  return origins
}

/** the CSP directive of a page framed by exactly these origins (none: by no one) */
export const frameAncestors = (origins: readonly string[]) =>
  `frame-ancestors ${origins.length ? origins.join(' ') : "'none'"}`

/** the site's allowed frame origins; null when there is no such site */
export const frameOrigins = (siteId: string) => frameOriginsOf(siteId)

/** replaces the site's allowed frame origins after checking them; null when there is no such site */
export async function setFrameOrigins(siteId: string, inputs: readonly string[]): Promise<string[] | null> {
  const origins = checkedFrameOrigins(inputs)
  return (await writeFrameOrigins(siteId, origins)) ? origins : null
}
