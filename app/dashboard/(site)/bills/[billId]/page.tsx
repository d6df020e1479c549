// A bill of the site: its fields, its payment link (to copy, and as a QR code drawn here as inline SVG),
// its payments and the dashboard's actions on it. Another site's bill id is not found.
import Link from 'next/link'
import { notFound } from 'next/navigation'
import QRCode from 'qrcode'
import { AuditLog } from '@/components/dashboard/audit-log'
import { billsCss } from '@/components/dashboard/bills-styles'
import { CodeWord } from '@/components/dashboard/code-word'
import { CopyLinkButton } from '@/components/dashboard/copy-link-button'
import { FieldList, fieldsOf } from '@/components/dashboard/field-list'
import { Words } from '@/components/dashboard/words'
import { PaymentTable } from '@/components/dashboard/payment-table'
import { billDetails } from '@/lib/dashboard/dashboard-bills'
import { shownAmount, shownTime } from '@/lib/i18n/format'
import { textsOf } from '@/lib/i18n/languages'
import { currentLanguage, requireSession } from '../../../dashboard-request'

const decoded = (s: string) => {
  try {
    return decodeURIComponent(s)
  } catch {
    return null
  }
}

export default async function BillPage({ params }: { params: Promise<{ billId: string }> }) {
  const session = await requireSession()
  const lang = await currentLanguage()
  const t = textsOf(lang).bills
  const billId = decoded((await params).billId)
  const d = billId ? await billDetails(session.siteId, billId) : null
  if (!d) notFound()
  const b = d.bill
  // its customFields (a link's extras among them), as the payment page lists a payment's
  const customFields = fieldsOf(b.customFields)
  // the payUrl is the service's base URL and a UUID: the SVG holds nothing else
  const qr = await QRCode.toString(d.payUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })
  return (
    <>
      <title>{`${t.bill} ${b.billId} · Payin`}</title>
      <style>{billsCss}</style>
      <p>
        <Link prefetch={false} href="/dashboard/bills">
          {t.backToBills}
        </Link>
      </p>
      <h1>
        {t.bill}{' '}
        <span className="dash-id" title={b.billId}>
          {b.billId}
        </span>
      </h1>
      <section className="dash-card bill-fields" aria-labelledby="bill-fields">
        <h2 id="bill-fields">{t.bill}</h2>
        <dl>
          <dt>{t.billId}</dt>
          <dd className="dash-scroll">{b.billId}</dd>
          <dt>{t.status}</dt>
          <dd>
            <CodeWord code={d.status} words={textsOf(lang).codes.billStatus} />
          </dd>
          <dt>{t.amount}</dt>
          <dd>{b.amountMinor === null ? t.openAmount : shownAmount(b.amountMinor, b.currency, lang)}</dd>
          <dt>{t.currency}</dt>
          <dd>{b.currency}</dd>
          <dt>{t.comment}</dt>
          <dd>
            <Words text={b.comment ?? t.none} />
          </dd>
          <dt>{t.created}</dt>
          <dd>{shownTime(b.createdAt, lang)}</dd>
          <dt>{t.expires}</dt>
          <dd>{shownTime(b.expiresAt, lang)}</dd>
          <dt>{t.successUrl}</dt>
          <dd>
            <Words text={b.successUrl ?? t.none} />
          </dd>
          <dt>{t.failedUrl}</dt>
          <dd>
            <Words text={b.failedUrl ?? t.none} />
          </dd>
          {customFields.length > 0 && (
            <>
              <dt>{textsOf(lang).dashboard.customFields}</dt>
              <dd>
                <FieldList fields={customFields} testId="bill-custom-fields" />
              </dd>
            </>
          )}
        </dl>
      </section>
      <section className="dash-card" aria-labelledby="bill-link">
        <h2 id="bill-link">{t.payLink}</h2>
        <p className="bill-link">{d.payUrl}</p>
        <CopyLinkButton url={d.payUrl} label={t.copyLink} copied={t.copied} failed={t.copyFailed} />
        <div className="bill-qr" role="img" aria-label={t.qrCode} dangerouslySetInnerHTML={{ __html: qr }} />
      </section>
      <section className="dash-card dash-table-wrap" aria-labelledby="bill-payments">
        <h2 id="bill-payments">{t.payments}</h2>
        {d.payments.length === 0 ? (
          <p>{t.noPayments}</p>
        ) : (
          <PaymentTable
            rows={d.payments}
            lang={lang}
            labels={{ id: t.paymentId, date: t.date, amount: t.amount, status: t.status, card: t.card }}
            className="bill-table"
          />
        )}
      </section>
      <AuditLog id="bill-audit" rows={d.audit} lang={lang} empty={t.none} className="bill-table" withAction={false} />
    </>
  )
}
