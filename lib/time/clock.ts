// A clock as the service's resources see time: real time plus an offset (a site's sandbox clock, see
// lib/sandbox/site-clock.ts, which reads and writes the offsets). Plain values, below every layer: the
// API's wrapper (lib/http/api-route.ts) hands a request's clock to its endpoint.

/** a site's clock: its offset from real time, and the time it shows */
export interface SiteClock {
  readonly offsetMs: number
  now(): Date
}

/** the clock `offsetMs` ahead of real time */
export function clockAt(offsetMs: number): SiteClock {
  return { offsetMs, now: () => new Date(Date.now() + offsetMs) }
}

/** real time: a site whose clock was never advanced, or every site with SANDBOX_CLOCK=off */
export const REAL_TIME: SiteClock = clockAt(0)
