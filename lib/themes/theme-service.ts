// A site's payment page themes (issue 31): saved and removed from the dashboard's Settings, chosen by a bill's
// customFields.themeCode (a link's extras[themeCode] becomes it). The page of a bill whose code names none of its
// site's themes shows the default theme: a code never reaches another site's theme, as the look-up is by the bill's
// site and the code together.
import { createHash } from 'node:crypto'
import {
  checkedCode,
  checkedColors,
  checkedLogo,
  checkedName,
  LOGO_TYPES,
  MAX_THEMES,
  ThemeRefused,
  type LogoType,
} from './theme-rules'
import { deleteTheme, themeCount, themeLogoOf, themeOf, themesOf, writeTheme, type StoredTheme } from './theme-store'

export { ThemeRefused } from './theme-rules'
export type { StoredTheme } from './theme-store'

/** the customFields key that names a bill's theme, as production's */
export const THEME_FIELD = 'themeCode'

/** a theme as it is sent to be saved; `logo` undefined keeps the stored one, null removes it */
export interface ThemeInput {
  code: string
  name: string
  backgroundColor: string
  buttonColor: string
  buttonTextColor?: string | null
  logo?: { type: string; data: string } | null
}

/** the base64 of a logo as sent: standard alphabet, padding optional; refused otherwise */
function logoBytes(data: string): Buffer {
  const text = data.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new ThemeRefused('logo', 'must be base64')
  return Buffer.from(text, 'base64')
}

/** checks the theme and adds it, or replaces the site's theme of its code; null when there is no such site */
export async function saveTheme(siteId: string, input: ThemeInput): Promise<StoredTheme | null> {
  const code = checkedCode(input.code)
  const name = checkedName(input.name)
  const colors = checkedColors(input)
  let logo: Parameters<typeof writeTheme>[1]['logo']
  if (input.logo) {
    if (!LOGO_TYPES.includes(input.logo.type as LogoType))
      throw new ThemeRefused('logo', `must be one of ${LOGO_TYPES.join(', ')}`)
    const checked = checkedLogo(logoBytes(input.logo.data), input.logo.type)
    const hash = createHash('sha256').update(checked.bytes).digest('base64url')
    logo = { ...checked, hash }
  } else logo = input.logo
  if (!(await themeOf(siteId, code)) && (await themeCount(siteId)) >= MAX_THEMES)
    throw new ThemeRefused('code', `a site has at most ${MAX_THEMES} themes`)
  return writeTheme(siteId, { code, name, ...colors, logo })
}

/** removes the site's theme of this code; false when it has none */
export const removeTheme = (siteId: string, code: string): Promise<boolean> => deleteTheme(siteId, code)

/** the site's themes, by code */
export const siteThemes = (siteId: string): Promise<StoredTheme[]> => themesOf(siteId)

/** what a themed page shows: the theme's name, colours and logo (its same-origin address and its shown size) */
export interface PageTheme {
  code: string
  name: string
  backgroundColor: string
  buttonColor: string
  buttonTextColor: string
  logo: { src: string; width: number; height: number } | null
}

/** the logo's height on the page, in CSS pixels (production asks for 48 × 48 or larger), and its widest */
const LOGO_HEIGHT = 48
const LOGO_MAX_WIDTH = 192

/** the address of a theme's logo: same origin, its hash in the query so a browser may keep each version for good */
export const logoPath = (siteId: string, code: string, hash: string) =>
  `/pay-theme/${encodeURIComponent(siteId)}/${encodeURIComponent(code)}/logo?v=${hash.slice(0, 22)}`

function shownSize(width: number, height: number): { width: number; height: number } {
  const w = Math.round((LOGO_HEIGHT * width) / height)
  if (w <= LOGO_MAX_WIDTH) return { width: Math.max(w, 1), height: LOGO_HEIGHT }
  return { width: LOGO_MAX_WIDTH, height: Math.max(1, Math.round((LOGO_MAX_WIDTH * height) / width)) }
}

/** the theme a bill's customFields name, of the bill's own site; null (the default theme) when none is, or unknown */
export async function pageTheme(siteId: string, customFields: unknown): Promise<PageTheme | null> {
  const code =
    customFields && typeof customFields === 'object' && !Array.isArray(customFields)
      ? (customFields as Record<string, unknown>)[THEME_FIELD]
      : undefined
  if (typeof code !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(code)) return null
  const theme = await themeOf(siteId, code)
  if (!theme) return null
  return {
    code: theme.code,
    name: theme.name,
    backgroundColor: theme.backgroundColor,
    buttonColor: theme.buttonColor,
    buttonTextColor: theme.buttonTextColor,
    logo: theme.logo
      ? { src: logoPath(siteId, theme.code, theme.logo.hash), ...shownSize(theme.logo.width, theme.logo.height) }
      : null,
  }
}

/** a theme's logo as its route serves it; null when the site's theme of this code has none */
export const themeLogo = (siteId: string, code: string) => themeLogoOf(siteId, code)
