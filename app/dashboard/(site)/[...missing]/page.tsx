// Any other address under /dashboard: the dashboard's own "not found" page (status 404), in the frame and the page's
// language, for a signed-in merchant (the sign-in page otherwise), not the framework's English default.
import { notFound } from 'next/navigation'
import { requireSession } from '../../dashboard-request'

export default async function MissingDashboardPage({ params }: { params: Promise<{ missing: string[] }> }) {
  // read as the other pages are (the session first), so that it renders per request, as they do
  await requireSession()
  await params
  notFound()
}
