// Every signed-in page of the dashboard: the session checked (none: the sign-in page), then the site's frame
// (the site named, the navigation and "Sign out").
import type { ReactNode } from 'react'
import { SiteFrame } from '@/components/dashboard/site-frame'
import { currentMessages, requireSession } from '../dashboard-request'

export const dynamic = 'force-dynamic'

export default async function SiteLayout({ children }: { children: ReactNode }) {
  const session = await requireSession()
  const t = await currentMessages()
  return (
    <SiteFrame siteId={session.siteId} t={t}>
      {children}
    </SiteFrame>
  )
}
