// The rules of a 54-FZ cheque (pure): each position's sum is price × quantity rounded to the kopeck (half up, as a
// cash register rounds), computed exactly in integers; the sums add up to the operation's amount, in its currency. And
// the chequeData a successful operation with a cheque tells: the sandbox registers no receipt anywhere, so its id is
// the sandbox's own and it has no url.
import { z } from 'zod'
import { formatMinor } from '../money/money'
import { sign } from '../security/keyed-hash'
import { chequeOf, type Cheque, type ChequePosition } from './cheque-schema'

/** an issue of a request's schema, as its superRefine adds it */
export interface ChequeIssue {
  path: (string | number)[]
  message: string
}

/** a position's sum in minor units: price × quantity, rounded half up to the minor unit, exactly */
export function positionSumMinor(p: Pick<ChequePosition, 'priceMinor' | 'quantity'>): number {
  const [whole, fraction = ''] = p.quantity.split('.')
  const scale = 10n ** BigInt(fraction.length)
  const product = BigInt(p.priceMinor) * BigInt(whole + fraction)
  return Number((product * 2n + scale) / (scale * 2n))
}

/**
 * What is wrong of `cheque` against the operation's `amount`: every price in its currency, and the positions' sums
 * adding up to its value. Without a value (a bill whose payer enters the amount), the value is missing.
 */
export function chequeIssues(cheque: Cheque | undefined, amount: { value?: number; currency: string }): ChequeIssue[] {
  // a request's refinements run after its fields' own problems too (zod): the sums only of well-formed positions
  if (!cheque || !cheque.positions?.every((p) => typeof p.quantity === 'string' && Number.isInteger(p.priceMinor)))
    return []
  if (amount.value === undefined) return [{ path: ['amount', 'value'], message: 'is required with a cheque' }]
  const issues: ChequeIssue[] = []
  cheque.positions.forEach((p, i) => {
    if (p.currency !== undefined && p.currency !== amount.currency)
      issues.push({
        path: ['cheque', 'positions', i, 'price', 'currency'],
        message: `must be the amount's currency ${amount.currency}`,
      })
  })
  if (issues.length) return issues
  const total = cheque.positions.reduce((sum, p) => sum + positionSumMinor(p), 0)
  if (total !== amount.value)
    issues.push({
      path: ['cheque', 'positions'],
      message: `the positions' sums (price × quantity, rounded to the kopeck) must add up to amount.value ${formatMinor(amount.value)}; they add up to ${formatMinor(total)}`,
    })
  return issues
}

/** adds `issues` to a schema's refinement */
export function addChequeIssues(ctx: z.RefinementCtx, issues: ChequeIssue[]): void {
  for (const issue of issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message })
}

/** chequeData as answers and notifications write it */
export const chequeDataSchema = z
  .strictObject({
    id: z.string().meta({ description: "the receipt's id: the sandbox's own, stable for the operation" }),
    url: z.null().meta({
      description:
        "production's: where the receipt is shown; null: the sandbox sends no receipt to any cash register or tax service",
    }),
  })
  .meta({
    id: 'ChequeData',
    description:
      'the receipt of a successful operation that carried a cheque and charged a card (production issues receipts ' +
      "for card payments only): a payment's once money was taken (one-step, or its hold captured), a refund's once " +
      'COMPLETED. The sandbox registers none: its id is its own, and it has no url',
  })
export type ChequeData = z.input<typeof chequeDataSchema>

/**
 * The chequeData of a payment that carried a cheque, once money was taken: a one-step payment's once COMPLETED, a
 * hold's once captured; never a hold's that captured nothing (released or not), as no sale happened.
 */
export function paymentChequeDataOf(
  p: { id: string; cheque: unknown; status: string; capturedMinor: bigint },
  chargedCard: boolean,
): ChequeData | undefined {
  return p.capturedMinor > 0n ? chequeDataOf(p.id, p.cheque, p.status, chargedCard) : undefined
}

/**
 * The chequeData of an operation (`ref`: its internal id) that carried `cheque`, once it is COMPLETED, when its payment
 * charged a card; undefined otherwise.
 */
export function chequeDataOf(
  ref: string,
  cheque: unknown,
  status: string,
  chargedCard: boolean,
): ChequeData | undefined {
  if (!chequeOf(cheque) || status !== 'COMPLETED' || !chargedCard) return undefined
  return { id: `sandbox-${sign('cheque', ref).slice(0, 22)}`, url: null }
}
