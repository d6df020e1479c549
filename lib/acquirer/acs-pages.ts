// The emulated 3-D Secure access-control server (`acsUrl`), in the standard browser flow: the payer's
// browser POSTs PaReq, MD and TermUrl here; the page lets the payer pass or fail the challenge; it then
// POSTs PaRes and MD to TermUrl. Plain HTML, no script but the one that submits to TermUrl.
import { randomBytes } from 'node:crypto'
import { BodyTooLarge, ClientAborted, readFormFields } from '../http/bounded-body'
import { CLIENT_CLOSED, logRequest } from '../http/request-log'
import { requestIds } from '../http/trace-id'
import { wireAmount } from '../money/money'
import { paymentForChallenge } from '../payments/payment-store'
import { frameAncestors, frameOrigins } from '../sites/frame-origins'
import { issuePares, readPareq } from './three-ds'

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(
  status: number,
  title: string,
  body: string,
  opts: { nonce?: string; postsToTermUrl?: boolean; frameAncestors?: string } = {},
): Response {
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    opts.nonce ? `script-src 'nonce-${opts.nonce}'` : '',
    // the page that posts to TermUrl sets no form-action: browsers apply it to the redirects that follow
    // the post too, and a TermUrl may send the payer on to any address (the payment page's does, to the
    // merchant's successUrl / failedUrl)
    opts.postsToTermUrl ? '' : "form-action 'self'",
    "base-uri 'none'",
    opts.frameAncestors ?? '',
  ]
    .filter(Boolean)
    .join('; ')
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>
body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:2rem 1rem;color:#1d2330}
main{max-width:28rem;margin:auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.25rem;margin-top:0}.note{color:#5b6475;font-size:.9rem}
button{font:inherit;padding:.7rem 1.2rem;border-radius:8px;border:1px solid #1d4ed8;margin:.25rem .5rem .25rem 0;cursor:pointer}
.pass{background:#1d4ed8;color:#fff}.fail{background:#fff;color:#b42318;border-color:#b42318}
</style></head><body><main>${body}</main></body></html>`
  return new Response(html, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

interface ChallengeForm {
  pareq: string
  md: string
  termUrl: URL
  paymentRef: string
}

function readForm(form: FormData): ChallengeForm | Response {
  const pareq = String(form.get('PaReq') ?? '')
  const md = String(form.get('MD') ?? '').slice(0, 1024)
  let termUrl: URL | null = null
  try {
    termUrl = new URL(String(form.get('TermUrl') ?? ''))
  } catch {
    // not an address: refused below, with the other TermUrl that is not http(s)
  }
  const paymentRef = readPareq(pareq)
  if (!paymentRef)
    return page(
      400,
      'Unknown request',
      '<h1>Unknown authentication request</h1><p>This PaReq was not issued by this service.</p>',
    )
  if (!termUrl || !/^https?:$/.test(termUrl.protocol))
    return page(400, 'Bad request', '<h1>Bad request</h1><p>TermUrl must be an http(s) address.</p>')
  return { pareq, md, termUrl, paymentRef }
}

/**
 * who may frame the challenge of a payment page's attempt: its bill's site's allowed origins, as the page itself
 * ('none' when it has none); the challenge of a merchant's own checkout (an API payment) or of a card verification may
 * be framed by anyone, as the checkout's own page decides
 */
async function challengeFraming(p: { siteId: string; pageAttemptKey: string | null } | null) {
  return p?.pageAttemptKey ? frameAncestors((await frameOrigins(p.siteId)) ?? []) : undefined
}

/** the posted form, read once and within 64 KiB; or the page that says what is wrong */
async function postedForm(req: Request): Promise<FormData | Response> {
  try {
    return await readFormFields(req)
  } catch (e) {
    if (e instanceof BodyTooLarge)
      return page(413, 'Too large', '<h1>Request too large</h1><p>A form post may hold at most 64 KiB.</p>')
    if (e instanceof ClientAborted) return new Response(null, { status: CLIENT_CLOSED })
    return page(400, 'Bad request', '<h1>Bad request</h1><p>Send PaReq, MD and TermUrl as a form.</p>')
  }
}

/**
 * One log line per request, as the API's (trace id, request id, status), both ids answered as headers;
 * a client gone mid-post is a warning (499), an unexpected failure an error with its (masked) stack and
 * a plain 500 page.
 */
function logged(handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return async (req) => {
    const started = performance.now()
    const { traceId, requestId } = requestIds(req)
    let res: Response
    let failure: unknown
    try {
      res = await handler(req)
    } catch (e) {
      failure = e
      res = page(500, 'Error', '<h1>Something went wrong</h1><p>Try again later.</p>')
    }
    logRequest({ req, traceId, requestId, status: res.status, started, failure })
    res.headers.set('X-Trace-Id', traceId)
    res.headers.set('X-Request-Id', requestId)
    return res
  }
}

/** POST acsUrl: the challenge */
export const challengePage = logged(async (req) => {
  const form = await postedForm(req)
  if (form instanceof Response) return form
  const f = readForm(form)
  if (f instanceof Response) return f
  const p = await paymentForChallenge(f.paymentRef)
  const amount = p ? wireAmount(p.amountMinor, p.currency) : null
  const hidden = `<input type="hidden" name="PaReq" value="${esc(f.pareq)}"><input type="hidden" name="MD" value="${esc(f.md)}"><input type="hidden" name="TermUrl" value="${esc(f.termUrl.href)}">`
  return page(
    200,
    '3-D Secure check',
    `<h1>3-D Secure check (sandbox)</h1>
<p>${amount ? `Confirm the payment of <strong>${esc(amount.value)} ${esc(amount.currency)}</strong>${p?.maskedPan ? ` with the card <strong>${esc(p.maskedPan)}</strong>` : ''}.` : 'Confirm the payment.'}</p>
<p class="note">This is the sandbox's emulated issuer page: choose the result of the check.</p>
<form method="post" action="/acs/result">${hidden}
<button class="pass" type="submit" name="result" value="pass">Pass authentication</button>
<button class="fail" type="submit" name="result" value="fail">Fail authentication</button>
</form>`,
    { frameAncestors: await challengeFraming(p) },
  )
})

/** POST /acs/result: the payer's choice, sent on to the merchant's TermUrl as PaRes and MD */
export const challengeResult = logged(async (req) => {
  const form = await postedForm(req)
  if (form instanceof Response) return form
  const f = readForm(form)
  if (f instanceof Response) return f
  const result = String(form.get('result') ?? '')
  if (result !== 'pass' && result !== 'fail')
    return page(400, 'Bad request', '<h1>Bad request</h1><p>Choose pass or fail.</p>')
  const pares = issuePares(f.paymentRef, result === 'pass')
  const nonce = randomBytes(16).toString('base64')
  return page(
    200,
    'Returning to the merchant',
    `<h1>Returning to the merchant…</h1>
<form id="back" method="post" action="${esc(f.termUrl.href)}"><input type="hidden" name="PaRes" value="${esc(pares)}"><input type="hidden" name="MD" value="${esc(f.md)}">
<button class="pass" type="submit">Continue</button></form>
<script nonce="${nonce}">document.getElementById('back').submit()</script>`,
    { nonce, postsToTermUrl: true, frameAncestors: await challengeFraming(await paymentForChallenge(f.paymentRef)) },
  )
})
