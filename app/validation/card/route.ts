// Production's payUrl of a CHECK_CARD bill, /validation/card?invoiceUid=…: the bill's payment page (its other query
// parameters, lang say, kept). An invoiceUid that is no bill's id goes to the page's own "not found".
import { settings } from '@/lib/config'

export const dynamic = 'force-dynamic'

export function GET(req: Request): Response {
  const url = new URL(req.url)
  const invoiceUid = url.searchParams.get('invoiceUid') ?? ''
  url.searchParams.delete('invoiceUid')
  const query = url.searchParams.toString()
  const target = `${settings().publicBaseUrl}/pay/${encodeURIComponent(invoiceUid.slice(0, 64))}${query ? `?${query}` : ''}`
  return new Response(null, { status: 303, headers: { Location: target, 'Cache-Control': 'no-store' } })
}
