// What a signed-in page shows (status 404) for an id the session's site does not have: another site's
// payment, bill or notification is not found, exactly as one that does not exist.
import Link from 'next/link'
import { currentMessages } from '../dashboard-request'

export default async function DashboardNotFound() {
  const t = await currentMessages()
  return (
    <>
      <title>{`${t.notFoundTitle} · Payin`}</title>
      <h1>{t.notFoundTitle}</h1>
      <div className="dash-card">
        <p>{t.notFoundHelp}</p>
        <p>
          <Link prefetch={false} href="/dashboard/payments">
            {t.backToPayments}
          </Link>
        </p>
      </div>
    </>
  )
}
