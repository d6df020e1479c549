// The dashboard page's request: its session (read once per request) and its language.
import { cookies, headers } from 'next/headers'
import { cache } from 'react'
import { dashboardMessages } from '@/lib/dashboard/dashboard-messages'
import { SESSION_COOKIE, sessionOf } from '@/lib/dashboard/dashboard-session'
import { pickLanguage } from '@/lib/pay-form/messages'

export const currentSession = cache(async () => sessionOf((await cookies()).get(SESSION_COOKIE)?.value))

export const currentLanguage = cache(async () => pickLanguage((await headers()).get('accept-language')))

export const currentMessages = cache(async () => dashboardMessages(await currentLanguage()))
