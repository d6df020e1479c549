// The HTML around pages-router pages (the payment page): the payer's language on <html>, and the CSP
// nonce on Next.js's own scripts (only in development: in production the page has none of them).
import Document, { Head, Html, Main, NextScript } from 'next/document'
import { DEFAULT_LANG } from '@/lib/i18n/languages'

export default class PayDocument extends Document {
  render() {
    const page = this.props.__NEXT_DATA__.props?.pageProps as { lang?: string; nonce?: string | null } | undefined
    const nonce = page?.nonce ?? undefined
    return (
      <Html lang={page?.lang ?? DEFAULT_LANG}>
        <Head nonce={nonce} />
        <body>
          <Main />
          <NextScript nonce={nonce} />
        </body>
      </Html>
    )
  }
}
