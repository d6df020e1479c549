// The site's bills, newest first, a page at a time (by cursor), and the way to a new one.
import Link from 'next/link'
import { billsCss } from '@/components/dashboard/bills-styles'
import { CodeWord } from '@/components/dashboard/code-word'
import { listBills } from '@/lib/dashboard/dashboard-bills'
import { shownAmount, shownTime } from '@/lib/i18n/format'
import { textsOf } from '@/lib/i18n/languages'
import { currentLanguage, requireSession } from '../../dashboard-request'

type Search = { after?: string | string[] }
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? ''

export default async function BillsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requireSession()
  const lang = await currentLanguage()
  const t = textsOf(lang).bills
  const after = one((await searchParams).after)
  const { rows, nextCursor } = await listBills(session.siteId, after || undefined)
  return (
    <>
      <title>{`${t.bills} · Payin`}</title>
      <style>{billsCss}</style>
      <h1>{t.bills}</h1>
      <Link prefetch={false} href="/dashboard/bills/new" className="bill-new">
        {t.newBill}
      </Link>
      <div className="dash-card dash-table-wrap">
        {rows.length === 0 ? (
          <p>{t.noBills}</p>
        ) : (
          <table className="dash-rows bill-table">
            <thead>
              <tr>
                <th scope="col">{t.billId}</th>
                <th scope="col">{t.date}</th>
                <th scope="col">{t.amount}</th>
                <th scope="col">{t.currency}</th>
                <th scope="col">{t.status}</th>
                <th scope="col">{t.expires}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((b) => (
                <tr key={b.billId}>
                  <td data-label={t.billId}>
                    <Link
                      prefetch={false}
                      href={`/dashboard/bills/${encodeURIComponent(b.billId)}`}
                      className="dash-id"
                      title={b.billId}
                    >
                      {b.billId}
                    </Link>
                  </td>
                  <td data-label={t.date}>{shownTime(b.createdAt, lang)}</td>
                  <td data-label={t.amount}>
                    {b.amountMinor === null ? t.openAmount : shownAmount(b.amountMinor, b.currency, lang)}
                  </td>
                  <td data-label={t.currency}>{b.currency}</td>
                  <td data-label={t.status}>
                    <CodeWord code={b.status} words={textsOf(lang).codes.billStatus} />
                  </td>
                  <td data-label={t.expires}>{shownTime(b.expiresAt, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="dash-inline">
          {after && (
            <Link prefetch={false} href="/dashboard/bills">
              {t.firstPage}
            </Link>
          )}
          {nextCursor && (
            <Link prefetch={false} href={`/dashboard/bills?${new URLSearchParams({ after: nextCursor })}`}>
              {t.nextPage}
            </Link>
          )}
        </p>
      </div>
    </>
  )
}
