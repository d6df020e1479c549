// The API reference (/docs) as a developer reads it: rendered on the server from the OpenAPI document,
// so it reads the same without JavaScript; every endpoint grouped under its heading, with an example
// folded out on a click (no script needed for that either); no request leaves the service; it fits a
// 360 px screen without sideways scrolling, and the page's own policy refuses nothing it loads.
import { expect, test } from '@playwright/test'
import path from 'node:path'
import { fitsWidth } from './dashboard-support.ts'

const DIR = process.env.SCREENSHOTS_DIR ?? 'test-results/api-reference'

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('every endpoint is there, grouped, with its parameters, answers and curl command', async ({ page }) => {
    await page.goto('/docs')
    await expect(page.getByRole('heading', { name: 'Payin sandbox merchant API', level: 1 })).toBeVisible()
    for (const group of ['Payments', 'Captures', 'Refunds', 'Bills', 'Notifications', 'Service'])
      await expect(page.getByRole('heading', { name: group, level: 2, exact: true })).toBeVisible()
    const create = page.locator('#createPayment')
    await expect(create.getByRole('heading', { level: 3 })).toHaveText('PUT/sites/{siteId}/payments/{paymentId}')
    await expect(create.getByText('Path parameters')).toBeVisible()
    await expect(create.locator('.docs-responses').getByText('payin.request.conflict').first()).toBeVisible()
    await expect(create.locator('pre').last()).toContainText('curl -s -X PUT "$BASE/sites/$SITE/payments/order-1001"')
    // an example folds out without a script
    await create.getByText('Example: A one-step card payment').click()
    await expect(create.locator('details[open] pre')).toContainText('"pan": "4111111111111111"')
    // a component name leads to its schema
    await page.locator('#readPayment').getByRole('link', { name: 'Payment', exact: true }).first().click()
    await expect(page).toHaveURL(/#schema-Payment$/)
    await expect(page.locator('#schema-Payment')).toContainText('createdToken')
  })
})

test('nothing is loaded from elsewhere, nothing is refused, and it fits 360 px', async ({ page }) => {
  const requested: string[] = []
  const refused: string[] = []
  page.on('request', (r) => void requested.push(r.url()))
  page.on('console', (m) => {
    if (m.type() === 'error') refused.push(m.text())
  })
  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/docs')
  await expect(page.getByRole('heading', { name: 'Payin sandbox merchant API', level: 1 })).toBeVisible()
  expect(await fitsWidth(page), '/docs scrolls sideways at 360 px').toBe(true)
  await page.locator('#createPayment').getByText('Example: A one-step card payment').click()
  expect(await fitsWidth(page), 'an example scrolls sideways at 360 px').toBe(true)
  await page.screenshot({ path: path.join(DIR, 'docs-360px.png') })
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto('/docs#createPayment')
  expect(await fitsWidth(page), '/docs scrolls sideways at 1280 px').toBe(true)
  await page.screenshot({ path: path.join(DIR, 'docs-1280px.png') })
  const origin = new URL(page.url()).origin
  expect(requested.length).toBeGreaterThan(0)
  expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([])
  expect(refused).toEqual([])
})
