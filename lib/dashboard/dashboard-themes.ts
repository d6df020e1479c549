// The dashboard's payment page themes of a site (lib/themes): listed on the Settings page, saved (added or changed)
// and deleted there, each change and refusal in the audit log under the theme's code. No framework imports.
import { fieldError, notFound } from '../http/api-error'
import { logoPath, removeTheme, saveTheme, siteThemes, ThemeRefused, type ThemeInput } from '../themes/theme-service'
import { recordAudit } from './dashboard-audit'
import type { DashboardSession } from './dashboard-session'

/** the audit log's actions of a theme saved and of a theme deleted */
export const THEME_ACTION = 'theme'
export const DELETE_THEME_ACTION = 'delete-theme'

/** a theme as the Settings page lists it, its logo's address included */
export interface ThemeRow {
  code: string
  name: string
  backgroundColor: string
  buttonColor: string
  buttonTextColor: string
  logo: { src: string; type: string } | null
}

/** what the answer of a save says, and what the Settings page lists */
function row(siteId: string, t: Awaited<ReturnType<typeof siteThemes>>[number]): ThemeRow {
  return {
    code: t.code,
    name: t.name,
    backgroundColor: t.backgroundColor,
    buttonColor: t.buttonColor,
    buttonTextColor: t.buttonTextColor,
    logo: t.logo ? { src: logoPath(siteId, t.code, t.logo.hash), type: t.logo.type } : null,
  }
}

export async function themesOverview(session: DashboardSession): Promise<ThemeRow[]> {
  return (await siteThemes(session.siteId)).map((t) => row(session.siteId, t))
}

/** the code as the audit log may keep it: a refused one cut short */
const auditableCode = (code: string) => code.slice(0, 64) || '(none)'

/** adds the theme or replaces the site's theme of its code; a refusal is the contract's 400 naming its field */
export async function saveSiteTheme(session: DashboardSession, input: ThemeInput): Promise<ThemeRow> {
  let saved
  try {
    saved = await saveTheme(session.siteId, input)
  } catch (e) {
    if (!(e instanceof ThemeRefused)) throw e
    await recordAudit(session, {
      action: THEME_ACTION,
      subject: auditableCode(input.code),
      outcome: `refused: ${e.field} ${e.reason}`,
    })
    throw fieldError(e.field, e.reason)
  }
  if (!saved) throw notFound('Site')
  await recordAudit(session, {
    action: THEME_ACTION,
    subject: saved.code,
    outcome: 'set',
    detail: {
      name: saved.name,
      backgroundColor: saved.backgroundColor,
      buttonColor: saved.buttonColor,
      buttonTextColor: saved.buttonTextColor,
      logo: saved.logo ? saved.logo.type : 'none',
    },
  })
  return row(session.siteId, saved)
}

/** removes the site's theme of this code (bills naming it show the default theme then); 404 when it has none */
export async function deleteSiteTheme(session: DashboardSession, code: string): Promise<{ deleted: string }> {
  if (!(await removeTheme(session.siteId, code))) throw notFound('Theme')
  await recordAudit(session, { action: DELETE_THEME_ACTION, subject: code, outcome: 'deleted' })
  return { deleted: code }
}
