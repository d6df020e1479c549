// "New bill": the form (components/dashboard/new-bill-form.tsx); the bill's page follows.
import Link from 'next/link'
import { billsCss } from '@/components/dashboard/bills-styles'
import { NewBillForm } from '@/components/dashboard/new-bill-form'
import { billsMessages } from '@/lib/dashboard/bills-messages'
import { BILL_CURRENCIES } from '@/lib/dashboard/dashboard-bills'
import { currentLanguage, requireSession } from '../../../dashboard-request'

export default async function NewBillPage() {
  await requireSession()
  const t = billsMessages(await currentLanguage())
  return (
    <>
      <title>{`${t.newBill} · Payin`}</title>
      <style>{billsCss}</style>
      <p>
        <Link prefetch={false} href="/dashboard/bills">{t.backToBills}</Link>
      </p>
      <h1>{t.newBill}</h1>
      <section className="dash-card" aria-label={t.newBill}>
        <NewBillForm t={t} currencies={BILL_CURRENCIES} defaultCurrency="RUB" />
      </section>
    </>
  )
}
