import { headers } from 'next/headers'
import type { ReactNode } from 'react'
import { pickLanguage } from '@/lib/pay-form/messages'

export const metadata = { title: 'Payin sandbox' }

export default async function RootLayout({ children }: { children: ReactNode }) {
  const lang = pickLanguage((await headers()).get('accept-language'))
  return (
    <html lang={lang}>
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: 0 }}>{children}</body>
    </html>
  )
}
