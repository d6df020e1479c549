// The site's sandbox clock in the dashboard (lib/sandbox/site-clock.ts): what the settings page and the
// New bill form read, and "Advance", which runs the API's own advance (lib/sandbox/clock-advance.ts: the
// same forward-only rule, the same limit and refusals, the changes that fell due applied before it
// answers) for the session's site and records it in the settings' audit log. A refusal is the service's
// 400, answered as is; it writes nothing. No framework imports.
import { settings } from '../config'
import { advanceSiteClock, type ClockMove } from '../sandbox/clock-advance'
import type { SiteClock } from '../sandbox/site-clock'
import { siteClock } from '../sites/site-store'
import { paymentTime } from '../time/wire-time'
import { recordAudit } from './dashboard-audit'
import type { DashboardSession } from './dashboard-session'

/** the settings' audit action of an advance, and its subject */
export const CLOCK_ACTION = 'clock'
export const SANDBOX_CLOCK = 'sandbox clock'

export interface ClockOverview {
  now: Date
  offsetMs: number
}

/** the site's clock as the page shows it; null with SANDBOX_CLOCK=off (no clock to show: every site on real time) */
export async function clockOverview(siteId: string): Promise<ClockOverview | null> {
  if (!settings().sandboxClock) return null
  const clock = await siteClock(siteId)
  return { now: clock.now(), offsetMs: clock.offsetMs }
}

/** how far the site's clock runs ahead of real time (0 with SANDBOX_CLOCK=off) */
export const clockOffsetMs = async (siteId: string): Promise<number> => (await siteClock(siteId)).offsetMs

/** the answer: the API's SandboxClock (GET …/sandbox/clock) */
const answerOf = (clock: SiteClock) => ({ now: paymentTime(clock.now()), offsetSeconds: clock.offsetMs / 1000 })

/**
 * "Advance": the site's clock moved forward by the API's service, then an audit entry (who; by how many
 * seconds or to which time; how far ahead the clock is now).
 */
export async function advanceClockFromDashboard(session: DashboardSession, move: ClockMove) {
  const clock = await advanceSiteClock(session.siteId, move)
  const now = clock.now()
  await recordAudit(session, {
    action: CLOCK_ACTION,
    subject: SANDBOX_CLOCK,
    outcome: 'advanced',
    detail: {
      ...('seconds' in move ? { seconds: String(move.seconds) } : { to: move.to.toISOString() }),
      offsetSeconds: String(clock.offsetMs / 1000),
      now: now.toISOString(),
    },
  })
  return answerOf(clock)
}
