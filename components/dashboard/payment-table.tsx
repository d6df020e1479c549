// A table of payments, each linked to its page: the payments list's, and a bill's (without the method column).
import { statusWordsOf } from '@/lib/dashboard/hold-state'
import Link from 'next/link'
import { shownAmount, shownTime } from '@/lib/i18n/format'
import { textsOf, type Lang } from '@/lib/i18n/languages'
import type { PaymentListRow } from '@/lib/payments/payment-store'
import { CodeWord, StatusWithReason } from './code-word'

/** a row of the table: the payment list's, its bill aside */
export type PaymentTableRow = Omit<PaymentListRow, 'billId'>

/** the column heads; without `method`, no method column */
export interface PaymentTableLabels {
  id: string
  date: string
  amount: string
  status: string
  method?: string
  card: string
}

export function PaymentTable({
  rows,
  lang,
  labels: t,
  className,
}: {
  rows: PaymentTableRow[]
  lang: Lang
  labels: PaymentTableLabels
  className?: string
}) {
  const codes = textsOf(lang).codes
  return (
    <table className={className ? `dash-rows ${className}` : 'dash-rows'}>
      <thead>
        <tr>
          <th scope="col">{t.id}</th>
          <th scope="col">{t.date}</th>
          <th scope="col">{t.amount}</th>
          <th scope="col">{t.status}</th>
          {t.method && <th scope="col">{t.method}</th>}
          <th scope="col">{t.card}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => (
          <tr key={p.paymentId}>
            <td data-label={t.id}>
              <Link
                prefetch={false}
                href={`/dashboard/payments/${encodeURIComponent(p.paymentId)}`}
                className="dash-id"
                title={p.paymentId}
              >
                {p.paymentId}
              </Link>
            </td>
            <td data-label={t.date}>{shownTime(p.createdAt, lang)}</td>
            <td data-label={t.amount}>{shownAmount(p.amountMinor, p.currency, lang)}</td>
            <td data-label={t.status}>
              <StatusWithReason
                status={p.status}
                reason={p.statusReason}
                statusWords={statusWordsOf(p, codes)}
                reasonWords={codes.reason}
              />
            </td>
            {t.method && (
              <td data-label={t.method}>
                <CodeWord code={p.methodType} words={codes.method} />
              </td>
            )}
            <td data-label={t.card}>{p.maskedPan ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
