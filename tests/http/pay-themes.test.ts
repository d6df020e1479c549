// Payment page themes (issue 31): a site's theme, saved in the dashboard's way, is what a bill naming it in
// customFields.themeCode shows — its colours in the page's styles, its name and its logo (served same-origin with its
// exact type, nosniff, and a policy that runs nothing); an unknown code, no code, or another site's code shows the
// default page. A theme whose colours or logo would not do is the contract's 400 naming the field, audited.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { BASE_URL, billRequest, client, newSite, uid } from '../support/api.ts'
import { asSession, assertError, post, signIn } from '../support/dashboard.ts'
import { sql } from '../support/db.ts'
import { BAD_SVGS, GOOD_SVG, solidPng } from '../support/theme-images.ts'

const saveTheme = (session: string, theme: Record<string, unknown>) =>
  post('/dashboard/actions/settings/themes', theme, asSession(session))

const png = (bytes: Buffer) => ({ type: 'image/png', data: bytes.toString('base64') })
const svg = (text: string) => ({ type: 'image/svg+xml', data: Buffer.from(text).toString('base64') })

const THEME = { code: 'shop-01', name: 'Shop of Tests', backgroundColor: '#FFF7ED', buttonColor: '#9a3412' }

async function billPage(site: { siteId: string; token: string }, customFields?: Record<string, string>) {
  const bill = await client(site).put(`/bills/${uid('b')}`, billRequest(customFields ? { customFields } : {}))
  assert.equal(bill.status, 200, bill.text)
  const res = await fetch(`${BASE_URL}/pay/${bill.body.invoiceUid}`)
  assert.equal(res.status, 200)
  return res.text()
}

/** the page's styles (its one inline <style>) */
const stylesOf = (html: string) => /<style[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? ''

test("a bill naming its site's theme shows its colours, name and logo; others show the default page", async () => {
  const site = await newSite('theme')
  const session = await signIn(site)
  const logo = solidPng(96, 48)
  const saved = await saveTheme(session, { ...THEME, logo: png(logo) })
  assert.equal(saved.status, 200, saved.text)
  assert.equal(saved.body.backgroundColor, '#fff7ed')
  assert.equal(saved.body.buttonTextColor, '#ffffff')
  assert.match(saved.body.logo.src, /^\/pay-theme\/[^/]+\/shop-01\/logo\?v=[\w-]{22}$/)

  // the Settings page lists it, in the reader's language
  for (const [lang, title] of [
    ['en', 'Payment page themes'],
    ['ru', 'Темы страницы оплаты'],
  ]) {
    const page = await fetch(`${BASE_URL}/dashboard/settings`, {
      headers: { ...asSession(session), 'Accept-Language': lang },
    })
    const settingsHtml = await page.text()
    assert.ok(settingsHtml.includes(title), lang)
    assert.match(settingsHtml, /<li data-theme="shop-01">/)
    assert.ok(settingsHtml.includes('Shop of Tests'))
  }

  const plain = await billPage(site)
  const html = await billPage(site, { themeCode: 'shop-01', cf1: 'x' })
  const css = stylesOf(html)
  assert.match(css, /--theme-bg:#fff7ed/)
  assert.match(css, /--theme-button:#9a3412; --theme-button-ink:#ffffff/)
  assert.match(html, /<header class="pay-theme" data-theme="shop-01">/)
  assert.match(html, /<span class="pay-theme-name">Shop of Tests<\/span>/)
  const src = /<img src="([^"]+)" width="96" height="48" alt=""/.exec(html)?.[1]?.replace(/&amp;/g, '&')
  assert.ok(src)
  assert.equal(src, saved.body.logo.src)
  // the default page has none of it, and its styles are the themed page's without the theme's rules
  assert.doesNotMatch(plain, /pay-theme|--theme-/)
  assert.ok(css.startsWith(stylesOf(plain)))

  // the logo: same origin, its exact bytes and type, never sniffed, running nothing; kept for good at its hash
  const res = await fetch(`${BASE_URL}${src}`)
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('content-type'), 'image/png')
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
  assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/)
  assert.match(res.headers.get('cache-control') ?? '', /immutable/)
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), logo)
  const stale = await fetch(`${BASE_URL}${src.replace(/v=.*/, 'v=old')}`)
  assert.doesNotMatch(stale.headers.get('cache-control') ?? '', /immutable/)
  await stale.arrayBuffer()

  // an unknown code, and this theme's code on another site's bill: the default page
  assert.doesNotMatch(await billPage(site, { themeCode: 'shop-02' }), /pay-theme|--theme-/)
  const other = await newSite('theme')
  assert.doesNotMatch(await billPage(other, { themeCode: 'shop-01' }), /pay-theme|--theme-/)
  const otherLogo = await fetch(`${BASE_URL}/pay-theme/${other.siteId}/shop-01/logo`)
  assert.equal(otherLogo.status, 404)
  await otherLogo.text()

  // changed without a logo: the logo stays; an SVG logo replaces it and is served as SVG; deleted: the default page
  const renamed = await saveTheme(session, { ...THEME, name: 'Shop, renamed' })
  assert.equal(renamed.body.logo.src, saved.body.logo.src)
  const withSvg = await saveTheme(session, { ...THEME, logo: svg(GOOD_SVG) })
  assert.equal(withSvg.status, 200, withSvg.text)
  const svgRes = await fetch(`${BASE_URL}${withSvg.body.logo.src}`)
  assert.equal(svgRes.headers.get('content-type'), 'image/svg+xml; charset=utf-8')
  assert.equal(await svgRes.text(), GOOD_SVG)
  assert.match(await billPage(site, { themeCode: 'shop-01' }), /width="96" height="48" alt=""/)
  assert.equal((await post('/dashboard/actions/settings/themes/shop-01/delete', {}, asSession(session))).status, 200)
  assert.doesNotMatch(await billPage(site, { themeCode: 'shop-01' }), /pay-theme|--theme-/)
  const gone = await post('/dashboard/actions/settings/themes/shop-01/delete', {}, asSession(session))
  assertError(gone, 404, 'payin.resource.not.found')

  const audit = await sql(
    `SELECT action, subject, outcome FROM "AuditEntry" WHERE "siteId" = $1 AND action IN ('theme', 'delete-theme')
     ORDER BY at`,
    [site.siteId],
  )
  assert.deepEqual(
    audit.map((a) => [a.action, a.subject, a.outcome]),
    [
      ['theme', 'shop-01', 'set'],
      ['theme', 'shop-01', 'set'],
      ['theme', 'shop-01', 'set'],
      ['delete-theme', 'shop-01', 'deleted'],
    ],
  )
})

test('a theme that would not do: 400 naming its field, nothing saved, the refusal audited', async () => {
  const site = await newSite('theme')
  const session = await signIn(site)
  const refusals: [string, Record<string, unknown>][] = [
    ['backgroundColor', { backgroundColor: 'orange' }],
    ['buttonColor', { buttonColor: '#12345' }],
    ['buttonTextColor', { buttonTextColor: 'rgb(0,0,0)' }],
    // the page's text on a dark background, white on a light button, dark on a dark one: below 4.5:1
    ['backgroundColor', { backgroundColor: '#333333' }],
    ['buttonColor', { buttonColor: '#f97316' }],
    ['buttonColor', { buttonColor: '#1e3a8a', buttonTextColor: '#374151' }],
    ['code', { code: 'shop 01' }],
    ['code', { code: 'шоп' }],
    ['name', { name: '   ' }],
    ['logo', { logo: png(Buffer.from('GIF89a, not a PNG at all')) }],
    ['logo', { logo: { type: 'image/png', data: Buffer.from(GOOD_SVG).toString('base64') } }],
    ['logo', { logo: { type: 'image/gif', data: 'R0lGODlh' } }],
    ['logo', { logo: { type: 'image/png', data: 'not base64!' } }],
    ['logo', { logo: png(Buffer.concat([solidPng(8, 8), Buffer.alloc(64 * 1024)])) }],
    ...Object.entries(BAD_SVGS).map(([, text]) => ['logo', { logo: svg(text) }] as [string, Record<string, unknown>]),
  ]
  for (const [field, over] of refusals) {
    const r = await saveTheme(session, { ...THEME, ...over })
    assertError(r, 400, 'validation.error')
    assert.ok(Array.isArray(r.body.cause?.[field]), `${JSON.stringify(over).slice(0, 80)}: ${r.text}`)
  }
  // a logo over 64 KiB is refused by its size, not by its shape
  const big = await saveTheme(session, { ...THEME, logo: svg(`<svg>${' '.repeat(64 * 1024)}</svg>`) })
  assert.match(big.body.cause.logo[0], /at most 64 KiB/)
  const [{ n }] = await sql(`SELECT count(*)::int AS n FROM "SiteTheme" WHERE "siteId" = $1`, [site.siteId])
  assert.equal(n, 0)
  const refused = await sql(
    `SELECT subject, outcome FROM "AuditEntry" WHERE "siteId" = $1 AND action = 'theme' AND outcome LIKE 'refused:%'`,
    [site.siteId],
  )
  assert.equal(refused.length, refusals.length + 1)
  assert.ok(refused.some((a) => a.outcome.startsWith('refused: buttonColor') && a.outcome.includes('contrast')))
  // signed out: refused as every dashboard action is
  assert.equal((await post('/dashboard/actions/settings/themes', THEME)).status, 401)
})
