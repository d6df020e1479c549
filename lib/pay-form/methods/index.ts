// The payment page's methods: what the page offers, a module each beside this file (listed in
// registered.generated.ts, which every npm script writes from the folder), in the order of its tabs. A bill offers
// those its list of methods names (all when it has none) and its flags allow; the first it offers is the form's
// default. Client-safe, like its modules: the page's browser script bundles it.
import { inPositionOrder } from '../../registered'
import type { PayFormMethod } from './pay-method'
import { modules } from './registered.generated'

type Registered = (typeof modules)[number]

export const PAY_FORM_METHODS: readonly Registered[] = inPositionOrder("payment page's methods", modules)
/** the form's `method` values */
export type PayFormMethodName = Registered['method']
/** the fields of every method */
export type PayFormMethodField = Registered['fields'][number]

/** the methods as their common interface */
export const payFormMethods = PAY_FORM_METHODS as unknown as readonly PayFormMethod[]

const byName = new Map(payFormMethods.map((m) => [m.method, m]))
if (byName.size !== payFormMethods.length) throw new Error("payment page: a method's name is given twice")
if (new Set(payFormMethods.flatMap((m) => m.fields)).size !== payFormMethods.flatMap((m) => m.fields).length)
  throw new Error("payment page: a method's field is another's too")

/** the page's method of a form `method` value, or undefined */
export const payFormMethodOf = (method: string): PayFormMethod | undefined => byName.get(method)

/**
 * which of the methods a bill offers, as the page's data carries it: a flag per method named `<method>Allowed`
 * (`cardAllowed`, `mobileAllowed`)
 */
export type OfferedFlags = { [K in PayFormMethodName as `${K}Allowed`]: boolean }

const allowedKey = (m: PayFormMethod) => `${m.method}Allowed`

/** the page data's flags of the methods `offered` (each method, in the registry's order) */
export const offeredFlags = (offered: (m: PayFormMethod) => boolean) =>
  Object.fromEntries(payFormMethods.map((m) => [allowedKey(m), offered(m)])) as OfferedFlags

/** the methods the page's data offers, in the order of the tabs (the first is the form's default) */
export const offeredIn = (data: OfferedFlags) =>
  payFormMethods.filter((m) => (data as Record<string, boolean>)[allowedKey(m)])
