// The script weight of a page: every script file it loads — the <script src> of its HTML and every
// script the browser fetches while loading it (Debian's Chromium through Playwright, until the network
// is idle) — each body gzipped by zlib at level 9, and their total. Used by `npm run bench` (the
// payment page's section of bench/RESULTS.md) and by tests/http/page-weight.test.ts.
// The browser also makes the payer's first move (focus on the page's first input), so a script the page
// runs only then (the payment form's) is counted too. Inline scripts that run (not JSON data) are counted
// in the total as well, so it is everything the page can run. A
// <script nomodule> (Next's polyfills for old browsers, which Chromium does not fetch) is counted, as
// part of what the page ships, and marked; the total without it is given too (totalGzipBytesModern).
import { chromium } from '@playwright/test'
import zlib from 'node:zlib'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.ts'

/** the budget of the page's scripts, gzipped (issue 13) */
export const SCRIPT_BUDGET_GZIP = 100 * 1024
/** zlib's gzip level the sizes are measured at */
export const GZIP_LEVEL = 9

export interface ScriptWeight {
  /** the script's address, relative to the base URL when it is on it */
  url: string
  /** its body as served, uncompressed */
  bytes: number
  /** that body gzipped (zlib, level GZIP_LEVEL) */
  gzipBytes: number
  /** where it was found: in the HTML's <script src>, fetched by the browser, or both */
  foundIn: 'html' | 'browser' | 'html+browser'
  /** a <script nomodule>: only browsers without ES modules run it */
  nomodule: boolean
}

export interface PageWeight {
  page: string
  scripts: ScriptWeight[]
  totalBytes: number
  totalGzipBytes: number
  /** the gzipped total without the nomodule scripts: what a current browser fetches */
  totalGzipBytesModern: number
  /** inline <script> elements of the HTML that run (counted in the totals) */
  inline: { count: number; bytes: number; gzipBytes: number }
  /** the HTML document itself */
  html: { bytes: number; gzipBytes: number }
  /** Content-Encoding the server answers for scripts to a client accepting gzip and br ('' = none) */
  servedEncoding: string
}

const gzipSize = (body: Buffer | string) => zlib.gzipSync(body, { level: GZIP_LEVEL }).length

/**
 * the src of every <script> element of the HTML and the href of every script preload (HTML entities decoded), and
 * whether it is nomodule
 */
function scriptSources(html: string): { src: string; nomodule: boolean }[] {
  const out: { src: string; nomodule: boolean }[] = []
  const attr = (attrs: string, name: string) => {
    const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attrs)
    return m ? (m[1] ?? m[2] ?? m[3]).replace(/&amp;/g, '&') : null
  }
  for (const m of html.matchAll(/<script\b([^>]*)>/gi)) {
    const src = attr(m[1], 'src')
    if (src) out.push({ src, nomodule: /\bnomodule\b/i.test(m[1]) })
  }
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const rel = attr(m[1], 'rel')?.toLowerCase()
    const href = attr(m[1], 'href')
    if (href && (rel === 'modulepreload' || (rel === 'preload' && attr(m[1], 'as') === 'script')))
      out.push({ src: href, nomodule: false })
  }
  return out
}

/** the text of every inline <script> element that runs (no src; not data such as application/json) */
function inlineScripts(html: string): string[] {
  const out: string[] = []
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const type = /\btype\s*=\s*"([^"]*)"/i.exec(m[1])?.[1]?.toLowerCase() ?? ''
    if (!/\bsrc\s*=/i.test(m[1]) && (type === '' || type === 'module' || type.includes('javascript'))) out.push(m[2])
  }
  return out
}

/** the script URLs Chromium requests while it loads the page, until the network is idle */
async function browserScripts(url: string): Promise<string[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS.filter((f) => !f.startsWith('--headless')),
  })
  try {
    const page = await browser.newPage()
    const seen: string[] = []
    page.on('request', (r) => {
      if (r.resourceType() === 'script') seen.push(r.url())
    })
    await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 })
    // the payer's first move: what the page runs only then is loaded now
    const input = page.locator('input:not([type=hidden])').first()
    if (await input.count()) {
      await input.focus()
      await page.waitForLoadState('networkidle')
    }
    return seen
  } finally {
    await browser.close()
  }
}

/**
 * Measures the scripts of `pagePath` on the server at `baseUrl`.
 * `extraScripts`: script URLs seen by another tool (e.g. Lighthouse's network-requests audit), added.
 * `browser: false` leaves the browser run out (the HTML's <script src> only).
 */
export async function measurePageWeight(
  baseUrl: string,
  pagePath: string,
  { extraScripts = [], browser = true }: { extraScripts?: string[]; browser?: boolean } = {},
): Promise<PageWeight> {
  const pageUrl = new URL(pagePath, baseUrl).href
  const res = await fetch(pageUrl)
  const html = await res.text()
  if (!res.ok) throw new Error(`${pagePath} answered ${res.status}`)

  const found = new Map<string, Set<'html' | 'browser'>>()
  const nomodule = new Set<string>()
  const add = (u: string, where: 'html' | 'browser') => {
    const abs = new URL(u, pageUrl)
    abs.hash = ''
    if (!found.has(abs.href)) found.set(abs.href, new Set())
    found.get(abs.href)!.add(where)
    return abs.href
  }
  for (const s of scriptSources(html)) {
    const u = add(s.src, 'html')
    if (s.nomodule) nomodule.add(u)
  }
  if (browser) for (const u of await browserScripts(pageUrl)) add(u, 'browser')
  for (const u of extraScripts) add(u, 'browser')

  const origin = new URL(baseUrl).origin
  const scripts: ScriptWeight[] = []
  let servedEncoding = ''
  for (const [u, where] of found) {
    if (u.startsWith('data:') || u.startsWith('blob:')) continue
    // asked as a browser asks; fetch undoes the Content-Encoding: the body as the browser runs it
    const r = await fetch(u, { headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd' } })
    if (!r.ok) throw new Error(`script ${u} answered ${r.status}`)
    const body = Buffer.from(await r.arrayBuffer())
    servedEncoding ||= r.headers.get('content-encoding') ?? ''
    scripts.push({
      url: u.startsWith(origin) ? u.slice(origin.length) : u,
      bytes: body.length,
      gzipBytes: gzipSize(body),
      foundIn: where.size === 2 ? 'html+browser' : where.has('html') ? 'html' : 'browser',
      nomodule: nomodule.has(u),
    })
  }
  scripts.sort((a, b) => b.gzipBytes - a.gzipBytes)
  const inline = inlineScripts(html)
  const inlineGzip = inline.length ? gzipSize(inline.join('')) : 0
  const inlineBytes = inline.reduce((s, x) => s + Buffer.byteLength(x), 0)
  return {
    page: pagePath,
    scripts,
    totalBytes: scripts.reduce((s, x) => s + x.bytes, 0) + inlineBytes,
    totalGzipBytes: scripts.reduce((s, x) => s + x.gzipBytes, 0) + inlineGzip,
    totalGzipBytesModern: scripts.reduce((s, x) => s + (x.nomodule ? 0 : x.gzipBytes), 0) + inlineGzip,
    inline: { count: inline.length, bytes: inlineBytes, gzipBytes: inlineGzip },
    html: { bytes: Buffer.byteLength(html), gzipBytes: gzipSize(html) },
    servedEncoding,
  }
}

/** "12.3 KiB" (1 KiB = 1024 bytes, the budget's unit) */
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

/** one line per script and the total, for a log */
export function describePageWeight(w: PageWeight): string[] {
  return [
    ...w.scripts.map(
      (s) => `${kb(s.gzipBytes)} gzipped (${kb(s.bytes)}) ${s.url} [${s.foundIn}${s.nomodule ? ', nomodule' : ''}]`,
    ),
    `total ${kb(w.totalGzipBytes)} (${w.totalGzipBytes} bytes) gzipped (level ${GZIP_LEVEL}) in ${w.scripts.length} scripts, ${kb(w.totalBytes)} uncompressed; budget ${kb(SCRIPT_BUDGET_GZIP)}: ${w.totalGzipBytes <= SCRIPT_BUDGET_GZIP ? 'met' : 'NOT met'}`,
    `without nomodule scripts (what Chromium fetches): ${kb(w.totalGzipBytesModern)} gzipped`,
    `inline scripts that run (counted): ${w.inline.count}, ${kb(w.inline.gzipBytes)} gzipped; HTML ${kb(w.html.gzipBytes)} gzipped; scripts served with Content-Encoding: ${w.servedEncoding || 'none'}`,
  ]
}
