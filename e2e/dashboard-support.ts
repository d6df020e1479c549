// What the dashboard journeys share: signing in as a site (by the sign-in form's labels).
import { expect, type Page } from '@playwright/test'

/** signs in at /dashboard with the site's id and token; lands on the overview (/dashboard itself) */
export async function signIn(page: Page, site: { siteId: string; token: string }) {
  await page.goto('/dashboard')
  await page.getByLabel('Site ID').fill(site.siteId)
  await page.getByLabel('API token').fill(site.token)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible()
}

/** the page fits the window: nothing to scroll sideways */
export const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)
