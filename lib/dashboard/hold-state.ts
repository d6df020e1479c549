// How the dashboard names a successful two-step payment's hold: COMPLETED on the wire means authorised (an open hold,
// capturedAmount 0.00) as much as charged, so a list that called every COMPLETED payment "Paid" showed holds never
// captured, and holds released, as paid money. The word says which; the wire code stays in its title.

/** the hold states with words of their own (lib/i18n/<lang>/codes.ts holdState) */
export const HOLD_STATES = ['AUTHORISED', 'RELEASED'] as const
export type HoldState = (typeof HOLD_STATES)[number]

/** what names a payment's hold: its status, its time to confirm itself (set while the hold is open), its release */
export type HoldFacts = { status: string; holdDueAt: Date | null; reversed: boolean }

/** an open hold (its time to confirm itself still set) or one a reversal released whole; else null */
export function holdStateOf(p: HoldFacts): HoldState | null {
  if (p.status !== 'COMPLETED') return null
  if (p.reversed) return 'RELEASED'
  return p.holdDueAt !== null ? 'AUTHORISED' : null
}

/** the payment statuses' words with COMPLETED named as the payment's hold stands */
export function statusWordsOf(
  p: HoldFacts,
  words: { paymentStatus: Record<string, string>; holdState: Record<string, string> },
): Record<string, string> {
  const hold = holdStateOf(p)
  return hold ? { ...words.paymentStatus, COMPLETED: words.holdState[hold] } : words.paymentStatus
}
