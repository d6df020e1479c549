// The frame of every signed-in page of the dashboard: the site named, the navigation and "Sign out", around the
// page. The (site) layout draws it, and so does /dashboard itself once signed in (the overview), whose route is
// outside that layout because it is also the sign-in page.
import type { ReactNode } from 'react'
import type { DashboardMessages } from '@/lib/i18n/en/dashboard'
import { DashboardNav } from './dashboard-nav'
import { dashboardCss } from './dashboard-styles'
import { SignOutButton } from './sign-out-button'

export function SiteFrame({ siteId, t, children }: { siteId: string; t: DashboardMessages; children: ReactNode }) {
  return (
    <div className="dash">
      <style>{dashboardCss}</style>
      <header className="dash-top">
        <span>
          {t.site}:
          <strong className="dash-id" title={siteId}>
            {siteId}
          </strong>
        </span>
        <DashboardNav
          label={t.navigation}
          links={[
            { href: '/dashboard', text: t.overview, exact: true },
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
