import { headers } from 'next/headers'
import { ResultScreen } from '@/components/pay/result-screen'
import '@/components/pay/pay.css'
import { messagesFor, pickLanguage } from '@/lib/pay-form/messages'

export default async function BillNotFound() {
  const lang = pickLanguage((await headers()).get('accept-language'))
  const t = messagesFor(lang)
  return (
    <main className="pay" lang={lang}>
      <div className="pay-card">
        <ResultScreen tone="bad" title={t.notFoundTitle} text={t.notFoundText} />
      </div>
    </main>
  )
}
