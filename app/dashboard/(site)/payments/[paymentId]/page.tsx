// A payment of the site: its fields, captures, refunds, what happened to it, and the actions on it.
import { statusWordsOf } from '@/lib/dashboard/hold-state'
import Link from 'next/link'
import { notFound } from 'next/navigation'
import { Fragment } from 'react'
import { AuditLog } from '@/components/dashboard/audit-log'
import { auditAction, AuditOutcome } from '@/components/dashboard/audit-outcome'
import { CodeWord, Reason, StatusWithReason } from '@/components/dashboard/code-word'
import { FieldList, fieldsOf } from '@/components/dashboard/field-list'
import { PaymentActionForm } from '@/components/dashboard/payment-action-form'
import { Words } from '@/components/dashboard/words'
import { paymentDetails, type TimelineEvent } from '@/lib/dashboard/dashboard-payments'
import { codeWord, serviceMessage } from '@/lib/i18n/code-words'
import type { CodeWords } from '@/lib/i18n/en/codes'
import { fill } from '@/lib/i18n/fill'
import { shownAmount, shownTime } from '@/lib/i18n/format'
import { localeOf, textsOf } from '@/lib/i18n/languages'
import { amountFieldValue } from '@/lib/i18n/locale-format'
import { decideCapture, heldMinor, isOneStep, refundableMinor, totalsOf } from '@/lib/payments/payment-rules'
import { splitsOf } from '@/lib/splits/split-schema'
import { currentLanguage, currentMessages, requireSession } from '../../../dashboard-request'

export default async function PaymentPage({ params }: { params: Promise<{ paymentId: string }> }) {
  const session = await requireSession()
  const [t, lang] = [await currentMessages(), await currentLanguage()]
  const paymentId = decodeURIComponent((await params).paymentId)
  const d = await paymentDetails(session.siteId, paymentId)
  if (!d) notFound()
  const p = d.payment
  const codes = textsOf(lang).codes
  const amount = (minor: bigint | number) => shownAmount(minor, p.currency, lang)
  /** a capture or refund as its row shows it */
  const operation = (
    id: string,
    o: { createdAt: Date; amountMinor: bigint; status: string; statusReason: string | null },
  ): Operation => ({
    id,
    time: shownTime(o.createdAt, lang),
    amount: amount(o.amountMinor),
    status: o.status,
    statusReason: o.statusReason,
  })
  // the actions are offered only where the API would take them: a capture of an authorised, uncaptured hold, a refund
  // while something is refundable (prefilled with all of it)
  const totals = totalsOf(p)
  const capturable = decideCapture(totals, null).ok ? heldMinor(totals) : 0
  const refundable = refundableMinor(totals)
  // the sections stay once their action was possible (the form keeps its last answer on screen), saying when it is
  // no longer: Capture on an authorised two-step payment, Refund on a completed one
  const twoStepAuthorised = p.status === 'COMPLETED' && !isOneStep(p)
  // a split payment's refund must say what it takes back of each share (refundSplits), which this form cannot
  const splitRefundsByApi = refundable > 0 && splitsOf(p.splits) !== undefined
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
          <dd>
            <CodeWord code={p.status} words={statusWordsOf(p, codes)} />
          </dd>
          {p.statusReason && (
            <>
              <dt>{t.reason}</dt>
              <dd>
                <Reason code={p.statusReason} words={codes.reason} />
              </dd>
            </>
          )}
          <dt>{t.amount}</dt>
          <dd>{amount(p.amountMinor)}</dd>
          <dt>{t.captured}</dt>
          <dd>{amount(p.capturedMinor)}</dd>
          <dt>{t.refunded}</dt>
          <dd>{amount(p.refundedMinor)}</dd>
          <dt>{t.method}</dt>
          <dd>
            <CodeWord code={p.methodType} words={codes.method} />
          </dd>
          {p.flags.length > 0 && (
            <>
              <dt>{t.flags}</dt>
              <dd>
                {p.flags.map((f, i) => (
                  <Fragment key={f}>
                    {i > 0 && ', '}
                    <CodeWord code={f} words={codes.flag} />
                  </Fragment>
                ))}
              </dd>
            </>
          )}
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
                <FieldList fields={customer} names={t.customerFields} />
              </dd>
            </>
          )}
          {customFields.length > 0 && (
            <>
              <dt>{t.customFields}</dt>
              <dd>
                <FieldList fields={customFields} />
              </dd>
            </>
          )}
          <dt>{t.date}</dt>
          <dd>{shownTime(p.createdAt, lang)}</dd>
        </dl>
      </section>
      {twoStepAuthorised && (
        <section className="dash-card" aria-labelledby="capture">
          <h2 id="capture">{t.capture}</h2>
          <PaymentActionForm
            kind="capture"
            paymentId={p.paymentId}
            currency={p.currency}
            defaultAmount={amountFieldValue(capturable, localeOf(lang))}
            locale={localeOf(lang)}
            t={t}
            codes={codes}
            available={capturable > 0}
            unavailable={t.nothingToCapture}
          />
        </section>
      )}
      {splitRefundsByApi && <p className="dash-card">{t.splitRefundsByApi}</p>}
      {p.status === 'COMPLETED' && !splitRefundsByApi && (
        <section className="dash-card" aria-labelledby="refund">
          <h2 id="refund">{t.refund}</h2>
          <PaymentActionForm
            kind="refund"
            paymentId={p.paymentId}
            currency={p.currency}
            defaultAmount={amountFieldValue(refundable, localeOf(lang))}
            locale={localeOf(lang)}
            t={t}
            codes={codes}
            available={refundable > 0}
            unavailable={t.nothingToRefund}
          />
        </section>
      )}
      <OperationsSection
        id="captures"
        title={t.captures}
        none={t.none}
        rows={d.captures.map((c) => operation(c.captureId, c))}
        statusWords={codes.captureStatus}
        reasonWords={codes.reason}
      />
      <OperationsSection
        id="refunds"
        title={t.refunds}
        none={t.none}
        rows={d.refunds.map((r) => operation(r.refundId, r))}
        statusWords={codes.refundStatus}
        reasonWords={codes.reason}
      />
      <section className="dash-card" aria-labelledby="timeline">
        <h2 id="timeline">{t.timeline}</h2>
        <ol>
          {d.timeline.map((e, i) => (
            <li key={i}>
              <time dateTime={e.at.toISOString()}>{shownTime(e.at, lang)}</time> — {t.event[e.kind] ?? e.kind}
              <TimelineDetail event={e} codes={codes} />
            </li>
          ))}
        </ol>
      </section>
      <AuditLog id="audit" rows={d.audit} lang={lang} empty={t.none} />
    </>
  )
}

/** a capture or refund as its row shows it: time and amount written in the page's language */
type Operation = { id: string; time: string; amount: string; status: string; statusReason: string | null }

/** a payment's captures or refunds: each one's time, amount and status with its reason */
function OperationsSection({
  id,
  title,
  none,
  rows,
  statusWords,
  reasonWords,
}: {
  id: string
  title: string
  none: string
  rows: Operation[]
  statusWords: Record<string, string>
  reasonWords: Record<string, string>
}) {
  return (
    <section className="dash-card dash-table-wrap" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <p>{none}</p>
      ) : (
        <table>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{r.time}</td>
                <td>{r.amount}</td>
                <td>
                  <StatusWithReason
                    status={r.status}
                    reason={r.statusReason}
                    statusWords={statusWords}
                    reasonWords={reasonWords}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

/** what a timeline entry tells beside its kind, in the page's words: a reason, a notification attempt, an action */
function TimelineDetail({ event: e, codes }: { event: TimelineEvent; codes: CodeWords }) {
  if (e.reason)
    return (
      <>
        : <Reason code={e.reason} words={codes.reason} />
      </>
    )
  if (e.attempt) {
    const a = e.attempt
    const answer =
      a.httpStatus !== null ? String(a.httpStatus) : a.error ? serviceMessage(codes, a.error) : codes.noAnswer
    const type = codeWord(codes.notificationType, a.type)
    const status = codeWord(codes.notificationStatus, a.status)
    return <>: {fill(codes.attempt, { type, status, answer, ms: fill(codes.ms, { ms: String(a.durationMs) }) })}</>
  }
  if (e.audit) {
    const [before, after = ''] = fill(codes.auditEntry, {
      action: auditAction(codes, e.audit.action),
      actor: e.audit.actor,
      outcome: '\u0000',
    }).split('\u0000')
    return (
      <>
        : {before}
        <AuditOutcome action={e.audit.action} outcome={e.audit.outcome} codes={codes} />
        {after}
      </>
    )
  }
  return null
}
