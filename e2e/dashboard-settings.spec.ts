// The dashboard's settings in Chromium, by labels and roles: the notification URL (a refusal shown on
// the field, then saved), "Rotate secret" shown once and gone on reload (by keyboard alone), "Create
// token" shown once and signing in with it in another browser, revoking the token in use signs out,
// and Russian on a 360 px screen with no sideways scrolling.
import { expect, test, type Page } from '@playwright/test'
import { BASE_URL, newSite } from '../tests/support/api.ts'
import { sql } from '../tests/support/db.ts'
import { fitsWidth, signIn } from './dashboard-support.ts'

async function openSettings(page: Page, heading = 'Settings') {
  await page.getByRole('navigation').getByRole('link', { name: heading }).click()
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
}

test('the notification URL: a refused one is shown on the field, then one is saved', async ({ page }) => {
  const site = await newSite('e2e-settings-url')
  await signIn(page, site)
  await openSettings(page)
  const section = page.getByRole('region', { name: 'Notification URL', exact: true })
  const field = section.getByRole('textbox', { name: 'Notification URL' })
  await expect(field).toHaveValue('')

  // the service's rule (this server allows no private network): refused, on the field
  await field.fill('http://127.0.0.1:8080/payin-hook')
  await section.getByRole('button', { name: 'Save' }).click()
  // the service's words, naming the setting that would allow it
  await expect(
    section.getByText(/^The URL must not point to a private address \(.*NOTIFY_ALLOW_NETWORKS=127\.0\.0\.0\/8.*\)\.$/),
  ).toBeVisible()
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(field).toBeFocused()
  // the form's own check, before asking
  await field.fill('ftp://files.example/hook')
  await section.getByRole('button', { name: 'Save' }).click()
  await expect(section.getByText('The URL must be an absolute http(s) URL.')).toBeVisible()
  expect((await sql(`SELECT "notifyUrl" FROM "Site" WHERE id = $1`, [site.siteId]))[0].notifyUrl).toBeNull()

  // a loopback receiver by name: accepted now, checked on its address at each delivery
  await field.fill('http://localhost:4999/payin-hook')
  await section.getByRole('button', { name: 'Save' }).click()
  await expect(section.getByRole('status')).toHaveText('Saved')
  await expect(field).toHaveAttribute('aria-invalid', 'false')
  expect((await sql(`SELECT "notifyUrl" FROM "Site" WHERE id = $1`, [site.siteId]))[0].notifyUrl).toBe(
    'http://localhost:4999/payin-hook',
  )
  const changes = page.getByRole('region', { name: 'Recent changes', exact: true })
  await expect(changes.getByRole('row', { name: /localhost:4999.*set/ })).toBeVisible()
  await page.reload()
  await expect(
    page
      .getByRole('region', { name: 'Notification URL', exact: true })
      .getByRole('textbox', { name: 'Notification URL' }),
  ).toHaveValue('http://localhost:4999/payin-hook')

  // empty: no notifications
  await page.getByRole('textbox', { name: 'Notification URL' }).fill('')
  // the Holds card has a Save button too
  await page
    .getByRole('region', { name: 'Notification URL', exact: true })
    .getByRole('button', { name: 'Save' })
    .click()
  await expect(page.getByRole('region', { name: 'Notification URL', exact: true }).getByRole('status')).toHaveText(
    'Saved',
  )
  await expect
    .poll(async () => (await sql(`SELECT "notifyUrl" FROM "Site" WHERE id = $1`, [site.siteId]))[0].notifyUrl)
    .toBeNull()
})

test('Holds: the period checked on the field, then reversal after 48 h saved and shown', async ({ page }) => {
  const site = await newSite('e2e-settings-holds')
  await signIn(page, site)
  await openSettings(page)
  const holds = page.getByRole('region', { name: 'Holds', exact: true })
  await expect(holds.getByText('Captured in full 72 h after the authorisation.')).toBeVisible()
  await expect(holds.getByRole('radio', { name: 'Capture in full' })).toBeChecked()
  const hours = holds.getByRole('spinbutton', { name: 'Period, hours (1 to 120)' })
  await expect(hours).toHaveValue('72')
  await holds.getByRole('radio', { name: 'Reverse' }).check()
  await hours.fill('121')
  await holds.getByRole('button', { name: 'Save' }).click()
  await expect(holds.getByText('Enter whole hours, 1 to 120 (5 days).')).toBeVisible()
  await expect(hours).toHaveAttribute('aria-invalid', 'true')
  await hours.fill('48')
  await holds.getByRole('button', { name: 'Save' }).click()
  await expect(holds.getByRole('status')).toHaveText('Saved')
  await expect(holds.getByText('Reversed 48 h after the authorisation.')).toBeVisible()
  expect((await sql(`SELECT "holdHours", "holdReversal" FROM "Site" WHERE id = $1`, [site.siteId]))[0]).toEqual({
    holdHours: 48,
    holdReversal: true,
  })
  const changes = page.getByRole('region', { name: 'Recent changes', exact: true })
  await expect(changes.getByRole('row', { name: /Holds.*reverse after 48 h/ })).toBeVisible()
  await page.reload()
  await expect(
    page.getByRole('region', { name: 'Holds', exact: true }).getByRole('radio', { name: 'Reverse' }),
  ).toBeChecked()
})

test('Rotate secret, by keyboard: confirmed, the new secret shown once, gone on reload', async ({ page }) => {
  const site = await newSite('e2e-settings-secret')
  await signIn(page, site)
  await openSettings(page)
  const section = page.getByRole('region', { name: 'Signing secret', exact: true })
  await expect(section.getByRole('textbox')).toHaveCount(0)

  await section.getByRole('button', { name: 'Rotate secret' }).focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('alertdialog', { name: 'Rotate secret' })
  await expect(dialog).toContainText('keeps signing for 24 hours')
  // the confirmation takes the focus; Cancel gives it back
  await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toHaveCount(0)
  await expect(section.getByRole('button', { name: 'Rotate secret' })).toBeFocused()
  expect(
    (await sql(`SELECT "notifySecretVersion" FROM "Site" WHERE id = $1`, [site.siteId]))[0].notifySecretVersion,
  ).toBe(0)

  await page.keyboard.press('Enter')
  await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeFocused()
  await page.keyboard.press('Enter')
  const shown = section.getByRole('textbox', { name: 'New signing secret' })
  await expect(shown).toHaveValue(/^whsec_\S+$/)
  await expect(shown).toBeFocused()
  const secret = await shown.inputValue()
  await expect(section).toContainText('This page will not show it again; the command above prints it at any time.')
  await expect(section).toContainText('The previous secret keeps signing for 24 hours')
  // the very secret the service now signs with
  const { closeDb } = await import('../lib/db/client.ts')
  const { notifySecrets } = await import('../lib/notifications/site-notify.ts')
  try {
    expect((await notifySecrets(site.siteId)).current).toBe(secret)
  } finally {
    await closeDb()
  }
  await expect(
    page.getByRole('region', { name: 'Recent changes', exact: true }).getByRole('row', { name: /Secret rotated/ }),
  ).toHaveCount(1)

  await page.reload()
  await expect(page.getByRole('heading', { name: 'Signing secret' })).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'New signing secret' })).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Signing secret', exact: true })).toContainText(
    'The previous secret still signs until',
  )
  expect(await page.content()).not.toContain(secret)
})

test('Create token: shown once, signs in elsewhere; revoking the token in use signs that browser out', async ({
  page,
  browser,
}) => {
  const site = await newSite('e2e-settings-tokens')
  await signIn(page, site)
  await openSettings(page)
  const tokens = page.getByRole('region', { name: 'API tokens', exact: true })
  await expect(
    tokens.getByRole('row', { name: new RegExp(`${site.token.slice(0, 9)}…\\s*this session`) }),
  ).toBeVisible()
  // the site's one active token cannot be revoked
  await expect(tokens.getByRole('button', { name: 'Revoke' })).toBeDisabled()

  await tokens.getByRole('button', { name: 'Create token' }).click()
  const shown = tokens.getByRole('textbox', { name: 'New API token' })
  await expect(shown).toHaveValue(/^sk_[A-Za-z0-9_-]{43}$/)
  const token = await shown.inputValue()
  await expect(tokens).toContainText('Copy it now')
  const hint = token.slice(0, 9)
  await expect(tokens.getByRole('row', { name: new RegExp(`${hint}….*Active`) })).toBeVisible()
  await page.reload()
  await expect(page.getByRole('textbox', { name: 'New API token' })).toHaveCount(0)
  expect(await page.content()).not.toContain(token)

  // another browser signs in with the new token
  const other = await browser.newContext({ baseURL: BASE_URL })
  try {
    const page2 = await other.newPage()
    await signIn(page2, { siteId: site.siteId, token })
    await openSettings(page2)
    const ownRow = page2
      .getByRole('region', { name: 'API tokens', exact: true })
      .getByRole('row', { name: new RegExp(`${hint}…\\s*this session`) })
    await ownRow.getByRole('button', { name: 'Revoke' }).click()
    const dialog = page2.getByRole('alertdialog', { name: 'Revoke' })
    await expect(dialog).toContainText('you will be signed out')
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(page2.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible()
    await expect(page2.getByRole('main').getByRole('alert')).toHaveText('Your session has ended. Sign in again.')
    await page2.goto('/dashboard/settings')
    await expect(page2.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible()
  } finally {
    await other.close()
  }

  // the first browser's session goes on, and sees the token revoked
  await page.reload()
  const after = page.getByRole('region', { name: 'API tokens', exact: true })
  await expect(after.getByRole('row', { name: new RegExp(`${hint}….*Revoked`) })).toBeVisible()
  await expect(
    page.getByRole('region', { name: 'Recent changes', exact: true }).getByRole('row', { name: /Token revoked/ }),
  ).toBeVisible()
})

test.describe('in Russian on a 360 px screen', () => {
  test.use({
    locale: 'ru-RU',
    extraHTTPHeaders: { 'Accept-Language': 'ru-RU,ru;q=0.9' },
    viewport: { width: 360, height: 740 },
  })

  test('the settings, a token and a secret shown, a refusal, without horizontal scrolling', async ({ page }) => {
    const site = await newSite('e2e-settings-ru')
    await page.goto('/dashboard')
    await page.getByLabel('Идентификатор сайта').fill(site.siteId)
    await page.getByLabel('API-токен').fill(site.token)
    await page.getByRole('button', { name: 'Войти' }).click()
    await expect(page.getByRole('heading', { name: 'Обзор', level: 1 })).toBeVisible()
    await openSettings(page, 'Настройки')
    for (const name of ['Адрес для уведомлений', 'Секрет подписи', 'API-токены', 'Последние изменения'])
      await expect(page.getByRole('region', { name })).toBeVisible()
    expect(await fitsWidth(page)).toBe(true)

    const url = page.getByRole('region', { name: 'Адрес для уведомлений', exact: true })
    await url.getByRole('textbox', { name: 'Адрес для уведомлений' }).fill('http://10.0.0.7/hook')
    await url.getByRole('button', { name: 'Сохранить' }).click()
    await expect(
      url.getByText(/^Адрес не должен указывать на внутренний адрес сети \(.*NOTIFY_ALLOW_NETWORKS.*\)\.$/),
    ).toBeVisible()
    expect(await fitsWidth(page)).toBe(true)

    const tokens = page.getByRole('region', { name: 'API-токены', exact: true })
    await tokens.getByRole('button', { name: 'Создать токен' }).click()
    await expect(tokens.getByRole('textbox', { name: 'Новый API-токен' })).toHaveValue(/^sk_/)
    expect(await fitsWidth(page)).toBe(true)

    const secret = page.getByRole('region', { name: 'Секрет подписи', exact: true })
    await secret.getByRole('button', { name: 'Сменить секрет' }).click()
    await page.getByRole('alertdialog', { name: 'Сменить секрет' }).getByRole('button', { name: 'Подтвердить' }).click()
    await expect(secret.getByRole('textbox', { name: 'Новый секрет подписи' })).toHaveValue(/^whsec_/)
    await expect(secret).toContainText('команда выше напечатает его в любой момент')
    expect(await fitsWidth(page)).toBe(true)
    // the heading's row and three changes
    await expect(page.getByRole('region', { name: 'Последние изменения', exact: true }).getByRole('row')).toHaveCount(4)
    expect(await fitsWidth(page)).toBe(true)
  })
})
