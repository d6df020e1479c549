// What the payment-page journeys share: a merchant with bills made through the API, the merchant's own
// little web site (successUrl / failedUrl), and the few payer's moves the helper module merchants copy
// (helpers/pay-page.ts: payWithCard, passThreeDS, enterCode, payFromMobile…) does not make: key-by-key typing.
import { expect, type Page } from '@playwright/test'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { billRequest, client, newSite, uid } from '../tests/support/api.ts'

export type Api = ReturnType<typeof client>

/** a merchant site with a token, and helpers around its bills */
export async function merchant(prefix = 'e2e-pay') {
  const api = client(await newSite(prefix))
  return {
    api,
    /** creates a bill (billRequest defaults: 3.00 RUB, SALE, a day to pay) and answers its wire form */
    async bill(over: Record<string, unknown> = {}, billId = uid('bill')) {
      const r = await api.put(`/bills/${billId}`, billRequest(over))
      expect(r.status, r.text).toBe(200)
      expect(r.body.status.value).toBe('CREATED')
      expect(r.body.payUrl).toMatch(/\/pay\/[0-9a-f-]{36}$/)
      return r.body as { billId: string; invoiceUid: string; payUrl: string; [k: string]: any }
    },
    /** the bill's details with its payments */
    async details(billId: string) {
      const r = await api.get(`/bills/${billId}/details`)
      expect(r.status, r.text).toBe(200)
      return r.body as { status: { value: string }; payments: any[]; [k: string]: any }
    },
  }
}

export interface Visit {
  path: string
  query: URLSearchParams
}

/** the merchant's web site: answers any GET with a small page and remembers where payers landed */
export async function merchantWebSite() {
  const visits: Visit[] = []
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://localhost')
    visits.push({ path: url.pathname, query: url.searchParams })
    const title = url.pathname.startsWith('/ok')
      ? 'Thank you for your order'
      : url.pathname.startsWith('/fail')
        ? 'Your payment failed'
        : 'Shop'
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><title>${title}</title><h1>${title}</h1>`)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, visits, close: () => new Promise((r) => server.close(r)) }
}

/** the payer types a card into the form (as a person would: key by key), without pressing Pay: for the journeys
 * that look at the typing itself or at the form's checks; a plain payment is helpers/pay-page.ts's payWithCard */
export async function typeCard(page: Page, pan: string, expiry = '1230', cvv = '123') {
  const number = page.getByLabel('Card number')
  await number.fill('')
  await number.pressSequentially(pan)
  await page.getByLabel('Expiry date (MM/YY)').fill('')
  await page.getByLabel('Expiry date (MM/YY)').pressSequentially(expiry)
  await page.getByLabel('Security code (CVV)').fill(cvv)
}

export const payButton = (page: Page) => page.getByRole('button', { name: /^Pay\b/ })

export const paidHeading = (page: Page) => page.getByRole('heading', { name: 'This bill is paid' })

/** the statuses of a bill's payments, as [status, reason] sorted */
export const outcomes = (payments: any[]) =>
  payments
    .map((p) => [p.status.value, p.status.reason ?? null] as [string, string | null])
    .sort((a, b) => a[0].localeCompare(b[0]))
