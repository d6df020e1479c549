// A link without the API (production's `GET /create?publicKey=…`, lib/form-links/link-service.ts): a bill made (or,
// with billId, reopened) and the payer sent on to its payment page (303); otherwise a page in the payer's language
// says why not (404: no site has the key; 400: the link's values; 409: its billId is a bill of another amount).
// Server-rendered, no script: the payment page's styles.
import type { GetServerSideProps } from 'next'
import Head from 'next/head'
import { PAY_PAGE_CSS } from '@/components/pay/pay-styles'
import { ResultScreen } from '@/components/pay/result-screen'
import { chooseLanguage } from '@/lib/i18n/choose-language'
import type { FormLinkMessages } from '@/lib/i18n/en/form-link'
import { textsOf, type Lang } from '@/lib/i18n/languages'
import { openLink } from '@/lib/form-links/link-service'
import { pageOptions } from '@/lib/pay-form/page-options'

export const config = { unstable_runtimeJS: false }

type Props = {
  lang: Lang
  t: FormLinkMessages
  refusal: 'not-found' | 'invalid' | 'conflict'
  problems: { parameter: string; message: string }[]
}

const STATUS = { 'not-found': 404, invalid: 400, conflict: 409 } as const

export const getServerSideProps: GetServerSideProps<Props> = async ({ req, res }) => {
  const query = new URL(req.url ?? '/', 'http://link').searchParams
  // a new bill each time (without billId): never from a cache
  res.setHeader('Cache-Control', 'private, no-cache, no-store, max-age=0, must-revalidate')
  const outcome = await openLink(query)
  if (outcome.kind === 'redirect') return { redirect: { destination: outcome.location, statusCode: 303 } }
  const lang = pageOptions(query).lang ?? chooseLanguage(req.headers['accept-language'])
  res.statusCode = STATUS[outcome.kind]
  return {
    props: {
      lang,
      t: textsOf(lang).formLink,
      refusal: outcome.kind,
      problems: outcome.kind === 'invalid' ? outcome.problems : [],
    },
  }
}

export default function CreatePage({ t, refusal, problems, lang }: Props) {
  const [title, text] =
    refusal === 'not-found'
      ? [t.notFoundTitle, t.notFoundText]
      : refusal === 'conflict'
        ? [t.conflictTitle, t.conflictText]
        : [t.invalidTitle, t.invalidText]
  return (
    <>
      <Head>
        <title>{title}</title>
        <meta name="viewport" content="width=device-width, initial-scale=1" key="viewport" />
        <meta name="robots" content="noindex" />
        <link rel="icon" href="/icon.svg" type="image/svg+xml" />
        <style dangerouslySetInnerHTML={{ __html: PAY_PAGE_CSS }} />
      </Head>
      <main className="pay" lang={lang}>
        <div className="pay-card">
          <ResultScreen tone="bad" title={title} text={text}>
            {problems.length > 0 && (
              <ul data-testid="link-problems">
                {problems.map((p) => (
                  <li key={`${p.parameter} ${p.message}`}>
                    <code>{p.parameter}</code>: {p.message}
                  </li>
                ))}
              </ul>
            )}
          </ResultScreen>
        </div>
      </main>
    </>
  )
}
