// What the hosted payment page of a bill shows, in the payer's language: the data of
// pages/pay/[invoiceUid].tsx, plain JSON (it is also what the page's browser script is started with).
import { chooseLanguage } from '../i18n/choose-language'
import type { PayFormMessages } from '../i18n/en/pay-form'
import { payPageAmount, payPageDeadline } from '../i18n/format'
import { textsOf, type Lang } from '../i18n/languages'
import { frameOrigins } from '../sites/frame-origins'
import { pageTheme, type PageTheme } from '../themes/theme-service'
import type { Embedding } from './embed-events'
import { checksCard, offeredMethods, offeredOn, pageState, returnUrl } from './form-service'
import { offeredFlags, payFormMethods, type OfferedFlags } from './methods'
import { pageQuery, type PageOptions } from './page-options'

/** a link's bill's fields the page shows (lib/form-links), with the words around them */
export interface OrderFields {
  title: string
  readonlyNote: string
  list: { name: string; value: string; readonly: boolean }[]
}

/** the bill's fields its page shows, with their values: a link's bill's only (null: none) */
function orderFields(bill: { formFields?: unknown; customFields?: unknown }, lang: Lang): OrderFields | null {
  if (!Array.isArray(bill.formFields) || !bill.formFields.length) return null
  const values = (bill.customFields ?? {}) as Record<string, string>
  const { fields, readonly } = textsOf(lang).formLink
  const list = (bill.formFields as { name: string; readonly: boolean }[]).map((f) => ({
    name: f.name,
    value: values[f.name] ?? '',
    readonly: f.readonly,
  }))
  return { title: fields, readonlyNote: readonly, list }
}

/** what the payment form (components/pay/payment-form.tsx) is rendered with, on the server and in the browser */
export type PaymentFormData = {
  t: PayFormMessages
  invoiceUid: string
  currency: string
  /** the bill's amount for people, or null for an open bill */
  amountLabel: string | null
} & OfferedFlags & {
    /** a decline to show at once (after returning from 3-D Secure) */
    declinedReason: string | null
    /** the bill's site's sandbox clock, ahead of real time by this much: it judges a card's expiry month */
    clockOffsetMs: number
    /** the page's method chosen first (the payUrl's paymentMethod, when the bill offers it); absent: the first tab */
    firstMethod?: string
    /** the payUrl's options, as the query the form's requests carry (page-options.ts); absent when none */
    query?: string
    /** a link's bill's fields (lib/form-links); absent for every other bill */
    orderFields?: OrderFields
    /** a CHECK_CARD bill: the form verifies the card without charging it */
    checkCard: boolean
    /** who may hear the page's events (lib/pay-form/embed-events.ts); null: the site allows no embedding */
    embedding: Embedding | null
  }

/**
 * `embedding`: who may frame the page (its frame-ancestors) and hear its events; null: no one. `leaveTo`: the
 * merchant's URL the page forwards the payer to once it told its embedder the outcome (after 3-D Secure). `theme`:
 * the site's theme the bill's customFields.themeCode names (lib/themes); absent: the default look
 */
export type PayPageView = {
  lang: Lang
  t: PayFormMessages
  embedding: Embedding | null
  leaveTo?: string
  theme?: PageTheme
} & (
  | { view: 'not-found' }
  | { view: 'expired' }
  | { view: 'paid'; successUrl: string | null }
  /** a bill whose list of methods leaves the page none it has (QIWI_WALLET only, say) */
  | { view: 'no-method' }
  /** a CHECK_CARD bill whose billId a verification through the API holds: no verification can be made here */
  | { view: 'check-taken' }
  /** a CHECK_CARD bill whose card was verified: its outcome, and the way back to the merchant */
  | { view: 'checked'; valid: boolean; maskedPan: string; returnUrl: string | null }
  | {
      view: 'form'
      siteId: string
      amount: string | null
      comment: string | null
      deadline: string
      form: PaymentFormData
    }
)

export async function payPageView(
  invoiceUid: string,
  declined: string | undefined,
  acceptLanguage: string | null | undefined,
  o: PageOptions = {},
  leave?: string,
): Promise<PayPageView> {
  const lang = o.lang ?? chooseLanguage(acceptLanguage)
  const t = textsOf(lang).payForm
  const page = await pageState(invoiceUid, declined, leave)
  if (!page) return { lang, t, embedding: null, view: 'not-found' }
  const { bill, state } = page
  const [origins, theme] = await Promise.all([
    frameOrigins(bill.siteId).then((o) => o ?? []),
    pageTheme(bill.siteId, bill.customFields),
  ])
  const embedding = origins.length ? { origins, billId: bill.billId, invoiceUid: bill.invoiceUid } : null
  // only when one applies: an unthemed page's data stays as it was
  const themed = theme ? { theme } : {}
  const checkCard = checksCard(bill)
  if (page.check?.status === 'SUCCESS') {
    const valid = page.check.isValidCard === true
    const back = valid ? bill.successUrl : bill.failedUrl
    return {
      lang,
      t,
      embedding,
      ...themed,
      ...(back && page.leaveChecked && { leaveTo: returnUrl(back, bill) }),
      view: 'checked',
      valid,
      maskedPan: page.check.maskedPan,
      returnUrl: back ? returnUrl(back, bill) : null,
    }
  }
  const successUrl = bill.successUrl ?? o.successUrl
  if (state === 'PAID') {
    const back = successUrl ? returnUrl(successUrl, bill) : null
    return {
      lang,
      t,
      embedding,
      ...themed,
      ...(back && page.left === 'PAID' && { leaveTo: back }),
      view: 'paid',
      successUrl: back,
    }
  }
  if (state === 'EXPIRED') return { lang, t, embedding, ...themed, view: 'expired' }
  if (page.checkTaken) return { lang, t, embedding, ...themed, view: 'check-taken' }
  if (!offeredMethods(bill).length) return { lang, t, embedding, ...themed, view: 'no-method' }
  const first = o.paymentMethod && payFormMethods.find((m) => m.type === o.paymentMethod && offeredOn(bill, m))
  const query = pageQuery(o)
  const shown = orderFields(bill, lang)
  const amount = bill.amountMinor === null ? null : payPageAmount(bill.amountMinor, bill.currency, lang)
  return {
    lang,
    t,
    embedding,
    ...themed,
    ...(bill.failedUrl && page.left === 'FAILED' && { leaveTo: returnUrl(bill.failedUrl, bill) }),
    view: 'form',
    siteId: bill.siteId,
    // a CHECK_CARD bill's 0.00 is no amount to pay: none is shown
    amount: checkCard ? null : amount,
    comment: bill.comment,
    deadline: payPageDeadline(bill.expiresAt, lang),
    form: {
      t,
      invoiceUid: bill.invoiceUid,
      currency: bill.currency,
      amountLabel: amount,
      ...offeredFlags((m) => offeredOn(bill, m)),
      declinedReason: page.declinedReason ?? null,
      clockOffsetMs: page.clock.offsetMs,
      checkCard,
      embedding,
      // only when asked for: the page of a payUrl without options stays as it was
      ...(first ? { firstMethod: first.method } : {}),
      ...(query ? { query } : {}),
      ...(shown ? { orderFields: shown } : {}),
    },
  }
}
