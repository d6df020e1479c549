// The Settings page's themes (lib/dashboard/dashboard-themes.ts): POST /dashboard/actions/settings/themes saves one
// (adds it, or changes the site's theme of its code), POST …/themes/{themeCode}/delete deletes one. Through the API's
// wrapper with `access: 'dashboard'`: the service's own origin and a live session are required. A logo travels as
// base64 in the JSON body, so this body may be larger than the 64 KiB of every other (a 64 KiB logo is 86 KiB so).
import { z } from 'zod'
import { apiRoute, endpoint } from '../api/api-route'
import { deleteSiteTheme, saveSiteTheme } from './dashboard-themes'

const text = (max: number) => z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`)

export const themeBodySchema = z.object({
  code: text(64),
  name: text(200),
  backgroundColor: text(20),
  buttonColor: text(20),
  buttonTextColor: text(20).nullish(),
  /** the logo's type and its bytes in base64; null: no logo; absent: the stored one stays */
  logo: z.object({ type: text(40), data: text(100_000) }, { error: 'must be an object with type and data' }).nullish(),
})

export const themesRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard',
    params: z.object({}),
    body: themeBodySchema,
    maxBodyKiB: 100,
    handle: async ({ session, body }) => saveSiteTheme(session!, body),
  }),
})

export const themeDeleteRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard',
    params: z.object({ themeCode: text(64) }),
    handle: async ({ session, params }) => deleteSiteTheme(session!, params.themeCode),
  }),
})
