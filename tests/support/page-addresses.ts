// What a page loads or links from elsewhere than the service that served it, read as a browser reads it:
// for /docs ("nothing is loaded from elsewhere"). An address in an attribute (src, href, srcset, action,
// formaction, poster) is the service's own when it is a path of this origin (`/x`, never `//host/x`,
// which a browser reads as another host, nor `/\host/x`, which it reads the same way) or a fragment
// (`#x`); entities are decoded, and tabs and line ends dropped, as a browser does before reading it. In
// the page's CSS (its <style> elements, style attributes, and the stylesheets given), every url() and
// @import must stay on this origin: relative, a path, or data:.

/** an attribute value's text as the browser reads it (character references decoded) */
function htmlDecoded(text: string): string {
  const named: Record<string, string> = {
    amp: '&',
    quot: '"',
    apos: "'",
    lt: '<',
    gt: '>',
    sol: '/',
    bsol: '\\',
    colon: ':',
    Tab: '\t',
    NewLine: '\n',
    period: '.',
  }
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&([a-z]+);/gi, (whole, name: string) => named[name] ?? whole)
}

/** CSS text with its escapes (`\2f`, `\/`) decoded */
const cssDecoded = (text: string) =>
  text.replace(/\\([0-9a-f]{1,6})\s?|\\(.)/gi, (_, hex: string | undefined, c: string | undefined) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : c!,
  )

/** as the URL parser reads it: no tab or line end anywhere, no space or control character around it */
// eslint-disable-next-line no-control-regex -- the C0 controls the URL parser strips
const asParsed = (address: string) => address.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '')

/** a path of this origin or a fragment */
const ownAddress = (address: string) => /^\/(?![/\\])|^#/.test(asParsed(address))

/** a CSS reference on this origin: relative, a path of it, or data: */
function ownCssReference(address: string): boolean {
  const a = asParsed(address)
  if (/^[/\\]{2}/.test(a)) return false
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(a)?.[1]
  return scheme === undefined || scheme.toLowerCase() === 'data'
}

/** the url() and @import references of CSS text */
function cssReferences(css: string): string[] {
  const text = cssDecoded(css.replace(/\/\*[^]*?\*\//g, ''))
  const urls = [...text.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)/gi)].map((m) => m[1] ?? m[2] ?? m[3])
  const imports = [...text.matchAll(/@import\s+(?:"([^"]*)"|'([^']*)')/gi)].map((m) => m[1] ?? m[2])
  return [...urls, ...imports]
}

/** the stylesheets a page links (`<link rel="stylesheet" href>`), as written */
export const linkedStylesheets = (html: string) =>
  [...html.matchAll(/<link\b[^>]*>/gi)]
    .filter((m) => /\srel="[^"]*\bstylesheet\b[^"]*"/i.test(m[0]))
    .map((m) => htmlDecoded(/\shref="([^"]*)"/i.exec(m[0])?.[1] ?? ''))

/**
 * Every address of the page, its attributes' and its CSS's (with the given stylesheets' text), and those
 * of them that are not the service's own.
 */
export function pageAddresses(html: string, stylesheets: string[] = []): { addresses: string[]; offSite: string[] } {
  const attributes = [...html.matchAll(/\s(src|href|srcset|action|formaction|poster)="([^"]*)"/gi)].flatMap(
    ([, name, value]) => {
      const text = htmlDecoded(value)
      // srcset: comma-separated candidates, each an address and a size
      return name.toLowerCase() === 'srcset' ? text.split(',').map((c) => c.trim().split(/\s+/)[0]) : [text]
    },
  )
  const css = [
    ...[...html.matchAll(/<style\b[^>]*>([^]*?)<\/style>/gi)].map((m) => m[1]),
    ...[...html.matchAll(/\sstyle="([^"]*)"/gi)].map((m) => htmlDecoded(m[1])),
    ...stylesheets,
  ]
  const references = css.flatMap(cssReferences)
  return {
    addresses: [...attributes, ...references],
    offSite: [...attributes.filter((a) => !ownAddress(a)), ...references.filter((a) => !ownCssReference(a))],
  }
}
