// When postponed refunds are processed (the contract's "Postponed refunds"): at 21:00 Moscow time (UTC+3 all
// year), on the site's clock. A refund made at or after that time waits for the next day's.

const MOSCOW_OFFSET_MS = 3 * 3600_000
const PROCESSING_HOUR_MOSCOW = 21

/** the first processing time strictly after `now` */
export function nextRefundProcessing(now: Date): Date {
  const moscow = new Date(now.getTime() + MOSCOW_OFFSET_MS)
  const today = Date.UTC(moscow.getUTCFullYear(), moscow.getUTCMonth(), moscow.getUTCDate(), PROCESSING_HOUR_MOSCOW)
  const at = today > moscow.getTime() ? today : today + 24 * 3600_000
  return new Date(at - MOSCOW_OFFSET_MS)
}
