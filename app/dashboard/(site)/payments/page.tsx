// The site's payments, newest first, a page at a time (by cursor), found by id, bill or last four digits.
// Whatever the query holds answers a page: an unknown status or a cursor that does not decode is no
// filter (the first page); a search with a control character is not run, and the page says so.
import Link from 'next/link'
import { listPayments, PAYMENT_STATUSES, paymentSearch, type PaymentStatus } from '@/lib/dashboard/dashboard-payments'
import { PaymentTable } from '@/components/dashboard/payment-table'
import { SinceNotice } from '@/components/dashboard/since-notice'
import { sinceDay } from '@/lib/dashboard/list-since'
import { codeWord } from '@/lib/i18n/code-words'
import { textsOf } from '@/lib/i18n/languages'
import { currentLanguage, currentMessages, requireSession } from '../../dashboard-request'

type Search = {
  q?: string | string[]
  status?: string | string[]
  after?: string | string[]
  since?: string | string[]
}
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? ''

export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requireSession()
  const [t, lang, sp] = [await currentMessages(), await currentLanguage(), await searchParams]
  const { search: q, refused, shown } = paymentSearch(one(sp.q))
  const status = (PAYMENT_STATUSES as readonly string[]).includes(one(sp.status))
    ? (one(sp.status) as PaymentStatus)
    : undefined
  // made since a day: the overview's links (its figures count its days alone)
  const since = sinceDay(one(sp.since))
  const { rows, nextCursor } = await listPayments(session.siteId, {
    search: q,
    status,
    after: one(sp.after) || undefined,
    since,
  })
  const keep = (extra: Record<string, string>) =>
    new URLSearchParams({
      ...(q ? { q } : {}),
      ...(status ? { status } : {}),
      ...(since ? { since } : {}),
      ...extra,
    }).toString()
  return (
    <>
      <title>{`${t.payments} · Payin`}</title>
      <h1>{t.payments}</h1>
      <form method="get" className="dash-card dash-inline" role="search">
        <label>
          {t.search}
          <input name="q" defaultValue={shown} placeholder={t.searchPlaceholder} aria-describedby="search-hint" />
          <small id="search-hint" className="dash-hint">
            {t.searchHint}
          </small>
        </label>
        <label>
          {t.status}
          <select name="status" defaultValue={status ?? ''}>
            <option value="">{t.anyStatus}</option>
            {PAYMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {/* successful: paid, or a hold authorised or released (a row names which) */}
                {s === 'COMPLETED' ? t.statusSuccessful : codeWord(textsOf(lang).codes.paymentStatus, s)}
              </option>
            ))}
          </select>
        </label>
        {since && <input type="hidden" name="since" value={since} />}
        <button type="submit">{t.find}</button>
      </form>
      {since && (
        <SinceNotice
          day={since}
          lang={lang}
          allHref={`/dashboard/payments?${new URLSearchParams({ ...(q ? { q } : {}), ...(status ? { status } : {}) })}`}
        />
      )}
      {refused && (
        <p role="alert" className="dash-error">
          {t.searchRefused}
        </p>
      )}
      <div className="dash-card dash-table-wrap">
        {rows.length === 0 ? <p>{t.noPayments}</p> : <PaymentTable rows={rows} lang={lang} labels={t} />}
        <p className="dash-inline">
          {one(sp.after) && (
            <Link prefetch={false} href={`/dashboard/payments?${keep({})}`}>
              {t.firstPage}
            </Link>
          )}
          {nextCursor && (
            <Link prefetch={false} href={`/dashboard/payments?${keep({ after: nextCursor })}`}>
              {t.nextPage}
            </Link>
          )}
        </p>
      </div>
    </>
  )
}
