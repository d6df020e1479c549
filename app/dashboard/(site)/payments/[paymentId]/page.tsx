// A payment of the site: its fields, captures, refunds, what happened to it, and the actions on it.
import Link from 'next/link'
import { notFound } from 'next/navigation'
import { Fragment } from 'react'
import { AuditLog } from '@/components/dashboard/audit-log'
import { PaymentActionForm } from '@/components/dashboard/payment-action-form'
import { Words } from '@/components/dashboard/words'
import { paymentDetails } from '@/lib/dashboard/dashboard-payments'
import { shownAmount, shownTime } from '@/lib/i18n/format'
import { formatMinor } from '@/lib/money/money'
import { decideCapture, heldMinor, refundableMinor, totalsOf } from '@/lib/payments/payment-rules'
import { splitsOf } from '@/lib/splits/split-schema'
import { currentLanguage, currentMessages, requireSession } from '../../../dashboard-request'

export default async function PaymentPage({ params }: { params: Promise<{ paymentId: string }> }) {
  const session = await requireSession()
  const [t, lang] = [await currentMessages(), await currentLanguage()]
  const paymentId = decodeURIComponent((await params).paymentId)
  const d = await paymentDetails(session.siteId, paymentId)
  if (!d) notFound()
  const p = d.payment
  const amount = (minor: bigint | number) => shownAmount(minor, p.currency, lang)
  // the actions are offered only where the API would take them: a capture of an authorised, uncaptured hold, a refund
  // while something is refundable (prefilled with all of it)
  const totals = totalsOf(p)
  const capturable = decideCapture(totals, null).ok ? heldMinor(totals) : 0
  const refundable = refundableMinor(totals)
  // a split payment's refund must say what it takes back of each share (refundSplits), which this form cannot
  const splitRefundsByApi = refundable > 0 && splitsOf(p.splits) !== undefined
  const fieldsOf = (o: unknown) =>
    o && typeof o === 'object' ? Object.entries(o as Record<string, unknown>).filter(([, v]) => v != null) : []
  const customer = fieldsOf(p.customer)
  const customFields = fieldsOf(p.customFields)
  return (
    <>
      <title>{`${t.payment} ${p.paymentId} · Payin`}</title>
      <p>
        <Link prefetch={false} href="/dashboard/payments">
          {t.backToPayments}
        </Link>
      </p>
      <h1>
        {t.payment}{' '}
        <span className="dash-id" title={p.paymentId}>
          {p.paymentId}
        </span>
      </h1>
      <section className="dash-card" aria-labelledby="fields">
        <h2 id="fields">{t.payment}</h2>
        <dl>
          <dt>{t.id}</dt>
          <dd className="dash-scroll">{p.paymentId}</dd>
          <dt>{t.status}</dt>
          <dd>{p.status}</dd>
          {p.statusReason && (
            <>
              <dt>{t.reason}</dt>
              <dd>{p.statusReason}</dd>
            </>
          )}
          <dt>{t.amount}</dt>
          <dd>{amount(p.amountMinor)}</dd>
          <dt>{t.captured}</dt>
          <dd>{amount(p.capturedMinor)}</dd>
          <dt>{t.refunded}</dt>
          <dd>{amount(p.refundedMinor)}</dd>
          <dt>{t.method}</dt>
          <dd>{p.methodType}</dd>
          {p.maskedPan && (
            <>
              <dt>{t.card}</dt>
              <dd>{p.maskedPan}</dd>
            </>
          )}
          {d.sbp && (
            <>
              <dt>{t.sbpQrCode}</dt>
              <dd>{d.sbp.qrCodeUid}</dd>
              {d.sbp.phone && (
                <>
                  <dt>{t.payerPhone}</dt>
                  <dd>{d.sbp.phone}</dd>
                </>
              )}
              {d.sbp.bankName && (
                <>
                  <dt>{t.payerBank}</dt>
                  <dd>{d.sbp.bankName}</dd>
                </>
              )}
              {d.sbp.fpsToken && (
                <>
                  <dt>{t.fpsToken}</dt>
                  <dd>{d.sbp.fpsToken}</dd>
                </>
              )}
            </>
          )}
          <dt>{t.bill}</dt>
          <dd>
            <Link
              prefetch={false}
              href={`/dashboard/bills/${encodeURIComponent(p.billId)}`}
              className="dash-id"
              title={p.billId}
            >
              {p.billId}
            </Link>
          </dd>
          {p.comment && (
            <>
              <dt>{t.comment}</dt>
              <dd>
                <Words text={p.comment} />
              </dd>
            </>
          )}
          {customer.length > 0 && (
            <>
              <dt>{t.customer}</dt>
              <dd>
                <dl>
                  {customer.map(([k, v]) => (
                    <Fragment key={k}>
                      <dt>{k}</dt>
                      <dd>
                        <Words text={String(v)} />
                      </dd>
                    </Fragment>
                  ))}
                </dl>
              </dd>
            </>
          )}
          {customFields.length > 0 && (
            <>
              <dt>{t.customFields}</dt>
              <dd>
                <dl>
                  {customFields.map(([k, v]) => (
                    <Fragment key={k}>
                      <dt>{k}</dt>
                      <dd>
                        <Words text={typeof v === 'string' ? v : JSON.stringify(v)} />
                      </dd>
                    </Fragment>
                  ))}
                </dl>
              </dd>
            </>
          )}
          <dt>{t.date}</dt>
          <dd>{shownTime(p.createdAt, lang)}</dd>
        </dl>
      </section>
      {capturable > 0 && (
        <section className="dash-card" aria-labelledby="capture">
          <h2 id="capture">{t.capture}</h2>
          <PaymentActionForm
            kind="capture"
            paymentId={p.paymentId}
            currency={p.currency}
            defaultAmount={formatMinor(capturable)}
            t={t}
          />
        </section>
      )}
      {splitRefundsByApi && <p className="dash-card">{t.splitRefundsByApi}</p>}
      {refundable > 0 && !splitRefundsByApi && (
        <section className="dash-card" aria-labelledby="refund">
          <h2 id="refund">{t.refund}</h2>
          <PaymentActionForm
            kind="refund"
            paymentId={p.paymentId}
            currency={p.currency}
            defaultAmount={formatMinor(refundable)}
            t={t}
          />
        </section>
      )}
      {capturable === 0 && refundable === 0 && p.status === 'COMPLETED' && <p className="dash-card">{t.nothingLeft}</p>}
      <section className="dash-card dash-table-wrap" aria-labelledby="captures">
        <h2 id="captures">{t.captures}</h2>
        {d.captures.length === 0 ? (
          <p>{t.none}</p>
        ) : (
          <table>
            <tbody>
              {d.captures.map((c) => (
                <tr key={c.captureId}>
                  <td>{shownTime(c.createdAt, lang)}</td>
                  <td>{amount(c.amountMinor)}</td>
                  <td>{c.statusReason ? `${c.status} (${c.statusReason})` : c.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="dash-card dash-table-wrap" aria-labelledby="refunds">
        <h2 id="refunds">{t.refunds}</h2>
        {d.refunds.length === 0 ? (
          <p>{t.none}</p>
        ) : (
          <table>
            <tbody>
              {d.refunds.map((r) => (
                <tr key={r.refundId}>
                  <td>{shownTime(r.createdAt, lang)}</td>
                  <td>{amount(r.amountMinor)}</td>
                  <td>{r.statusReason ? `${r.status} (${r.statusReason})` : r.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="dash-card" aria-labelledby="timeline">
        <h2 id="timeline">{t.timeline}</h2>
        <ol>
          {d.timeline.map((e, i) => (
            <li key={i}>
              <time dateTime={e.at.toISOString()}>{shownTime(e.at, lang)}</time> — {t.event[e.kind] ?? e.kind}
              {e.detail ? `: ${e.detail}` : ''}
            </li>
          ))}
        </ol>
      </section>
      <AuditLog id="audit" rows={d.audit} lang={lang} empty={t.none} />
    </>
  )
}
