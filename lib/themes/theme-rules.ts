// The rules a payment page theme (issue 31) must pass before it is saved, pure: its code, name and colours, and its
// logo. Colours are checked for contrast as WCAG 2 measures it (at least 4.5:1, text of normal size), so that a
// themed page stays as readable as the default one: the button's text on the button, and the page's text (the
// theme's name above the card) on the background. A logo is a PNG (by its signature and header, not by what the
// sender calls it) or an SVG that can neither script nor load anything: such an SVG is refused, not rewritten.

/** a theme's code: latin letters, digits and dashes, as production's aliases (`merchant01-style01`) */
export const THEME_CODE = /^[A-Za-z0-9-]{1,64}$/
export const MAX_THEME_NAME = 60
/** the largest logo, in bytes */
export const MAX_LOGO_BYTES = 64 * 1024
/** at most this many themes per site */
export const MAX_THEMES = 20
/** the least contrast of text on its background (WCAG 2, AA, normal text) */
export const MIN_CONTRAST = 4.5
/** the page's own text colour (components/pay/pay-styles.ts --ink), which the theme's name is written in */
export const PAGE_INK = '#1d2330'
export const DEFAULT_BUTTON_TEXT = '#ffffff'

export type LogoType = 'image/png' | 'image/svg+xml'
export const LOGO_TYPES: readonly LogoType[] = ['image/png', 'image/svg+xml']

/** a field refused, with the reason in the contract's field-message words */
export class ThemeRefused extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`)
  }
}

/** `#rgb` or `#rrggbb` (any case) as `#rrggbb` in lower case; refused otherwise */
export function checkedColor(field: string, input: string): string {
  const text = input.trim().toLowerCase()
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text)
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`
  if (/^#[0-9a-f]{6}$/.test(text)) return text
  throw new ThemeRefused(field, 'must be a colour in hex, such as #1d4ed8')
}

/** the relative luminance of a `#rrggbb` colour (WCAG 2) */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** the contrast ratio of two `#rrggbb` colours, 1 to 21 */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

function requireContrast(field: string, text: string, background: string, what: string) {
  const ratio = contrastRatio(text, background)
  // rounded down, so that a ratio shown as 4.5 is one that passes
  const shown = Math.floor(ratio * 100) / 100
  if (ratio < MIN_CONTRAST) throw new ThemeRefused(field, `${what}: contrast ${shown}:1 is below ${MIN_CONTRAST}:1`)
}

export interface ThemeColors {
  backgroundColor: string
  buttonColor: string
  buttonTextColor: string
}

/** the three colours checked and written as `#rrggbb`; the first refusal is thrown */
export function checkedColors(input: {
  backgroundColor: string
  buttonColor: string
  buttonTextColor?: string | null
}): ThemeColors {
  const backgroundColor = checkedColor('backgroundColor', input.backgroundColor)
  const buttonColor = checkedColor('buttonColor', input.buttonColor)
  const buttonTextColor = checkedColor('buttonTextColor', input.buttonTextColor || DEFAULT_BUTTON_TEXT)
  requireContrast('backgroundColor', PAGE_INK, backgroundColor, `the page's text (${PAGE_INK}) on it`)
  requireContrast('buttonColor', buttonTextColor, buttonColor, `the button's text (${buttonTextColor}) on it`)
  return { backgroundColor, buttonColor, buttonTextColor }
}

export function checkedCode(input: string): string {
  if (!THEME_CODE.test(input)) throw new ThemeRefused('code', 'must be 1 to 64 latin letters, digits or dashes')
  return input
}

export function checkedName(input: string): string {
  const name = input.trim().replace(/\s+/g, ' ')
  if (!name) throw new ThemeRefused('name', 'must not be empty')
  if ([...name].length > MAX_THEME_NAME) throw new ThemeRefused('name', `must be at most ${MAX_THEME_NAME} characters`)
  if (/[\p{Cc}\p{Cf}]/u.test(name)) throw new ThemeRefused('name', 'must not hold control characters')
  return name
}

/** a logo that passed: its bytes, exact type and size in CSS pixels (for the page's width and height) */
export interface CheckedLogo {
  bytes: Buffer
  type: LogoType
  width: number
  height: number
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const PNG_END = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82])

/** a PNG: its signature, its first chunk a header (IHDR) and its last the end (IEND); its size from the header */
function checkedPng(bytes: Buffer): CheckedLogo {
  const refuse = () => new ThemeRefused('logo', 'is not a PNG image')
  if (bytes.length < 8 + 25 + 12 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw refuse()
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') throw refuse()
  if (!bytes.subarray(bytes.length - 12).equals(PNG_END)) throw refuse()
  const width = bytes.readUInt32BE(16)
  const height = bytes.readUInt32BE(20)
  if (!width || !height || width > 4096 || height > 4096) throw refuse()
  return { bytes, type: 'image/png', width, height }
}

// The SVG elements and attributes a logo may use: shapes, text, groups, gradients, clips and masks. Every other
// element is refused — script, foreignObject, image, use of anything outside the file, a, animate and set (which
// can change a link), style (CSS can load), iframe — and so is any event attribute, any reference that is not to
// the file's own ids (`#id`), and anything a parser would be told to fetch or expand (DOCTYPE, entities).
const SVG_ELEMENTS = new Set(
  (
    'svg g path rect circle ellipse line polyline polygon text tspan textPath defs linearGradient radialGradient ' +
    'stop title desc clipPath mask symbol use pattern metadata filter feGaussianBlur feOffset feBlend feFlood ' +
    'feComposite feMerge feMergeNode feColorMatrix feDropShadow'
  ).split(' '),
)
/** a reference, whatever prefix its namespace is bound to (`xlink:href`, `x:href`, `href`) */
const HREF_ATTRIBUTE = /^([\w.-]+:)?href$/i
/** the namespaces an SVG logo may declare: SVG's and XLink's (no XHTML, no other vocabulary) */
const ALLOWED_NAMESPACES = new Set(['http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink'])
const TAG = /^<(\/?)([A-Za-z][\w.:-]*)((?:\s+[^\s=/>"']+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/
const ATTRIBUTE = /([^\s=/>"']+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g

/** an attribute's value with its character references decoded, to be checked as a browser would read it */
const decoded = (value: string) =>
  value
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Math.min(Number(d), 0x10ffff)))
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, n: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[n]!)

/** an SVG whose every element and attribute is allowed; its size from width/height or the viewBox (else 48 × 48) */
function checkedSvg(bytes: Buffer): CheckedLogo {
  const refuse = (why: string) => new ThemeRefused('logo', `is not an allowed SVG image: ${why}`)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw refuse('not UTF-8')
  }
  text = text.replace(/^\uFEFF/, '')
  // read as UTF-8 here, so read as UTF-8 by the browser too: a declaration naming another encoding (ISO-2022-JP's
  // escapes hide a comment's start) and control characters other than tab and line ends are refused
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) throw refuse('control characters')
  const declaration = /^\s*<\?xml\s([^?]*)\?>/.exec(text)
  const encoding = /encoding\s*=\s*["']([^"']*)["']/i.exec(declaration?.[1] ?? '')?.[1]
  if (encoding !== undefined && !/^utf-?8$/i.test(encoding)) throw refuse(`the encoding ${encoding} (UTF-8 only)`)
  let rest = text.replace(/^\s*<\?xml\s[^?]*\?>/, '')
  let depth = 0
  let root: Record<string, string> | null = null
  let ended = false
  while (rest.length) {
    const lt = rest.indexOf('<')
    if (lt < 0) break
    rest = rest.slice(lt)
    if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->', 4)
      if (end < 0) throw refuse('an unclosed comment')
      rest = rest.slice(end + 3)
      continue
    }
    if (rest.startsWith('<!') || rest.startsWith('<?')) throw refuse('declarations, CDATA or processing instructions')
    const tag = TAG.exec(rest)
    if (!tag) throw refuse('a tag that does not parse')
    rest = rest.slice(tag[0].length)
    const [, closing, name, attributes, selfClosing] = tag
    if (!SVG_ELEMENTS.has(name)) throw refuse(`the element <${name}>`)
    if (ended) throw refuse('content after the root element')
    if (closing) {
      depth--
      if (depth < 0) throw refuse('a closing tag without its opening one')
      if (depth === 0) ended = true
      continue
    }
    const attrs: Record<string, string> = {}
    for (const [, attr, dq, sq] of attributes.matchAll(ATTRIBUTE)) {
      const value = decoded(dq ?? sq ?? '')
      const lower = attr.toLowerCase()
      if (lower.startsWith('on')) throw refuse(`the event attribute ${attr}`)
      if (HREF_ATTRIBUTE.test(attr) && !/^#[\w.:-]*$/.test(value.trim())) throw refuse('a reference outside the image')
      if ((lower === 'xmlns' || lower.startsWith('xmlns:')) && !ALLOWED_NAMESPACES.has(value.trim()))
        throw refuse(`the namespace ${value}`)
      // a CSS escape (\\75rl( is url( to a browser) hides what a value loads
      if (value.includes('\\')) throw refuse(`a backslash in the attribute ${attr}`)
      if (/url\s*\(\s*['"]?\s*(?!#)/i.test(value) || /javascript:|@import|expression\s*\(/i.test(value))
        throw refuse(`the attribute ${attr} loads or runs something`)
      if (lower === 'xml:base' || lower.endsWith(':base')) throw refuse(`the attribute ${attr}`)
      attrs[lower] = value
    }
    if (depth === 0 && !root) {
      if (name !== 'svg') throw refuse('its root is not <svg>')
      root = attrs
    } else if (depth === 0) throw refuse('more than one root element')
    if (!selfClosing) depth++
    else if (depth === 0) ended = true
  }
  if (!root || !ended) throw refuse('no complete <svg> element')
  return { bytes, type: 'image/svg+xml', ...svgSize(root) }
}

/** an SVG's size in CSS pixels: its width and height in px (or unitless), else its viewBox's, else 48 × 48 */
function svgSize(root: Record<string, string>): { width: number; height: number } {
  const px = (v: string | undefined) => {
    const m = /^\s*([\d.]+)\s*(px)?\s*$/.exec(v ?? '')
    const n = m ? Number(m[1]) : NaN
    return n > 0 && n <= 4096 ? n : null
  }
  const w = px(root.width)
  const h = px(root.height)
  if (w && h) return { width: Math.round(w), height: Math.round(h) }
  const box = (root.viewbox ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number)
  const [bw, bh] = [box[2], box[3]]
  if (box.length === 4 && bw > 0 && bh > 0 && bw <= 4096 && bh <= 4096)
    return { width: Math.max(1, Math.round(bw)), height: Math.max(1, Math.round(bh)) }
  return { width: 48, height: 48 }
}

/** a logo checked by what its bytes are: a PNG by its signature, else an SVG; refused past 64 KiB */
export function checkedLogo(bytes: Buffer, declaredType?: string): CheckedLogo {
  if (!bytes.length) throw new ThemeRefused('logo', 'must not be empty')
  if (bytes.length > MAX_LOGO_BYTES) throw new ThemeRefused('logo', `must be at most ${MAX_LOGO_BYTES / 1024} KiB`)
  const png = bytes.subarray(0, 8).equals(PNG_SIGNATURE)
  if (declaredType === 'image/png' || (declaredType === undefined && png)) return checkedPng(bytes)
  if (png) throw new ThemeRefused('logo', 'is a PNG image, not an SVG one')
  return checkedSvg(bytes)
}
