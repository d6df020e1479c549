// GET /pay-theme/{siteId}/{themeCode}/logo: a theme's logo, as its themed pages show it (same origin: the pages' CSP
// needs no other image source). Its exact type, never sniffed; an SVG logo is served under a policy that lets it run
// nothing and load nothing even when opened on its own (the page's <img> would run none anyway). The page asks for it
// with the logo's hash (?v=…): that answer a browser may keep for good, as a new logo has a new address.
import { themeLogo } from './theme-service'

type Context = { params: Promise<{ siteId: string; themeCode: string }> }

const COMMON = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
}

const notFound = () =>
  new Response('Not found\n', {
    status: 404,
    headers: { ...COMMON, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' },
  })

export async function GET(req: Request, ctx: Context): Promise<Response> {
  const { siteId, themeCode } = await ctx.params
  if (!/^[A-Za-z0-9-]{1,64}$/.test(themeCode) || siteId.length > 200) return notFound()
  const logo = await themeLogo(siteId, themeCode)
  if (!logo) return notFound()
  const version = new URL(req.url).searchParams.get('v')
  const current = version !== null && version === logo.hash.slice(0, 22)
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      ...COMMON,
      // an SVG is read as UTF-8, as its check read it
      'Content-Type': logo.type === 'image/svg+xml' ? 'image/svg+xml; charset=utf-8' : logo.type,
      'Content-Length': String(logo.bytes.length),
      'Cache-Control': current ? 'public, max-age=31536000, immutable' : 'public, no-cache',
      ETag: `"${logo.hash}"`,
    },
  })
}
