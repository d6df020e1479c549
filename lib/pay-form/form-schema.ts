// The payment form's input, checked by the same schema in the browser (react-hook-form) and on the
// server. Messages are codes (see messages.ts), put into the payer's language by the page. Its fields and
// their checks are the page's methods' (lib/pay-form/methods), with the amount of an open bill.
// zod/mini (tree-shakable functions, a few KB in the browser) rather than zod's classic API (~47 KB
// gzipped): this module is part of the payment page's script. Keep its imports free of dinero.js,
// Prisma or anything of the server's.
import * as z from 'zod/mini'
import { parseAmountValue } from '../money/amount-value'
import { payFormMethodOf, payFormMethods, type PayFormMethodName } from './methods'

/** an amount typed by the payer: `12`, `12.5`, `12,50`; minor units or null */
export function parsePayerAmount(text: string): number | null {
  const s = text.trim().replace(',', '.')
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(s)) return null
  const r = parseAmountValue(s)
  return r.ok ? r.minor : null
}

const field = z._default(z.optional(z.string().check(z.maxLength(64))), '')

const METHOD_NAMES = payFormMethods.map((m) => m.method) as [PayFormMethodName, ...PayFormMethodName[]]

/** `clockOffsetMs`: the bill's site's sandbox clock (lib/sandbox/site-clock.ts), which judges a card's expiry month */
function buildPayFormSchema(opts: { openAmount: boolean; clockOffsetMs: number }) {
  // the method chosen, every method's fields (in the registry's order), the amount
  const shape = {
    method: z.enum(METHOD_NAMES),
    ...Object.fromEntries(payFormMethods.flatMap((m) => m.fields).map((f) => [f, field])),
    amount: field,
  }
  const fields = z.object(shape).check(
    z.superRefine((v, ctx) => {
      const typed = v as Record<string, string>
      const problem = (path: string, code: string) =>
        ctx.addIssue({ code: 'custom', path: [path], message: code, input: v })
      if (opts.openAmount && parsePayerAmount(typed.amount) === null)
        problem('amount', typed.amount.trim() ? 'amount.invalid' : 'required')
      payFormMethodOf(v.method)?.check(typed, problem, () => new Date(Date.now() + opts.clockOffsetMs))
    }),
  )
  return z.pipe(
    fields,
    z.transform((v): PayFormValues => {
      const typed = v as Record<string, string>
      const amountMinor = opts.openAmount ? parsePayerAmount(typed.amount)! : undefined
      return { method: v.method, amountMinor, ...payFormMethodOf(v.method)!.values(typed) }
    }),
  )
}

// on real time, built once per process (and page load), not per render or request
const payFormSchemas = {
  open: buildPayFormSchema({ openAmount: true, clockOffsetMs: 0 }),
  fixed: buildPayFormSchema({ openAmount: false, clockOffsetMs: 0 }),
}

/**
 * the form's schema, for a bill whose amount the payer enters (open) or a bill with its amount, on its
 * site's sandbox clock (`clockOffsetMs` ahead of real time; 0 for nearly every site)
 */
export function payFormSchema(opts: { openAmount: boolean; clockOffsetMs?: number }) {
  if (opts.clockOffsetMs) return buildPayFormSchema({ openAmount: opts.openAmount, clockOffsetMs: opts.clockOffsetMs })
  return opts.openAmount ? payFormSchemas.open : payFormSchemas.fixed
}

/** the checked form: the method chosen, an open bill's amount, and that method's values (its `values`) */
export type PayFormValues = { method: PayFormMethodName; amountMinor?: number } & Record<string, unknown>

export const codeFormSchema = z.object({ code: z.string().check(z.trim(), z.regex(/^\d{4,8}$/, 'code.invalid')) })
