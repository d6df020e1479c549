// The site's payment page themes (SiteTheme, lib/themes): the only module that reads or writes them.
import { db } from '../db/client'

export interface StoredTheme {
  code: string
  name: string
  backgroundColor: string
  buttonColor: string
  buttonTextColor: string
  /** the logo's type, size and hash; null without a logo */
  logo: { type: string; hash: string; width: number; height: number } | null
  updatedAt: Date
}

export interface ThemeWrite {
  code: string
  name: string
  backgroundColor: string
  buttonColor: string
  buttonTextColor: string
  /** undefined: the stored logo stays; null: none */
  logo?: { bytes: Buffer; type: string; hash: string; width: number; height: number } | null
}

const SHOWN = {
  code: true,
  name: true,
  backgroundColor: true,
  buttonColor: true,
  buttonTextColor: true,
  logoType: true,
  logoHash: true,
  logoWidth: true,
  logoHeight: true,
  updatedAt: true,
} as const

type Row = {
  code: string
  name: string
  backgroundColor: string
  buttonColor: string
  buttonTextColor: string
  logoType: string | null
  logoHash: string | null
  logoWidth: number | null
  logoHeight: number | null
  updatedAt: Date
}

const shown = (r: Row): StoredTheme => ({
  code: r.code,
  name: r.name,
  backgroundColor: r.backgroundColor,
  buttonColor: r.buttonColor,
  buttonTextColor: r.buttonTextColor,
  logo:
    r.logoType && r.logoHash
      ? { type: r.logoType, hash: r.logoHash, width: r.logoWidth ?? 48, height: r.logoHeight ?? 48 }
      : null,
  updatedAt: r.updatedAt,
})

/** the site's themes, by code */
export async function themesOf(siteId: string): Promise<StoredTheme[]> {
  const rows = await db().siteTheme.findMany({ where: { siteId }, select: SHOWN, orderBy: { code: 'asc' } })
  return rows.map(shown)
}

/** the site's theme of this code (never another site's); null when it has none */
export async function themeOf(siteId: string, code: string): Promise<StoredTheme | null> {
  const row = await db().siteTheme.findUnique({ where: { siteId_code: { siteId, code } }, select: SHOWN })
  return row ? shown(row) : null
}

/** the logo of the site's theme of this code, its bytes and type; null when there is none */
export async function themeLogoOf(
  siteId: string,
  code: string,
): Promise<{ bytes: Uint8Array; type: string; hash: string } | null> {
  const row = await db().siteTheme.findUnique({
    where: { siteId_code: { siteId, code } },
    select: { logo: true, logoType: true, logoHash: true },
  })
  return row?.logo && row.logoType && row.logoHash ? { bytes: row.logo, type: row.logoType, hash: row.logoHash } : null
}

/** how many themes the site has */
export const themeCount = (siteId: string): Promise<number> => db().siteTheme.count({ where: { siteId } })

/** adds the theme or replaces the one of its code; false when there is no such site */
export async function writeTheme(siteId: string, t: ThemeWrite): Promise<StoredTheme | null> {
  const site = await db().site.findUnique({ where: { id: siteId }, select: { id: true } })
  if (!site) return null
  const logo =
    t.logo === undefined
      ? {}
      : t.logo === null
        ? { logo: null, logoType: null, logoHash: null, logoWidth: null, logoHeight: null }
        : {
            logo: new Uint8Array(t.logo.bytes),
            logoType: t.logo.type,
            logoHash: t.logo.hash,
            logoWidth: t.logo.width,
            logoHeight: t.logo.height,
          }
  const fields = {
    name: t.name,
    backgroundColor: t.backgroundColor,
    buttonColor: t.buttonColor,
    buttonTextColor: t.buttonTextColor,
  }
  const row = await db().siteTheme.upsert({
    where: { siteId_code: { siteId, code: t.code } },
    create: { siteId, code: t.code, ...fields, ...logo },
    update: { ...fields, ...logo, updatedAt: new Date() },
    select: SHOWN,
  })
  return shown(row)
}

/** removes the site's theme of this code; false when it had none */
export async function deleteTheme(siteId: string, code: string): Promise<boolean> {
  const { count } = await db().siteTheme.deleteMany({ where: { siteId, code } })
  return count === 1
}
