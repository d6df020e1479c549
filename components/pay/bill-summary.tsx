// What is being paid: the site, the amount (formatted with dinero.js in the payer's language), the
// comment and the deadline.
import type { PayFormMessages } from '@/lib/i18n/en/pay-form'

export interface BillSummaryProps {
  t: PayFormMessages
  siteId: string
  amount: string | null
  comment: string | null
  deadline: string
}

export function BillSummary({ t, siteId, amount, comment, deadline }: BillSummaryProps) {
  return (
    <dl className="pay-summary">
      <div>
        <dt>{t.payTo}</dt>
        <dd>{siteId}</dd>
      </div>
      {amount && (
        <div>
          <dt>{t.amountToPay}</dt>
          <dd className="pay-amount" data-testid="bill-amount">
            {amount}
          </dd>
        </div>
      )}
      {comment && (
        <div>
          <dt className="pay-visually-hidden">Comment</dt>
          <dd style={{ textAlign: 'left', fontWeight: 400 }}>{comment}</dd>
        </div>
      )}
      <div>
        <dt>{t.payBefore}</dt>
        <dd>{deadline}</dd>
      </div>
    </dl>
  )
}
