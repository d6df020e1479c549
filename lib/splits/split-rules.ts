// The rules of split payments (pure): a list's shares add up to its operation's amount, exactly, in minor units, all in
// roubles (production splits RUB only); a refund's split takes back at most what remains of the payment's split it
// names, after the refunds before it (the refund service reads those with the payment locked, so concurrent refunds
// queue).
import type { z } from 'zod'
import type { FieldErrors } from '../http/api-error'
import { formatMinor } from '../money/money'
import type { Split } from './split-schema'

/** the one currency production splits in */
export const SPLIT_CURRENCY = 'RUB'

/** an issue of a request's schema, as its superRefine adds it */
export interface SplitIssue {
  path: (string | number)[]
  message: string
}

/**
 * What is wrong of `splits` (the request's field `field`) against the operation's `amount`: every share and the amount
 * in roubles, and the shares adding up to its value. Without a value (a bill whose payer enters the amount), the value
 * is missing.
 */
export function splitSumIssues(
  field: string,
  splits: Split[] | undefined,
  amount: { value?: number; currency: string },
): SplitIssue[] {
  // a request's refinements run after its fields' own problems too (zod): the sum only of well-formed shares
  if (!splits || !splits.every((s) => Number.isInteger(s.amountMinor))) return []
  if (amount.value === undefined) return [{ path: ['amount', 'value'], message: `is required with ${field}` }]
  const issues: SplitIssue[] = []
  const onlyRoubles = `must be ${SPLIT_CURRENCY}: split payments are in roubles only`
  splits.forEach((s, i) => {
    if (s.currency !== SPLIT_CURRENCY)
      issues.push({ path: [field, i, 'splitAmount', 'currency'], message: onlyRoubles })
  })
  if (amount.currency !== SPLIT_CURRENCY)
    issues.push({ path: ['amount', 'currency'], message: `${onlyRoubles} (${field})` })
  if (issues.length) return issues
  const total = splits.reduce((sum, s) => sum + s.amountMinor, 0)
  if (total !== amount.value)
    issues.push({
      path: [field],
      message: `the splitAmount values must add up to amount.value ${formatMinor(amount.value)}; they add up to ${formatMinor(total)}`,
    })
  return issues
}

/** adds `issues` to a schema's refinement */
export function addSplitIssues(ctx: z.RefinementCtx, issues: SplitIssue[]): void {
  for (const issue of issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message })
}

/**
 * The payment's split a refund's split names: the one of its siteUid, or, when the payment has several of that
 * siteUid, the one of its orderId too; a request's orderId must be its split's even when the siteUid alone names it
 * (`strict`; the refunds kept before are read as they were accepted). A problem at a field when none is.
 */
function namedSplit(paymentSplits: Split[], s: Split, strict = true): number | { field: string; problem: string } {
  const ofSite = paymentSplits.flatMap((p, i) => (p.siteUid === s.siteUid ? [i] : []))
  if (!ofSite.length) return { field: 'siteUid', problem: 'names no split of the payment' }
  if (ofSite.length === 1 && (!strict || s.orderId === undefined || paymentSplits[ofSite[0]].orderId === s.orderId))
    return ofSite[0]
  if (s.orderId === undefined)
    return { field: 'siteUid', problem: 'names several splits of the payment: give the orderId of one' }
  const ofOrder = ofSite.filter((i) => paymentSplits[i].orderId === s.orderId)
  return ofOrder.length === 1
    ? ofOrder[0]
    : { field: 'orderId', problem: `names no split of ${s.siteUid} in the payment: give its split's orderId` }
}

/**
 * What is wrong of a refund's `refundSplits` against its payment's splits, given the splits of the payment's refunds
 * that count (COMPLETED, and postponed ones still WAITING): a payment with splits needs them (a refund naming none
 * would leave its splits adding up to more than it keeps), and each must name one of the payment's splits and take
 * back at most what remains of it. Null when nothing is.
 */
export function refundSplitProblems(
  refundSplits: Split[] | undefined,
  paymentSplits: Split[] | undefined,
  earlier: Split[][],
): FieldErrors | null {
  if (!refundSplits)
    return paymentSplits
      ? { refundSplits: ["is required on a payment with splits: what the refund takes back of each merchant's share"] }
      : null
  if (!paymentSplits) return { refundSplits: ['the payment has no splits'] }
  const taken = paymentSplits.map(() => 0)
  for (const list of earlier)
    for (const s of list) {
      const i = namedSplit(paymentSplits, s, false)
      if (typeof i === 'number') taken[i] += s.amountMinor
    }
  const problems: FieldErrors = {}
  refundSplits.forEach((s, n) => {
    const i = namedSplit(paymentSplits, s)
    if (typeof i !== 'number') {
      problems[`refundSplits[${n}].${i.field}`] = [i.problem]
      return
    }
    const remains = paymentSplits[i].amountMinor - taken[i]
    if (s.amountMinor > remains)
      problems[`refundSplits[${n}].splitAmount.value`] = [
        `must not exceed what remains of the split of ${s.siteUid}: ${formatMinor(remains)}`,
      ]
    taken[i] += s.amountMinor
  })
  return Object.keys(problems).length ? problems : null
}
