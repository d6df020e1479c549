import { headers } from 'next/headers'
import type { ReactNode } from 'react'
import { chooseLanguage } from '@/lib/i18n/choose-language'

export default async function RootLayout({ children }: { children: ReactNode }) {
  const lang = chooseLanguage((await headers()).get('accept-language'))
  return (
    <html lang={lang}>
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: 0 }}>{children}</body>
    </html>
  )
}
