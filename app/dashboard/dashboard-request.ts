// The dashboard page's request: its session (read once per request) and its language.
import { headers } from 'next/headers'
import { redirect } from 'next/navigation'
import { cache } from 'react'
import { SESSION_COOKIE, sessionOf } from '@/lib/dashboard/dashboard-session'
import { cookieOf } from '@/lib/http/api-route'
import { chooseLanguage } from '@/lib/i18n/choose-language'
import { textsOf } from '@/lib/i18n/languages'

// the session cookie sent once; sent twice (a sibling host can plant one) is no session, as for the actions
export const currentSession = cache(async () => sessionOf(cookieOf(await headers(), SESSION_COOKIE)))

export const currentLanguage = cache(async () => chooseLanguage((await headers()).get('accept-language')))

export const currentMessages = cache(async () => textsOf(await currentLanguage()).dashboard)

/**
 * The session of a signed-in page, or the sign-in page. Every page calls it itself: a layout is not
 * rendered again when the browser moves between the pages under it, so a check in the layout alone would
 * let a page be read after its session ended.
 */
export async function requireSession() {
  const session = await currentSession()
  if (!session) redirect('/dashboard')
  return session
}
