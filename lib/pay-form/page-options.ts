// What a payUrl's query may ask of the page, as production's form reads it: `lang` (a language the service speaks; it
// wins over Accept-Language), `successUrl` (where a payer goes after paying, when the bill names none; http(s) only)
// and `paymentMethod` (CARD or SBP: the tab chosen first, when the bill offers it). An unknown value is ignored, as if
// absent. The options ride along the page's own addresses (its endpoints, the 3-D Secure return, the bank app's
// return), so the payer keeps them from the first view to the result.
import { isLang, type Lang } from '../i18n/languages'
import { httpUrlSchema } from '../wire/common-schemas'

/** the methods a payUrl may name first (production's list) */
export const FIRST_METHODS = ['CARD', 'SBP'] as const

export interface PageOptions {
  lang?: Lang
  successUrl?: string
  paymentMethod?: (typeof FIRST_METHODS)[number]
}

type Query = URLSearchParams | Record<string, string | string[] | undefined>

const one = (query: Query, name: string): string | undefined => {
  const v = query instanceof URLSearchParams ? query.get(name) : query[name]
  return typeof v === 'string' ? v : undefined
}

/** the options a query names, the unknown values left out */
export function pageOptions(query: Query): PageOptions {
  const o: PageOptions = {}
  const lang = one(query, 'lang')?.toLowerCase()
  if (lang && isLang(lang)) o.lang = lang
  const successUrl = one(query, 'successUrl')
  if (successUrl !== undefined && httpUrlSchema.safeParse(successUrl).success) o.successUrl = successUrl
  const method = one(query, 'paymentMethod')?.toUpperCase()
  const first = FIRST_METHODS.find((m) => m === method)
  if (first) o.paymentMethod = first
  return o
}

/** the options as a query to append to one of the page's addresses: `?lang=en&…`, or '' when there are none */
export function pageQuery(o: PageOptions, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams(extra)
  if (o.lang) q.set('lang', o.lang)
  if (o.successUrl) q.set('successUrl', o.successUrl)
  if (o.paymentMethod) q.set('paymentMethod', o.paymentMethod)
  const s = q.toString()
  return s ? `?${s}` : ''
}
