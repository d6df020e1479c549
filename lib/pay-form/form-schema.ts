// The payment form's input, checked by the same schema in the browser (react-hook-form) and on the
// server. Messages are codes (see messages.ts), put into the payer's language by the page.
// zod/mini (tree-shakable functions, a few KB in the browser) rather than zod's classic API (~47 KB
// gzipped): this module is part of the payment page's script. Keep its imports free of dinero.js,
// Prisma or anything of the server's.
import * as z from 'zod/mini'
import { isExpired, luhnValid, parseExpiry } from '../acquirer/sandbox-acquirer'
import { parseAmountValue } from '../money/amount-value'

export const onlyDigits = (s: string) => s.replace(/[\s()+-]/g, '')

/** an amount typed by the payer: `12`, `12.5`, `12,50`; minor units or null */
export function parsePayerAmount(text: string): number | null {
  const s = text.trim().replace(',', '.')
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(s)) return null
  const r = parseAmountValue(s)
  return r.ok ? r.minor : null
}

const field = z._default(z.optional(z.string().check(z.maxLength(64))), '')

/** `clockOffsetMs`: the bill's site's sandbox clock (lib/sandbox/site-clock.ts), which judges a card's expiry month */
function buildPayFormSchema(opts: { openAmount: boolean; clockOffsetMs: number }) {
  const fields = z
    .object({ method: z.enum(['card', 'mobile']), pan: field, expiry: field, cvv: field, phone: field, amount: field })
    .check(
      z.superRefine((v, ctx) => {
        const problem = (path: string, code: string) =>
          ctx.addIssue({ code: 'custom', path: [path], message: code, input: v })
        if (opts.openAmount && parsePayerAmount(v.amount) === null)
          problem('amount', v.amount.trim() ? 'amount.invalid' : 'required')
        if (v.method === 'mobile') {
          if (!/^\d{10,15}$/.test(onlyDigits(v.phone))) problem('phone', v.phone.trim() ? 'phone.invalid' : 'required')
          return
        }
        const pan = onlyDigits(v.pan)
        if (!pan) problem('pan', 'required')
        else if (!luhnValid(pan)) problem('pan', 'pan.invalid')
        const expiry = parseExpiry(v.expiry.trim())
        if (!v.expiry.trim()) problem('expiry', 'required')
        else if (!expiry) problem('expiry', 'expiry.invalid')
        else if (isExpired(expiry, new Date(Date.now() + opts.clockOffsetMs))) problem('expiry', 'expiry.past')
        if (!v.cvv) problem('cvv', 'required')
        else if (!/^\d{3,4}$/.test(v.cvv)) problem('cvv', 'cvv.invalid')
      }),
    )
  return z.pipe(
    fields,
    z.transform((v): PayFormValues => {
      const amountMinor = opts.openAmount ? parsePayerAmount(v.amount)! : undefined
      return v.method === 'card'
        ? { method: 'card', amountMinor, pan: onlyDigits(v.pan), expiry: v.expiry.trim(), cvv: v.cvv }
        : { method: 'mobile', amountMinor, phone: onlyDigits(v.phone) }
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

export type PayFormInput = z.input<ReturnType<typeof payFormSchema>>
export type PayFormValues =
  | { method: 'card'; amountMinor?: number; pan: string; expiry: string; cvv: string }
  | { method: 'mobile'; amountMinor?: number; phone: string }

export const codeFormSchema = z.object({ code: z.string().check(z.trim(), z.regex(/^\d{4,8}$/, 'code.invalid')) })

/** `4111 1111 1111 1111` as typed */
export function groupCardNumber(text: string): string {
  return onlyDigits(text)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ')
}

/** `12/30` as typed */
export function formatExpiry(text: string): string {
  const d = text.replace(/\D/g, '').slice(0, 4)
  return d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d
}

export function cardBrand(pan: string): 'Visa' | 'Mastercard' | 'Mir' | null {
  const d = onlyDigits(pan)
  if (/^4/.test(d)) return 'Visa'
  if (/^220[0-4]/.test(d)) return 'Mir'
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(d)) return 'Mastercard'
  return null
}
