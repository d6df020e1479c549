// The hosted payment page of a bill (its payUrl), rendered on the server in the payer's language.
// A pages-router page without Next.js's browser runtime (unstable_runtimeJS: false): the payer
// downloads the HTML with its styles inline and one small script of our own that takes over the form
// (components/pay/payment-form-island.tsx). The page's endpoints stay in app/pay/[invoiceUid]/.
import type { GetServerSideProps } from 'next'
import Head from 'next/head'
import { BillSummary } from '@/components/pay/bill-summary'
import { PaymentForm, PAY_FORM_DATA, PAY_FORM_NOTICE, PAY_FORM_ROOT } from '@/components/pay/payment-form'
import { PAY_PAGE_CSS } from '@/components/pay/pay-styles'
import { themeCss, ThemeHeader } from '@/components/pay/pay-theme'
import { ResultScreen } from '@/components/pay/result-screen'
import { embedScript, type EmbedEvent } from '@/lib/pay-form/embed-events'
import { payFormScript } from '@/lib/pay-form/pay-form-script'
import { frameAncestors } from '@/lib/sites/frame-origins'
import { payPageView, type PayPageView } from '@/lib/pay-form/pay-page'
import { pageOptions } from '@/lib/pay-form/page-options'

export const config = { unstable_runtimeJS: false }

type Props = PayPageView & { script: string | null; nonce: string | null }

export const getServerSideProps: GetServerSideProps<Props> = async ({ params, query, req, res }) => {
  const declined = typeof query.declined === 'string' ? query.declined : undefined
  const leave = typeof query.leave === 'string' ? query.leave : undefined
  const view = await payPageView(
    String(params?.invoiceUid ?? ''),
    declined,
    req.headers['accept-language'],
    pageOptions(query),
    leave,
  )
  if (view.view === 'not-found') res.statusCode = 404
  // the bill's state changes: never served from a cache
  res.setHeader('Cache-Control', 'private, no-cache, no-store, max-age=0, must-revalidate')
  // the script nonce of this answer's Content-Security-Policy (proxy.ts)
  const csp = String(req.headers['content-security-policy'] ?? '')
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? null
  // framed by the bill's site's allowed origins only (none: by no one, as every other page); X-Frame-Options cannot
  // name origins, so it goes where frame-ancestors allows some (browsers follow frame-ancestors over it anyway)
  if (view.embedding && csp) {
    res.setHeader(
      'Content-Security-Policy',
      // a function: a string replacement would read `$'`, `$&`… in an origin as patterns
      csp.replace("frame-ancestors 'none'", () => frameAncestors(view.embedding!.origins)),
    )
    res.removeHeader('X-Frame-Options')
  }
  // in development Next.js ships its own runtime with the page (and hot reload), which takes over the whole page
  const script = view.view === 'form' && process.env.NODE_ENV === 'production' ? payFormScript() : null
  return { props: { ...view, script, nonce } }
}

/** JSON inside a <script> element: `<` escaped so no text can close it */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/**
 * The form's script is fetched once the page has loaded (modulepreload, low priority) and run at the payer's first move
 * on the form (focus, touch, pointer, key): until then the main thread stays free and the page is plain
 * HTML whose fields take typing. A submission before the script runs is held (never sent by the browser
 * itself), announced, and made by the form once it runs (components/pay/payment-form.tsx); if the script
 * cannot be loaded the payer is told and the next press tries again. A classic script right after the
 * form, so it is in place as soon as the form is.
 */
const FIRST_MOVES = ['focusin', 'pointerdown', 'touchstart', 'keydown', 'mouseover']
const loader = (src: string, t: { processing: string; somethingWrong: string }) =>
  `(()=>{const f=document.getElementById(${JSON.stringify(PAY_FORM_ROOT)}),m=${JSON.stringify(FIRST_MOVES)};if(!f)return;` +
  // fetched once the page has loaded: the download never competes with what the payer sees first
  `const k=document.currentScript&&document.currentScript.nonce,p=()=>{const l=document.createElement("link");l.rel="modulepreload";l.href=${JSON.stringify(src)};l.fetchPriority="low";if(k)l.nonce=k;document.head.append(l)};` +
  `if(document.readyState==="complete")p();else addEventListener("load",p,{once:true});` +
  `const n=document.getElementById(${JSON.stringify(PAY_FORM_NOTICE)}),say=x=>{if(n)n.textContent=x};let s=0;` +
  // a failed import is not fetched again under the same address: a retry asks under another one
  `let r=0;const go=()=>{if(s)return;s=1;import(${JSON.stringify(src)}+(r?"?retry="+r:"")).catch(()=>{s=0;r++;if(f.dataset.pending){delete f.dataset.pending;f.removeAttribute("aria-busy");say(${JSON.stringify(t.somethingWrong)})}})};` +
  `m.forEach(e=>f.addEventListener(e,go,{capture:true,passive:true}));` +
  `f.addEventListener("submit",e=>{if(f.dataset.live)return;e.preventDefault();e.stopImmediatePropagation();f.dataset.pending="1";f.setAttribute("aria-busy","true");say(${JSON.stringify(t.processing)});go()},true)})()`

/** the events a page's load tells its embedder (lib/pay-form/embed-events.ts); the form's script tells the rest */
function loadEvents(props: Props): EmbedEvent[] {
  if (props.view === 'paid') return ['PAYMENT_SUCCEEDED']
  // a CHECK_CARD bill's verification ended: its outcome, as a payment's
  if (props.view === 'checked') return [props.valid ? 'PAYMENT_SUCCEEDED' : 'PAYMENT_FAILED']
  if (props.view !== 'form') return ['INITIALIZATION_FAILED']
  // a page that forwards the payer at once says the outcome alone
  if (props.leaveTo) return ['PAYMENT_FAILED']
  return props.form.declinedReason ? ['INITIALIZED', 'PAYMENT_FAILED'] : ['INITIALIZED']
}

export default function PayPage(props: Props) {
  const { t } = props
  return (
    <>
      <Head>
        <title>
          {props.view === 'not-found'
            ? t.notFoundTitle
            : props.view === 'checked' ||
                props.view === 'check-taken' ||
                (props.view === 'form' && props.form.checkCard)
              ? t.checkTitle
              : t.title}
        </title>
        <meta name="viewport" content="width=device-width, initial-scale=1" key="viewport" />
        <meta name="robots" content="noindex" />
        <meta name="description" content={t.secure} />
        <link rel="icon" href="/icon.svg" type="image/svg+xml" />
        <style
          dangerouslySetInnerHTML={{ __html: props.theme ? PAY_PAGE_CSS + themeCss(props.theme) : PAY_PAGE_CSS }}
        />
      </Head>
      <main className="pay" lang={props.lang}>
        {props.theme && <ThemeHeader theme={props.theme} />}
        <div className="pay-card">
          {props.view === 'not-found' ? (
            <ResultScreen tone="bad" title={t.notFoundTitle} text={t.notFoundText} />
          ) : props.view === 'paid' ? (
            <ResultScreen tone="good" title={t.paidTitle} text={t.paidText}>
              {props.successUrl && (
                <a className="pay-link" href={props.successUrl}>
                  {t.backToMerchant}
                </a>
              )}
            </ResultScreen>
          ) : props.view === 'expired' ? (
            <ResultScreen tone="bad" title={t.expiredTitle} text={t.expiredText} />
          ) : props.view === 'check-taken' ? (
            <ResultScreen tone="bad" title={t.checkTakenTitle} text={t.checkTakenText} />
          ) : props.view === 'no-method' ? (
            <ResultScreen tone="bad" title={t.noMethodTitle} text={t.noMethodText} />
          ) : props.view === 'checked' ? (
            <ResultScreen
              tone={props.valid ? 'good' : 'bad'}
              title={props.valid ? t.checkValidTitle : t.checkInvalidTitle}
              text={(props.valid ? t.checkValidText : t.checkInvalidText).replace('{card}', props.maskedPan)}
            >
              {props.returnUrl && (
                <a className="pay-link" href={props.returnUrl}>
                  {t.backToMerchant}
                </a>
              )}
            </ResultScreen>
          ) : (
            <>
              <h1>{props.form.checkCard ? t.checkTitle : t.title}</h1>
              {props.form.checkCard && <p className="pay-note">{t.checkIntro}</p>}
              <BillSummary
                t={t}
                siteId={props.siteId}
                amount={props.amount}
                comment={props.comment}
                deadline={props.deadline}
              />
              <div id={PAY_FORM_ROOT}>
                <PaymentForm {...props.form} />
              </div>
              {/* what the page says before the form's script runs (outside the form, which React takes over as
                  rendered) */}
              <p className="pay-notice" id={PAY_FORM_NOTICE} aria-live="polite" />
              <script
                type="application/json"
                id={PAY_FORM_DATA}
                dangerouslySetInnerHTML={{ __html: scriptJson(props.form) }}
              />
              {props.script && (
                <script
                  nonce={props.nonce ?? undefined}
                  dangerouslySetInnerHTML={{ __html: loader(props.script, t) }}
                />
              )}
              <noscript>
                <p className="pay-alert">{t.noScript}</p>
              </noscript>
              <p className="pay-note">
                {t.secure} {t.sandbox}
              </p>
            </>
          )}
        </div>
      </main>
      {/* after the page's content: "loaded" is said of a page that is there */}
      {props.embedding && (
        <script
          nonce={props.nonce ?? undefined}
          dangerouslySetInnerHTML={{ __html: embedScript(props.embedding, loadEvents(props)) }}
        />
      )}
      {/* after the events: the embedder heard the outcome before the payer leaves for the merchant's URL */}
      {props.leaveTo && (
        <script
          nonce={props.nonce ?? undefined}
          dangerouslySetInnerHTML={{ __html: `location.replace(${scriptJson(props.leaveTo)})` }}
        />
      )}
    </>
  )
}
