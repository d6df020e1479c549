// Every signed-in page of the dashboard: the session checked (none: the sign-in page), the site named,
// the navigation and "Sign out".
import type { ReactNode } from 'react'
import { DashboardNav } from '@/components/dashboard/dashboard-nav'
import { dashboardCss } from '@/components/dashboard/dashboard-styles'
import { SignOutButton } from '@/components/dashboard/sign-out-button'
import { currentMessages, requireSession } from '../dashboard-request'

export const dynamic = 'force-dynamic'

export default async function SiteLayout({ children }: { children: ReactNode }) {
  const session = await requireSession()
  const t = await currentMessages()
  return (
    <div className="dash">
      <style>{dashboardCss}</style>
      <header className="dash-top">
        <span>
          {t.site}:
          <strong className="dash-id" title={session.siteId}>
            {session.siteId}
          </strong>
        </span>
        <DashboardNav
          label={t.navigation}
          links={[
            { href: '/dashboard/payments', text: t.payments },
            { href: '/dashboard/bills', text: t.bills },
            { href: '/dashboard/notifications', text: t.notifications },
            { href: '/dashboard/settings', text: t.settings },
          ]}
        />
        <SignOutButton label={t.signOut} />
      </header>
      <main>{children}</main>
    </div>
  )
}
