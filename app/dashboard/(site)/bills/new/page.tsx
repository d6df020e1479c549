// "New bill": the form (components/dashboard/new-bill-form.tsx), told how far the site's sandbox clock runs
// ahead (its default deadline is a day after the site's time); the bill's page follows.
import Link from 'next/link'
import { billsCss } from '@/components/dashboard/bills-styles'
import { NewBillForm } from '@/components/dashboard/new-bill-form'
import { BILL_CURRENCIES } from '@/lib/dashboard/dashboard-bills'
import { clockOffsetMs } from '@/lib/dashboard/dashboard-clock'
import { fill } from '@/lib/i18n/fill'
import { shownDuration } from '@/lib/i18n/format'
import { textsOf } from '@/lib/i18n/languages'
import { currentLanguage, requireSession } from '../../../dashboard-request'

export default async function NewBillPage() {
  const session = await requireSession()
  const lang = await currentLanguage()
  const t = textsOf(lang).bills
  const offsetMs = await clockOffsetMs(session.siteId)
  return (
    <>
      <title>{`${t.newBill} · Payin`}</title>
      <style>{billsCss}</style>
      <p>
        <Link prefetch={false} href="/dashboard/bills">
          {t.backToBills}
        </Link>
      </p>
      <h1>{t.newBill}</h1>
      <section className="dash-card" aria-label={t.newBill}>
        <NewBillForm
          t={t}
          codes={textsOf(lang).codes}
          currencies={BILL_CURRENCIES}
          defaultCurrency="RUB"
          clockOffsetMs={offsetMs}
          clockNote={offsetMs > 0 ? fill(t.clockAhead, { by: shownDuration(offsetMs, lang) }) : undefined}
        />
      </section>
    </>
  )
}
