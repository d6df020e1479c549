// Where a merchant may ask for notifications to go: an absolute http(s) URL whose host is not a
// literal address the service refuses to call (loopback, private, link-local, … — see
// outgoing-policy.ts; NOTIFY_ALLOW_NETWORKS opens named networks). A host name is checked again on
// the address it resolves to, at every delivery.
import { z } from 'zod'
import { httpUrlSchema } from '../wire/common-schemas'
import { LOOPBACK_NETWORKS, literalHostRefusal, outgoingPolicy, type OutgoingPolicy } from './outgoing-policy'

let policy: OutgoingPolicy | undefined
/** this process's policy, read from the environment once */
export const processPolicy = (): OutgoingPolicy => (policy ??= outgoingPolicy())

/**
 * The field message of a refused notification URL: the contract's words, then the setting that allows such receivers
 * (one fixed text, so that the dashboard's languages can put it into their words).
 */
export const PRIVATE_ADDRESS_REFUSAL =
  'must not point to a private address (the service calls one only in the networks its NOTIFY_ALLOW_NETWORKS ' +
  `names, set before it starts: e.g. NOTIFY_ALLOW_NETWORKS=${LOOPBACK_NETWORKS} for a receiver on its own machine)`

/** the refusal of a notification URL at request time, or null */
export function callbackUrlRefusal(url: string): string | null {
  return literalHostRefusal(url, processPolicy()) ? PRIVATE_ADDRESS_REFUSAL : null
}

export const callbackUrlSchema = httpUrlSchema.superRefine((url, ctx) => {
  const refusal = callbackUrlRefusal(url)
  if (refusal) ctx.addIssue({ code: 'custom', message: refusal })
})

/** the key of a bill's customFields that names where its payments' notifications go */
export const INVOICE_CALLBACK_URL = 'invoice_callback_url'

/** A bill's customFields: up to 32 string values; `invoice_callback_url` must be a callback URL. */
export const customFieldsSchema = z
  .record(
    z.string().min(1, 'keys must not be empty').max(64, 'keys must be at most 64 characters'),
    z.string({ error: 'values must be strings' }).max(2048, 'values must be at most 2048 characters'),
    { error: 'must be an object of string values' },
  )
  .refine((fields) => Object.keys(fields).length <= 32, 'must hold at most 32 fields')
  .meta({ maxProperties: 32 })
  .superRefine((fields, ctx) => {
    const url = fields[INVOICE_CALLBACK_URL]
    if (url === undefined) return
    const parsed = callbackUrlSchema.safeParse(url)
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: 'custom', path: [INVOICE_CALLBACK_URL], message: issue.message })
  })

/** the invoice_callback_url of a bill's (or a payment's copied) customFields, if any */
export function invoiceCallbackUrl(customFields: unknown): string | null {
  const url = (customFields as Record<string, unknown> | null)?.[INVOICE_CALLBACK_URL]
  return typeof url === 'string' ? url : null
}
