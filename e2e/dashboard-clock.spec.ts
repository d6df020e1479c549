// The site's sandbox clock in Chromium, by labels and roles: Settings shows the site's time on real time,
// "Advance" by 1 day moves it (the page shows the new time, "1 day ahead", and the change in the log),
// refusals are shown on the amount (the form's own check, then the service's limit), and New bill's
// default deadline — a day after the site's time — is accepted by the service; Russian on a 360 px
// screen without sideways scrolling.
import { expect, test, type Page } from '@playwright/test'
import { client, newSite } from '../tests/support/api.ts'
import { fitsWidth, signIn } from './dashboard-support.ts'

const DAY_MS = 24 * 3600_000

async function openSettings(page: Page, heading = 'Settings') {
  await page.getByRole('navigation').getByRole('link', { name: heading }).click()
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
}

/** the site's time the page shows (its <time>'s machine-readable value) */
const shownNow = async (page: Page, region: string) =>
  Date.parse((await page.getByRole('region', { name: region, exact: true }).locator('time').getAttribute('datetime'))!)

test('Advance by 1 day: the new time and "1 day ahead" shown, the API reading it; New bill’s default deadline then accepted', async ({
  page,
}) => {
  const site = await newSite('e2e-dash-clock')
  await signIn(page, site)
  await openSettings(page)
  const clock = page.getByRole('region', { name: 'Sandbox clock', exact: true })
  await expect(clock).toContainText('(real time)')
  expect(Math.abs((await shownNow(page, 'Sandbox clock')) - Date.now())).toBeLessThan(60_000)

  const amount = clock.getByLabel('Advance by')
  // the field is prefilled; a render of the page landing while the text is replaced (a busy machine) left "11":
  // filled until it holds what was typed
  await expect(async () => {
    await amount.fill('1')
    await expect(amount).toHaveValue('1', { timeout: 500 })
  }).toPass()
  await clock.getByLabel('Unit').selectOption({ label: 'days' })
  await clock.getByRole('button', { name: 'Advance', exact: true }).click()
  await expect(clock.getByRole('status')).toHaveText('Moved forward by 1 day.')
  await expect(clock).toContainText('(1 day ahead)')
  await expect
    .poll(async () => Math.abs((await shownNow(page, 'Sandbox clock')) - (Date.now() + DAY_MS)))
    .toBeLessThan(60_000)
  expect((await client(site).get('/sandbox/clock')).body.offsetSeconds).toBe(86_400)
  await expect(
    page
      .getByRole('region', { name: 'Recent changes', exact: true })
      .getByRole('row', { name: /Clock advanced.*by 1 day; now 1 day ahead/ }),
  ).toBeVisible()

  // refused: by the form (not a whole number of 1 or more), then by the service (past its 3650 days), on the field
  await amount.fill('0')
  await clock.getByRole('button', { name: 'Advance', exact: true }).click()
  await expect(amount).toHaveAttribute('aria-invalid', 'true')
  await expect(amount).toHaveAccessibleDescription('Enter a whole number, 1 or more.')
  await amount.fill('3650')
  await clock.getByRole('button', { name: 'Advance', exact: true }).click()
  await expect(amount).toHaveAccessibleDescription(
    "Not moved: the advance would take the site's clock more than 3650 days ahead of real time.",
  )
  await expect(amount).toBeFocused()
  await page.reload()
  await expect(page.getByRole('region', { name: 'Sandbox clock', exact: true })).toContainText('(1 day ahead)')
  expect((await client(site).get('/sandbox/clock')).body.offsetSeconds).toBe(86_400)

  // New bill: the default deadline is a day after the site's time (two days of real time), and accepted
  await page.getByRole('navigation').getByRole('link', { name: 'Bills' }).click()
  await page.getByRole('link', { name: 'New bill' }).click()
  await expect(page.getByRole('heading', { name: 'New bill', level: 1 })).toBeVisible()
  const expires = page.getByLabel('Expires')
  await expect(expires).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/)
  await expect(expires).toHaveAccessibleDescription(/The site’s sandbox clock runs 1 day ahead of real time/)
  await page.getByLabel('Amount').fill('12.00')
  await page.getByRole('button', { name: 'Create bill' }).click()
  await expect(page.getByRole('heading', { name: /^Bill [0-9a-f-]{36}$/, level: 1 })).toBeVisible()
  const billId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!)
  const details = (await client(site).get(`/bills/${billId}/details`)).body
  expect(details.status.value).toBe('CREATED')
  // the form's minutes: at most a minute before two days from now
  expect(Math.abs(Date.parse(details.expirationDateTime) - (Date.now() + 2 * DAY_MS))).toBeLessThan(2 * 60_000)
})

test.describe('in Russian on a 360 px screen', () => {
  test.use({
    locale: 'ru-RU',
    extraHTTPHeaders: { 'Accept-Language': 'ru-RU,ru;q=0.9' },
    viewport: { width: 360, height: 740 },
  })

  test('the clock, an advance and a refusal, without horizontal scrolling', async ({ page }) => {
    const site = await newSite('e2e-dash-clock-ru')
    await page.goto('/dashboard')
    await page.getByLabel('Идентификатор сайта').fill(site.siteId)
    await page.getByLabel('API-токен').fill(site.token)
    await page.getByRole('button', { name: 'Войти' }).click()
    await expect(page.getByRole('heading', { name: 'Обзор', level: 1 })).toBeVisible()
    await openSettings(page, 'Настройки')
    const clock = page.getByRole('region', { name: 'Часы песочницы', exact: true })
    await expect(clock).toContainText('(реальное время)')
    await clock.scrollIntoViewIfNeeded()
    expect(await fitsWidth(page)).toBe(true)

    const amount = clock.getByLabel('Перевести вперёд на')
    await amount.fill('2')
    await clock.getByLabel('Единица').selectOption({ label: 'часы' })
    await clock.getByRole('button', { name: 'Перевести', exact: true }).click()
    await expect(clock.getByRole('status')).toHaveText('Часы переведены вперёд на 2 часа.')
    await expect(clock).toContainText('(впереди на 2 часа)')
    expect(await fitsWidth(page)).toBe(true)
    await expect(
      page
        .getByRole('region', { name: 'Последние изменения', exact: true })
        .getByRole('row', { name: /Перевод часов.*на 2 часа; теперь впереди на 2 часа/ }),
    ).toBeVisible()

    await amount.fill('3650')
    await clock.getByLabel('Единица').selectOption({ label: 'дни' })
    await clock.getByRole('button', { name: 'Перевести', exact: true }).click()
    await expect(amount).toHaveAccessibleDescription(
      'Часы не переведены: часы сайта ушли бы вперёд от реального времени больше чем на 3650 дней.',
    )
    expect(await fitsWidth(page)).toBe(true)
    expect((await client(site).get('/sandbox/clock')).body.offsetSeconds).toBe(7200)

    await page.getByRole('navigation').getByRole('link', { name: 'Счета' }).click()
    await page.getByRole('link', { name: 'Новый счёт' }).click()
    await expect(page.getByRole('heading', { name: 'Новый счёт', level: 1 })).toBeVisible()
    await expect(page.getByLabel('Действует до')).toHaveAccessibleDescription(
      /Часы песочницы сайта впереди реального времени на 2 часа/,
    )
    expect(await fitsWidth(page)).toBe(true)
  })
})
