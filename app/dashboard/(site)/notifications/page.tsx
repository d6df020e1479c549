// Not built yet (issue 14): the navigation already leads here.
import { currentMessages, requireSession } from '../../dashboard-request'

export default async function Page() {
  await requireSession()
  const t = await currentMessages()
  return (
    <>
      <title>{`${t.notifications} · Payin`}</title>
      <h1>{t.notifications}</h1>
      <p className="dash-card">{t.comingSoon}</p>
    </>
  )
}
