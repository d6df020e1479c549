// The hosted payment page of a bill (its payUrl), rendered on the server in the payer's language.
import { headers } from 'next/headers'
import { notFound } from 'next/navigation'
import { BillSummary } from '@/components/pay/bill-summary'
import { PaymentForm } from '@/components/pay/payment-form'
import { ResultScreen } from '@/components/pay/result-screen'
import '@/components/pay/pay.css'
import { settings } from '@/lib/config'
import { memoized } from '@/lib/memoized'
import { formatForPeople } from '@/lib/money/money'
import { mobileAllowed, pageState, returnUrl } from '@/lib/pay-form/form-service'
import { messagesFor, pickLanguage } from '@/lib/pay-form/messages'

export const dynamic = 'force-dynamic'

// one formatter per language for the life of the process
const deadlineFormat = memoized((locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: settings().timeZone }))

export async function generateMetadata() {
  const t = messagesFor(pickLanguage((await headers()).get('accept-language')))
  return { title: t.title, robots: { index: false } }
}

export default async function PayPage({ params, searchParams }: { params: Promise<{ invoiceUid: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { invoiceUid } = await params
  const { declined } = await searchParams
  const lang = pickLanguage((await headers()).get('accept-language'))
  const t = messagesFor(lang)
  const page = await pageState(invoiceUid, typeof declined === 'string' ? declined : undefined)
  if (!page) notFound()
  const { bill, state } = page
  const locale = lang === 'ru' ? 'ru-RU' : 'en-US'
  const amount = bill.amountMinor === null ? null : formatForPeople(bill.amountMinor, bill.currency, locale)
  const deadline = deadlineFormat(locale).format(bill.expiresAt)

  return (
    <main className="pay" lang={lang}>
      <div className="pay-card">
        {state === 'PAID' ? (
          <ResultScreen tone="good" title={t.paidTitle} text={t.paidText}>
            {bill.successUrl && (
              <a className="pay-link" href={returnUrl(bill.successUrl, bill)}>
                {t.backToMerchant}
              </a>
            )}
          </ResultScreen>
        ) : state === 'EXPIRED' ? (
          <ResultScreen tone="bad" title={t.expiredTitle} text={t.expiredText} />
        ) : (
          <>
            <h1>{t.title}</h1>
            <BillSummary t={t} siteId={bill.siteId} amount={amount} comment={bill.comment} deadline={deadline} />
            <PaymentForm t={t} invoiceUid={bill.invoiceUid} currency={bill.currency} amountLabel={amount} mobileAllowed={mobileAllowed(bill)} declinedReason={page.declinedReason} />
            <p className="pay-note">
              {t.secure} {t.sandbox}
            </p>
          </>
        )}
      </div>
    </main>
  )
}
