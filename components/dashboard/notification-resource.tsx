// A notification's resource in the dashboard: a payment's id leads to its page; a capture's or refund's
// id is shown with its payment's, which leads there. (A notification's resourceId is its own object's id.)
import Link from 'next/link'

/** a payment's id leads to its page; a capture's or refund's id is shown with its payment's, which leads there */
export function NotificationResource({
  type,
  resourceId,
  paymentId,
  ofPayment,
}: {
  type: string
  resourceId: string
  paymentId: string | null
  ofPayment: string
}) {
  if (!paymentId) return <span className="dash-word">{resourceId}</span>
  const href = `/dashboard/payments/${encodeURIComponent(paymentId)}`
  if (type === 'PAYMENT')
    return (
      <Link prefetch={false} href={href} className="dash-word">
        {resourceId}
      </Link>
    )
  const [before, afterId] = ofPayment.split('{id}')
  return (
    <>
      <span className="dash-word">{resourceId}</span>{' '}
      <span className="notif-muted">
        ({before}
        <Link prefetch={false} href={href} className="dash-word">
          {paymentId}
        </Link>
        {afterId})
      </span>
    </>
  )
}
