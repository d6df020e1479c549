// The sandbox bank app: the page an SBP QR code's payload opens (app/sbp/[publicId]/page.tsx, standing for the
// payer's bank app reached through the national QR link) and its one form post (app/sbp/[publicId]/act), which pays
// (or, for a TOKEN code, links the payer's account) or declines the code through qr-code-service.ts's actInBankApp.
// The post is refused cross-site, as the payment page's are; then the payer goes to the code's redirectUrl when it
// has one, else back to the page, which shows the code's final state.
import { ApiError } from '../http/api-error'
import { isCrossSite } from '../http/api-route'
import { BodyTooLarge, ClientAborted, NotAForm, readFormFields } from '../http/bounded-body'
import { CLIENT_CLOSED, logRequest } from '../http/request-log'
import { requestIds } from '../http/trace-id'
import { chooseLanguage } from '../i18n/choose-language'
import type { SbpBankAppMessages } from '../i18n/en/sbp-bank-app'
import { payPageAmount } from '../i18n/format'
import { textsOf, type Lang } from '../i18n/languages'
import { readPaymentByRef } from '../payments/payment-store'
import { actInBankApp, answerOf } from './qr-code-service'
import { readQrCodeByPublicId } from './qr-code-store'
import type { QrCodeStatus } from './qr-code-wire'
import { SANDBOX_BANKS, sandboxBankOf } from './sandbox-banks'

/** the shape of a code's public id (22 base64url characters; a little room): another is no code, never looked up */
const PUBLIC_ID = /^[A-Za-z0-9_-]{16,64}$/

/** the bank app's page of a code */
export const bankAppPath = (publicId: string) => `/sbp/${encodeURIComponent(publicId)}`

export type BankAppView = { lang: Lang; t: SbpBankAppMessages } & (
  | { view: 'not-found' }
  | {
      view: 'code'
      publicId: string
      /** the merchant as the payer sees it: the site's id (sites have no other name) */
      merchant: string
      /** for people (`200,00 ₽`); null for a TOKEN code */
      amount: string | null
      purpose: string | null
      /** a TOKEN code: the payer links their account instead of paying */
      linksAccount: boolean
      status: QrCodeStatus
      /** DECLINED as its bill closed, not by the payer */
      withdrawn: boolean
      redirectUrl: string | null
      banks: { memberId: string; name: string }[]
    }
)

/** what the bank app's page shows of the code `publicId`, in the language of the payer's Accept-Language */
export async function bankAppView(publicId: string, acceptLanguage: string | null | undefined): Promise<BankAppView> {
  const lang = chooseLanguage(acceptLanguage)
  const t = textsOf(lang).sbpBankApp
  const qr = PUBLIC_ID.test(publicId) ? await readQrCodeByPublicId(publicId) : null
  if (!qr) return { lang, t, view: 'not-found' }
  // the status as the API answers it now, from the row just read: its payment's, or EXPIRED once past its time
  const answer = await answerOf(qr, false)
  // a decline the payer did not make: the code was withdrawn as its bill closed (paid another way, or expired)
  const payment = answer.qrCode.status === 'DECLINED' && qr.paymentRef ? await readPaymentByRef(qr.paymentRef) : null
  const withdrawn = payment?.statusReason === 'BILL_ALREADY_PAID' || payment?.statusReason === 'BILL_EXPIRED'
  return {
    lang,
    t,
    view: 'code',
    publicId,
    merchant: qr.siteId,
    amount: qr.amountMinor === null ? null : payPageAmount(qr.amountMinor, qr.currency, lang),
    purpose: qr.type === 'TOKEN' ? (qr.tokenizationPurpose ?? null) : qr.paymentPurpose,
    linksAccount: qr.type === 'TOKEN',
    status: answer.qrCode.status as QrCodeStatus,
    withdrawn,
    redirectUrl: qr.redirectUrl,
    banks: SANDBOX_BANKS.map((b) => ({ memberId: b.memberId, name: b.name })),
  }
}

/** a refusal of the post, as plain text */
class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** POST /sbp/{publicId}/act: the payer's choice (`action` pay or decline, `bank` a sandbox bank's member id) */
export async function bankAppAction(req: Request, ctx: { params: Promise<{ publicId: string }> }): Promise<Response> {
  const started = performance.now()
  const { traceId, requestId } = requestIds(req)
  const { publicId } = await ctx.params
  let location = bankAppPath(publicId)
  let refused: Refused | undefined
  let failure: unknown
  let status = 303
  try {
    if (isCrossSite(req)) throw new Refused(403, 'Cross-site request refused')
    const form = await readFormFields(req)
    const action = form.get('action')
    if (action !== 'pay' && action !== 'decline') throw new Refused(400, 'Choose pay or decline')
    const bank = sandboxBankOf(String(form.get('bank') ?? SANDBOX_BANKS[0].memberId))
    if (!bank) throw new Refused(400, 'Choose one of the sandbox banks')
    const qr = PUBLIC_ID.test(publicId) ? await readQrCodeByPublicId(publicId) : null
    if (!qr) throw new Refused(404, 'QR code not found')
    try {
      await actInBankApp(qr.siteId, qr.qrCodeUid, action, bank)
      // as a browser reads it, percent-encoded (a header carries ASCII only)
      if (qr.redirectUrl) location = new URL(qr.redirectUrl).href
    } catch (e) {
      // paid, declined or expired meanwhile (409), or gone with a sandbox reset (404): the page says what it is now
      if (!(e instanceof ApiError) || e.status >= 500) throw e
    }
  } catch (e) {
    if (e instanceof Refused) refused = e
    else if (e instanceof BodyTooLarge) refused = new Refused(413, 'Request body exceeds 64 KiB')
    // the payer's browser went away mid-post: no one to answer (499 in the log, a warning)
    else if (e instanceof ClientAborted) status = CLIENT_CLOSED
    else if (e instanceof NotAForm) refused = new Refused(400, 'Send the bank app form')
    // anything unexpected (the database gone): the payer goes back to the page, the log says what failed
    else failure = e
  }
  if (refused) status = refused.status
  logRequest({ req, traceId, requestId, status, started, failure })
  const headers = {
    'X-Trace-Id': traceId,
    'X-Request-Id': requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  }
  if (status === CLIENT_CLOSED) return new Response(null, { status, headers })
  if (refused)
    return new Response(refused.message, {
      status,
      headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
    })
  return new Response(null, { status, headers: { ...headers, Location: location } })
}
