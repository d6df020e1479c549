// The sandbox bank app (an SBP QR code's payload: the service's stand-in for the national QR link), rendered on the
// server in the payer's language: the merchant, amount and purpose, a choice of the sandbox's test banks, Pay (Link
// account for a TOKEN code) and Decline, posted as a plain HTML form (no script needed) to ./act
// (lib/sbp/bank-app.ts). A code no longer payable shows its final state; an unknown one a 404 page.
import { notFound } from 'next/navigation'
import { headers } from 'next/headers'
import { PAY_PAGE_CSS } from '@/components/pay/pay-styles'
import { ResultScreen } from '@/components/pay/result-screen'
import { chooseLanguage } from '@/lib/i18n/choose-language'
import { textsOf } from '@/lib/i18n/languages'
import { bankAppPath, bankAppView } from '@/lib/sbp/bank-app'

// a stand-in bank, told apart from the payment page at a glance
const BANK_APP_CSS = `${PAY_PAGE_CSS}
.sbp-banner { background:#fff4d6; border:1px solid #f0c36d; color:#6b4a00; border-radius:8px; padding:.6rem .8rem; margin-bottom:1rem; font-size:.9rem }
.sbp-actions { display:grid; gap:.6rem }
.pay button.sbp-decline { width:100%; font:inherit; font-weight:600; padding:.8rem; border-radius:8px; background:#fff; color:var(--bad); border:1px solid var(--bad); cursor:pointer }
.pay-methods.sbp-banks { flex-direction:column }
`

export async function generateMetadata() {
  const t = textsOf(chooseLanguage((await headers()).get('accept-language'))).sbpBankApp
  return { title: t.title, robots: { index: false } }
}

export default async function BankAppPage({ params }: { params: Promise<{ publicId: string }> }) {
  const { publicId } = await params
  const v = await bankAppView(publicId, (await headers()).get('accept-language'))
  if (v.view === 'not-found') notFound()
  const { t } = v
  const back = v.redirectUrl && (
    <a className="pay-link" href={v.redirectUrl}>
      {t.backToMerchant}
    </a>
  )
  let body
  if (v.status === 'PAYED')
    body = v.linksAccount ? (
      <ResultScreen tone="good" title={t.linkedTitle} text={t.linkedText}>
        {back}
      </ResultScreen>
    ) : (
      <ResultScreen tone="good" title={t.paidTitle} text={t.paidText}>
        {back}
      </ResultScreen>
    )
  else if (v.status === 'DECLINED')
    body = (
      <ResultScreen
        tone="bad"
        title={v.withdrawn ? t.withdrawnTitle : t.declinedTitle}
        text={v.withdrawn ? t.withdrawnText : t.declinedText}
      >
        {back}
      </ResultScreen>
    )
  else if (v.status === 'EXPIRED') body = <ResultScreen tone="bad" title={t.expiredTitle} text={t.expiredText} />
  else if (v.status !== 'CREATED') body = <ResultScreen tone="good" title={t.pendingTitle} text={t.pendingText} />
  else
    body = (
      <>
        <h1>{t.title}</h1>
        <dl className="pay-summary">
          <div>
            <dt>{v.linksAccount ? t.linkTo : t.payTo}</dt>
            <dd>{v.merchant}</dd>
          </div>
          {v.amount && (
            <div>
              <dt>{t.amount}</dt>
              <dd className="pay-amount" data-testid="amount">
                {v.amount}
              </dd>
            </div>
          )}
          {v.purpose && (
            <div>
              <dt>{t.purpose}</dt>
              <dd>{v.purpose}</dd>
            </div>
          )}
        </dl>
        {v.linksAccount && <p>{t.linkText}</p>}
        <form method="post" action={`${bankAppPath(v.publicId)}/act`}>
          <fieldset>
            <legend>{v.linksAccount ? t.bankToLink : t.bank}</legend>
            <div className="pay-methods sbp-banks">
              {v.banks.map((b, i) => (
                <label key={b.memberId}>
                  <input type="radio" name="bank" value={b.memberId} defaultChecked={i === 0} /> {b.name}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="sbp-actions">
            <button className="pay-submit" type="submit" name="action" value="pay">
              {v.linksAccount ? t.link : t.pay}
            </button>
            <button className="sbp-decline" type="submit" name="action" value="decline">
              {t.decline}
            </button>
          </div>
        </form>
      </>
    )
  return (
    <>
      <style dangerouslySetInnerHTML={{ __html: BANK_APP_CSS }} />
      <main className="pay" lang={v.lang}>
        <div className="pay-card">
          <p className="sbp-banner" role="note">
            {t.banner}
          </p>
          {body}
        </div>
      </main>
    </>
  )
}
