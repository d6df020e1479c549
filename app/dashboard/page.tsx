// The dashboard's door: the sign-in form, or the payments once signed in.
import { cookies } from 'next/headers'
import { redirect } from 'next/navigation'
import { dashboardCss } from '@/components/dashboard/dashboard-styles'
import { SignInForm } from '@/components/dashboard/sign-in-form'
import { SESSION_COOKIE } from '@/lib/dashboard/dashboard-session'
import { currentMessages, currentSession } from './dashboard-request'

export const dynamic = 'force-dynamic'

export default async function SignInPage() {
  if (await currentSession()) redirect('/dashboard/payments')
  const t = await currentMessages()
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
