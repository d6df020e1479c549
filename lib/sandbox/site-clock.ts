// The per-site sandbox clock. A site's time is real time plus its offset (Site.clockOffsetMs), which only
// grows: POST …/sandbox/clock/advance moves it forward, a sandbox reset sets it back to 0. Every time rule
// of the site reads it — bill deadlines and the 45-day window, the 3-D Secure timeout, the mobile
// operator's delay, card (and so token) expiry months, recurrent minAuthDay and expiryDate, notification
// retries — and every date-time the site's resources carry is written on it. The offset lives in the
// database only, so every instance sees an advance at once. SANDBOX_CLOCK=off: every site on real time. A write of
// the site's data gets its clock from siteWrite (lib/sandbox/site-write.ts), behind the site's gate; a read, from
// siteClock (lib/sites/site-store.ts).
// Left on real time on purpose (they guard the service, not the merchant's test): rate limits, dashboard
// sessions, the payment page's per-client attempt window, notification leases, the Payin-Signature
// timestamp (a receiver checks it against its own clock), the dateTime of error answers and the dashboard's
// audit entries. A bill's pause after failed attempts in a row counts on the site's clock (its payments'
// times), so an advance ends it too.
// The statement fragments of the clock (siteOffset, offsetInterval, dueOnSiteClock) and clockOf live beside the
// site's gate in lib/sandbox/site-write.ts, the module that may build SQL of the site's row besides its store
// (lib/sites/site-store.ts); they are re-exported here, where the clock's readers look for them.
export { clockAt, REAL_TIME, type SiteClock } from '../time/clock'
export { clockOf, dueOnSiteClock, offsetInterval, siteOffset } from './site-write'
