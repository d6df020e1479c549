// A link without the API (production's `GET /create?publicKey=…`): its query becomes a bill request checked by the
// bill API's own schema and made by its own service (lib/billing/bill-service.ts createBill), then the payer is sent to
// the bill's payUrl with the page's options (lang, paymentMethod: lib/pay-form/page-options.ts). Without `billId` each
// opening makes a new bill; with one, the bill of that id is reopened (the same amount) or refused (another amount).
// Such bills carry no SALE flag: their payments are two-step and their holds confirm themselves after the site's hold
// period (lib/payments/hold-expiry.ts). `extras[…]` become the bill's customFields, and the page shows them (all but
// themeCode, a display setting), those named in `readonly` not editable; a link cannot set where notifications go.
// A link reopens only a bill a link made, and each new bill counts against the client's window (attempt-limits.ts).
import { randomUUID } from 'node:crypto'
import { ApiError } from '../http/api-error'
import { parse } from '../http/api-route'
import { createBill, loadBill } from '../billing/bill-service'
import { billRequestSchema, type BillRequest } from '../bills/bill-request'
import { payUrlOf } from '../bills/bill-wire'
import { countLinkBill } from '../pay-form/attempt-limits'
import { pageOptions, pageQuery } from '../pay-form/page-options'
import { siteClock } from '../sites/site-store'
import { idSchema } from '../wire/common-schemas'
import { INVOICE_CALLBACK_URL } from '../notifications/callback-url'
import { siteOfPublicKey } from './public-key'

/** how long a link's bill stays payable when the link names no `lifetime` */
export const LINK_BILL_LIFETIME_MS = 30 * 24 * 3600_000

/** the customFields a link's bill does not show on its page: themeCode chooses how the page looks */
const NOT_SHOWN = new Set(['themeCode'])

/**
 * extras a link may not set: where the payments' notifications go is the merchant's alone (anyone who has the
 * public key can write a link, and production's Signature would not tell a replayed body from a changed one)
 */
const NOT_FROM_A_LINK = new Set([INVOICE_CALLBACK_URL])

export type LinkOutcome =
  | { kind: 'redirect'; location: string }
  /** no site has this public key */
  | { kind: 'not-found' }
  /** the link's values the bill API refuses, by the link's parameter names */
  | { kind: 'invalid'; problems: { parameter: string; message: string }[] }
  /** a bill of that billId exists with another amount */
  | { kind: 'conflict' }
  /** a bill of that billId exists, made through the API: not the link's to open */
  | { kind: 'taken' }
  /** the client made as many bills by links as its window allows */
  | { kind: 'limited'; retryAfterSeconds: number }

/** the request's field paths as the link names them */
function parameterOf(path: string): string {
  if (path === 'amount.value' || path === 'amount') return 'amount'
  if (path === 'amount.currency') return 'currency'
  if (path === 'expirationDateTime') return 'lifetime'
  if (path.startsWith('customer.')) return path.slice('customer.'.length)
  if (path.startsWith('customFields.')) return `extras[${path.slice('customFields.'.length)}]`
  if (path === 'customFields') return 'extras'
  return path
}

/** a refusal's field errors by the link's parameter names */
const problemsOf = (cause: Record<string, string[]>) =>
  Object.entries(cause).flatMap(([path, messages]) =>
    messages.map((message) => ({ parameter: parameterOf(path), message })),
  )

/** production's lifetime, `YYYY-MM-DDThhmm`, read as Moscow time; any other text is left to the schema's check */
function lifetimeOf(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})(\d{2})$/.exec(text)
  return m ? `${m[1]}T${m[2]}:${m[3]}:00+03:00` : text
}

/** the bill create request a link's query stands for (unchecked: the bill API's schema checks it) */
function requestOf(q: URLSearchParams, now: Date): Record<string, unknown> {
  const get = (name: string) => q.get(name) ?? undefined
  // own properties whatever the names (`__proto__`, `constructor`): never assigned onto an object
  const extras: Record<string, string> = Object.fromEntries(
    [...q].flatMap(([name, value]) => {
      const m = /^extras\[([^\]]+)\]$/.exec(name)
      return m && !NOT_FROM_A_LINK.has(m[1]) ? [[m[1], value]] : []
    }),
  )
  const customer = { phone: get('phone'), email: get('email'), account: get('account') }
  const lifetime = get('lifetime')
  return {
    amount: { currency: get('currency') ?? 'RUB', value: get('amount') },
    expirationDateTime: lifetime ? lifetimeOf(lifetime) : new Date(now.getTime() + LINK_BILL_LIFETIME_MS).toISOString(),
    comment: get('comment'),
    successUrl: get('successUrl'),
    customer: Object.values(customer).some((v) => v !== undefined) ? customer : undefined,
    customFields: Object.keys(extras).length ? extras : undefined,
  }
}

/** the fields the bill's page shows, in the link's order, with those `readonly` names */
function formFieldsOf(req: BillRequest, readonly: string | null) {
  const locked = new Set((readonly ?? '').split(',').map((s) => s.trim()))
  return Object.keys(req.customFields ?? {})
    .filter((name) => !NOT_SHOWN.has(name))
    .map((name) => ({ name, readonly: locked.has(name) }))
}

/** what opening the link does (`query`: the link's whole query) */
export async function openLink(query: URLSearchParams, clientAddress: string): Promise<LinkOutcome> {
  const siteId = await siteOfPublicKey(query.get('publicKey') ?? '')
  if (!siteId) return { kind: 'not-found' }
  const given = query.get('billId')
  const billIdCheck = idSchema.safeParse(given ?? randomUUID())
  if (!billIdCheck.success)
    return {
      kind: 'invalid',
      problems: billIdCheck.error.issues.map((i) => ({ parameter: 'billId', message: i.message })),
    }
  const billId = billIdCheck.data
  // the page's options: the payer's language and the method shown first (successUrl goes on the bill itself)
  const { lang, paymentMethod } = pageOptions(query)
  const to = (invoiceUid: string) => ({
    kind: 'redirect' as const,
    location: `${payUrlOf(invoiceUid)}${pageQuery({ lang, paymentMethod })}`,
  })
  let req: BillRequest
  try {
    req = parse(billRequestSchema, requestOf(query, (await siteClock(siteId)).now()))
  } catch (e) {
    if (!(e instanceof ApiError) || !e.cause) throw e
    return { kind: 'invalid', problems: problemsOf(e.cause) }
  }
  /** the bill of that id reopened, when it is for the same amount */
  const reopen = async () => {
    const there = await loadBill({ siteId, billId })
    if (!there) return null
    // a bill the merchant made through the API is not the link's to open (nor to tell apart by its amount)
    if (there.bill.formFields === null) return { kind: 'taken' } as const
    const same =
      there.bill.currency === req.amount?.currency &&
      (there.bill.amountMinor === null ? null : Number(there.bill.amountMinor)) === (req.amount?.value ?? null)
    return same ? to(there.bill.invoiceUid) : ({ kind: 'conflict' } as const)
  }
  if (given) {
    const reopened = await reopen()
    if (reopened) return reopened
  }
  // each new bill counts against the client, as the page's attempts do: links are public
  try {
    await countLinkBill(clientAddress)
  } catch (e) {
    if (e instanceof ApiError && e.status === 429)
      return { kind: 'limited', retryAfterSeconds: Number(e.headers?.['Retry-After'] ?? 60) }
    throw e
  }
  try {
    const bill = await createBill(siteId, billId, req, undefined, {
      formFields: formFieldsOf(req, query.get('readonly')),
    })
    return to(bill.invoiceUid)
  } catch (e) {
    // made meanwhile by another opening of the same link (or through the API): reopened as above
    if (e instanceof ApiError && e.status === 409) return (await reopen()) ?? { kind: 'conflict' }
    if (e instanceof ApiError && e.status === 400 && e.cause) return { kind: 'invalid', problems: problemsOf(e.cause) }
    throw e
  }
}
