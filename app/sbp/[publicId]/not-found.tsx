// The bank app's page (status 404) of a link that names no QR code, in the payer's language.
import { headers } from 'next/headers'
import { PAY_PAGE_CSS } from '@/components/pay/pay-styles'
import { ResultScreen } from '@/components/pay/result-screen'
import { chooseLanguage } from '@/lib/i18n/choose-language'
import { textsOf } from '@/lib/i18n/languages'

export default async function BankAppNotFound() {
  const lang = chooseLanguage((await headers()).get('accept-language'))
  const t = textsOf(lang).sbpBankApp
  return (
    <>
      <title>{t.notFoundTitle}</title>
      <meta name="robots" content="noindex" />
      <style dangerouslySetInnerHTML={{ __html: PAY_PAGE_CSS }} />
      <main className="pay" lang={lang}>
        <div className="pay-card">
          <ResultScreen tone="bad" title={t.notFoundTitle} text={t.notFoundText} />
        </div>
      </main>
    </>
  )
}
