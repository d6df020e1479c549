// Rules that decide whether a capture or a refund may happen: pure functions over a payment's
// totals, unit-tested without a database. Services lock the payment row and then ask these.
import { money, notAbove, sum } from '../money/money'
import type { DeclineReason } from '../acquirer/sandbox-acquirer'
import { storedMethodOf } from './methods'

export interface PaymentTotals {
  status: string
  flags: string[]
  currency: string
  amountMinor: number
  capturedMinor: number
  refundedMinor: number
  reversed: boolean
  /** what reversals released of the authorisation (part of refundedMinor) */
  reversedMinor?: number
}

export function totalsOf(p: {
  status: string
  flags: string[]
  currency: string
  amountMinor: bigint
  capturedMinor: bigint
  refundedMinor: bigint
  reversed: boolean
  reversedMinor?: bigint
  /** postponed refunds still WAITING: decided as refunded already */
  pendingRefundMinor?: bigint
}): PaymentTotals {
  return {
    ...p,
    amountMinor: Number(p.amountMinor),
    capturedMinor: Number(p.capturedMinor),
    refundedMinor: Number(p.refundedMinor + (p.pendingRefundMinor ?? 0n)),
    reversedMinor: Number(p.reversedMinor ?? 0n),
  }
}

/** what an authorised payment still holds: its amount less what reversals released */
export const heldMinor = (p: PaymentTotals) => p.amountMinor - (p.reversedMinor ?? 0)

/** captures and refunds use the payment's currency */
export function currencyMismatch(amount: { currency: string } | undefined, p: { currency: string }): string | null {
  return amount && amount.currency !== p.currency ? `must be the payment's currency ${p.currency}` : null
}

/**
 * One-step payments (flag SALE), and those of a method that is always one-step (a mobile balance), are captured when
 * approved.
 */
export const isOneStep = (p: { flags: string[]; methodType: string }) =>
  p.flags.includes('SALE') || storedMethodOf(p.methodType)?.capturesOnApproval === true

export type Decision<T = object> = ({ ok: true } & T) | { ok: false; reason: DeclineReason }

/**
 * One successful capture of an authorised (two-step, COMPLETED, not reversed) payment, up to what it still holds (its
 * amount, less what partial reversals released): by default all of that. `wholeOnly`: all of it or nothing (a payment
 * with splits or a cheque, whose shares and receipt describe all it holds).
 */
export function decideCapture(
  p: PaymentTotals,
  requestedMinor: number | null,
  wholeOnly = false,
): Decision<{ amountMinor: number }> {
  if (p.status !== 'COMPLETED' || p.flags.includes('SALE') || p.reversed || p.capturedMinor > 0)
    return { ok: false, reason: 'INVALID_STATE' }
  const held = heldMinor(p)
  const amountMinor = requestedMinor ?? held
  if (!notAbove(money(amountMinor, p.currency), money(held, p.currency))) return { ok: false, reason: 'INVALID_AMOUNT' }
  if (wholeOnly && amountMinor !== held) return { ok: false, reason: 'INVALID_AMOUNT' }
  return { ok: true, amountMinor }
}

/**
 * What a refund may still take (decideRefund allows any amount from 0.01 up to this): an authorised, uncaptured
 * payment's hold, or what was captured less what its refunds took (those still postponed included); 0 when nothing.
 */
export function refundableMinor(p: PaymentTotals): number {
  if (p.status !== 'COMPLETED' || p.reversed) return 0
  if (!p.flags.includes('SALE') && p.capturedMinor === 0) return heldMinor(p)
  return Math.max(0, p.capturedMinor - (p.refundedMinor - (p.reversedMinor ?? 0)))
}

/**
 * A refund of a COMPLETED payment: COMPLETED refunds never exceed the captured amount. A refund of an authorised,
 * uncaptured payment is a reversal instead: up to what it still holds, which it reduces (a partial reversal); all of
 * that releases the hold (`releases`).
 */
export function decideRefund(
  p: PaymentTotals,
  amountMinor: number,
): Decision<{ reversal: boolean; releases: boolean }> {
  if (p.status !== 'COMPLETED' || p.reversed) return { ok: false, reason: 'INVALID_STATE' }
  const uncapturedHold = !p.flags.includes('SALE') && p.capturedMinor === 0
  if (uncapturedHold) {
    const held = heldMinor(p)
    if (!notAbove(money(amountMinor, p.currency), money(held, p.currency)))
      return { ok: false, reason: 'INVALID_AMOUNT' }
    return { ok: true, reversal: true, releases: amountMinor === held }
  }
  // what reversals released before the capture is no part of what was captured
  const refunded = p.refundedMinor - (p.reversedMinor ?? 0)
  const after = sum(money(refunded, p.currency), money(amountMinor, p.currency))
  if (!notAbove(after, money(p.capturedMinor, p.currency))) return { ok: false, reason: 'INVALID_AMOUNT' }
  return { ok: true, reversal: false, releases: false }
}
