// Playwright plays the merchant's checkout: its page auto-submits PaReq, MD and TermUrl to acsUrl, the
// payer passes (or fails) the challenge, the PaRes arriving at TermUrl is sent to `complete`, and the
// final status is read through the API.
import { expect, test } from '@playwright/test'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { cardPayment, client, newSite, uid } from '../tests/support/api.ts'
import { failThreeDS, passThreeDS, TEST_CARDS } from './helpers/pay-page.ts'

interface Returned {
  PaRes: string
  MD: string
}

/** the merchant's site: a checkout page that starts 3-D Secure, and its TermUrl */
async function merchantSite() {
  const returned: Returned[] = []
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://localhost')
    if (req.method === 'GET' && url.pathname === '/checkout') {
      const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)
      const termUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/3ds-return`
      res.writeHead(200, { 'Content-Type': 'text/html' })
      res.end(`<!doctype html><title>Checkout</title><p>Redirecting to your bank…</p>
<form id="f" method="post" action="${esc(url.searchParams.get('acsUrl')!)}">
<input type="hidden" name="PaReq" value="${esc(url.searchParams.get('pareq')!)}">
<input type="hidden" name="MD" value="order-42"><input type="hidden" name="TermUrl" value="${esc(termUrl)}"></form>
<script>document.getElementById('f').submit()</script>`)
      return
    }
    if (req.method === 'POST' && url.pathname === '/3ds-return') {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        const form = new URLSearchParams(body)
        returned.push({ PaRes: form.get('PaRes') ?? '', MD: form.get('MD') ?? '' })
        res.writeHead(200, { 'Content-Type': 'text/html' })
        res.end('<!doctype html><title>Back at the shop</title><h1>Back at the shop</h1>')
      })
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, returned, close: () => new Promise((r) => server.close(r)) }
}

for (const [choice, answer, status, reason] of [
  ['Pass authentication', passThreeDS, 'COMPLETED', undefined],
  ['Fail authentication', failThreeDS, 'DECLINED', 'DECLINED_BY_MPI'],
] as const) {
  test(`3-D Secure in the browser: ${choice} → ${status}`, async ({ page }) => {
    const api = client(await newSite('e2e-3ds'))
    const merchant = await merchantSite()
    try {
      const paymentId = uid('e2e')
      const created = await api.put(`/payments/${paymentId}`, cardPayment({}, { pan: TEST_CARDS.threeDS }))
      expect(created.body.status.value).toBe('WAITING')
      const { pareq, acsUrl } = created.body.requirements.threeDS

      await page.goto(`${merchant.origin}/checkout?${new URLSearchParams({ pareq, acsUrl })}`)
      await expect(page.getByRole('heading', { name: /3-D Secure check/ })).toBeVisible()
      await expect(page.getByText('100.00 RUB')).toBeVisible()
      await expect(page.getByText('400000******3220')).toBeVisible()
      await answer(page)
      await expect(page.getByRole('heading', { name: 'Back at the shop' })).toBeVisible()

      expect(merchant.returned).toHaveLength(1)
      expect(merchant.returned[0].MD).toBe('order-42')
      const done = await api.post(`/payments/${paymentId}/complete`, { threeDS: { pares: merchant.returned[0].PaRes } })
      expect(done.status).toBe(200)
      const final = await api.get(`/payments/${paymentId}`)
      expect(final.body.status.value).toBe(status)
      expect(final.body.status.reason).toBe(reason)
    } finally {
      await merchant.close()
    }
  })
}
