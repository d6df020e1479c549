// Nothing on the dashboard needs what its Content-Security-Policy refuses (issue 33): on every page, with each
// form's check run (a refused value, so nothing is written), the browser reports no policy violation and no
// console error. zod probed whether it may compile code (new Function) on the first check of a form, which the
// policy refused: Lighthouse's best practices fell to 96.
import { expect, test, type Page } from '@playwright/test'
import { cardPayment, client, newSite, twoStepPayment, uid } from '../tests/support/api.ts'
import { signIn } from './dashboard-support.ts'

/** records every policy violation and console error of the page, from its first script on */
async function watch(page: Page) {
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      ;(window as unknown as { violations: string[] }).violations ??= []
      ;(window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.blockedURI}`)
    })
  })
  return async () => {
    const violations = await page.evaluate(() => (window as unknown as { violations?: string[] }).violations ?? [])
    return [...problems, ...violations.map((v) => `violation: ${v}`)]
  }
}

test('no page or form of the dashboard breaks its Content-Security-Policy', async ({ page }) => {
  const site = await newSite('e2e-csp')
  const api = client(site)
  const held = await api.newPayment(twoStepPayment())
  const billId = uid('bill')
  await api.newPayment(cardPayment({ billId }))
  const problems = await watch(page)

  // the sign-in form's check: an empty token is refused before anything is sent
  await page.goto('/dashboard')
  await page.getByLabel('Site ID').fill(site.siteId)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByLabel('API token')).toHaveAttribute('aria-invalid', 'true')
  expect(await problems()).toEqual([])
  await signIn(page, site)

  // a payment's Capture form: an amount that is no amount
  await page.goto(`/dashboard/payments/${held}`)
  const capture = page.getByRole('region', { name: 'Capture' })
  await capture.getByLabel('Amount').fill('twelve')
  await capture.getByRole('button', { name: 'Capture' }).click()
  await expect(capture.getByLabel('Amount')).toHaveAttribute('aria-invalid', 'true')
  expect(await problems()).toEqual([])

  // a new bill without a deadline
  await page.goto('/dashboard/bills/new')
  await page.getByLabel('Expires').fill('')
  await page.getByRole('button', { name: 'Create bill' }).click()
  await expect(page.getByLabel('Expires')).toHaveAttribute('aria-invalid', 'true')
  expect(await problems()).toEqual([])

  // the settings' forms: a notification URL that is not http(s)
  await page.goto('/dashboard/settings')
  const url = page.getByRole('region', { name: 'Notification URL', exact: true })
  await url.getByRole('textbox', { name: 'Notification URL' }).fill('ftp://files.example/hook')
  await url.getByRole('button', { name: 'Save' }).click()
  await expect(url.getByText('The URL must be an absolute http(s) URL.')).toBeVisible()
  expect(await problems()).toEqual([])

  for (const path of [
    '/dashboard',
    '/dashboard/payments',
    `/dashboard/bills/${billId}`,
    '/dashboard/bills',
    '/dashboard/notifications',
  ]) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    expect(await problems(), path).toEqual([])
  }
})
