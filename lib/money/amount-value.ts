// An amount value as text → integer minor units. Shared by the API's schemas and the payment page's
// form (also in the payer's browser: nothing here may pull a library in).

/** 1,000,000,000.00 */
export const MAX_AMOUNT_MINOR = 100_000_000_000

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/

export type ParsedValue = { ok: true; minor: number } | { ok: false; message: string }

/**
 * A wire amount value (the JSON text of a number, or a string) in plain decimal notation, rounded
 * DOWN to two decimals, > 0.00 and ≤ 1,000,000,000.00 after rounding. Nothing is trimmed: `" 10.00"` is
 * not plain decimal notation (the payment page trims what a payer types before it comes here).
 */
export function parseAmountValue(s: string): ParsedValue {
  if (!PLAIN_DECIMAL.test(s)) return { ok: false, message: 'must be a decimal number in plain notation, e.g. "100.00"' }
  if (s.startsWith('-')) return { ok: false, message: 'must be greater than 0' }
  const [whole, fraction = ''] = s.split('.')
  const units = whole.replace(/^0+(?=\d)/, '')
  if (units.length > 10) return { ok: false, message: 'must not exceed 1000000000.00' }
  const minor = Number(units) * 100 + Number((fraction + '00').slice(0, 2))
  if (minor <= 0) return { ok: false, message: 'must be greater than 0' }
  if (minor > MAX_AMOUNT_MINOR) return { ok: false, message: 'must not exceed 1000000000.00' }
  return { ok: true, minor }
}
