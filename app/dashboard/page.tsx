// The dashboard's door: the sign-in form, or, once signed in, the overview (the site's last 30 days at a glance)
// in the site's frame.
import { cookies } from 'next/headers'
import { dashboardCss } from '@/components/dashboard/dashboard-styles'
import { OverviewPage } from '@/components/dashboard/overview-page'
import { SignInForm } from '@/components/dashboard/sign-in-form'
import { SiteFrame } from '@/components/dashboard/site-frame'
import { siteOverview } from '@/lib/dashboard/dashboard-overview'
import { SESSION_COOKIE } from '@/lib/dashboard/dashboard-session'
import { currentLanguage, currentMessages, currentSession } from './dashboard-request'

export const dynamic = 'force-dynamic'

export default async function DashboardPage() {
  const session = await currentSession()
  const t = await currentMessages()
  if (session) {
    const lang = await currentLanguage()
    return (
      <SiteFrame siteId={session.siteId} t={t}>
        <OverviewPage o={await siteOverview(session.siteId)} lang={lang} />
      </SiteFrame>
    )
  }
  // a cookie that names no live session: signed out elsewhere, idle too long, or its token revoked
  const ended = Boolean((await cookies()).get(SESSION_COOKIE)?.value)
  return (
    <main className="dash">
      <style>{dashboardCss}</style>
      <title>{`${t.signInTitle} · Payin`}</title>
      <h1>{t.signInTitle}</h1>
      <div className="dash-card">
        <p>{t.signInHelp}</p>
        <SignInForm t={t} ended={ended} />
      </div>
    </main>
  )
}
