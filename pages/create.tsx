// A link without the API (production's `GET /create?publicKey=…`, lib/form-links/link-service.ts): a bill made (or,
// with billId, reopened) and the payer sent on to its payment page (303); otherwise a page in the payer's language
// says why not (404: no site has the key; 400: the link's values; 409: its billId is a bill of another amount, or
// one made through the API; 429: the client has made too many bills by links).
// Server-rendered, no script: the payment page's styles.
import type { GetServerSideProps } from 'next'
import Head from 'next/head'
import { PAY_PAGE_CSS } from '@/components/pay/pay-styles'
import { ResultScreen } from '@/components/pay/result-screen'
import { chooseLanguage } from '@/lib/i18n/choose-language'
import type { FormLinkMessages } from '@/lib/i18n/en/form-link'
import { textsOf, type Lang } from '@/lib/i18n/languages'
import { openLink } from '@/lib/form-links/link-service'
import { CLIENT_ADDRESS_HEADER, requestClientAddress } from '@/lib/http/front-door'
import { fill } from '@/lib/i18n/fill'
import { pageOptions } from '@/lib/pay-form/page-options'

export const config = { unstable_runtimeJS: false }

type Props = {
  lang: Lang
  t: FormLinkMessages
  refusal: 'not-found' | 'invalid' | 'conflict' | 'taken' | 'limited'
  problems: { parameter: string; message: string }[]
  /** how long a limited client waits, in whole minutes */
  minutes: number
}

const STATUS = { 'not-found': 404, invalid: 400, conflict: 409, taken: 409, limited: 429 } as const

export const getServerSideProps: GetServerSideProps<Props> = async ({ req, res }) => {
  const query = new URL(req.url ?? '/', 'http://link').searchParams
  // a new bill each time (without billId): never from a cache
  res.setHeader('Cache-Control', 'private, no-cache, no-store, max-age=0, must-revalidate')
  // the client as the front door saw it: a link's new bills count against it
  const address = requestClientAddress(
    new Headers({ [CLIENT_ADDRESS_HEADER]: String(req.headers[CLIENT_ADDRESS_HEADER] ?? '') }),
  )
  const outcome = await openLink(query, address)
  if (outcome.kind === 'redirect') return { redirect: { destination: outcome.location, statusCode: 303 } }
  const lang = pageOptions(query).lang ?? chooseLanguage(req.headers['accept-language'])
  res.statusCode = STATUS[outcome.kind]
  if (outcome.kind === 'limited') res.setHeader('Retry-After', String(outcome.retryAfterSeconds))
  return {
    props: {
      lang,
      t: textsOf(lang).formLink,
      refusal: outcome.kind,
      problems: outcome.kind === 'invalid' ? outcome.problems : [],
      minutes: outcome.kind === 'limited' ? Math.ceil(outcome.retryAfterSeconds / 60) : 0,
    },
  }
}

export default function CreatePage({ t, refusal, problems, lang, minutes }: Props) {
  const words = {
    'not-found': [t.notFoundTitle, t.notFoundText],
    conflict: [t.conflictTitle, t.conflictText],
    taken: [t.takenTitle, t.takenText],
    limited: [t.limitedTitle, fill(t.limitedText, { minutes: String(minutes) })],
    invalid: [t.invalidTitle, t.invalidText],
  } as const
  const [title, text] = words[refusal]
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
