// Moving a site's sandbox clock forward (POST …/sandbox/clock/advance). One statement moves it, forward
// only, so that two advances at once add up and none can take it back, behind the site's gate held
// exclusively (lib/sandbox/site-write.ts siteClockMove): the writes of the site under way finish on the
// clock they read, and those that start meanwhile wait and then run on the new one; then the scheduler's own pass
// (lib/scheduler/time-driven-changes.ts) applies, for that site, every change the jump made due, before
// the advance answers: a test reads the outcome right after. Notification retries that fell due are
// taken by the delivery workers at their next poll.
import { fieldError, validationError } from '../http/api-error'
import { applyDueChanges } from '../scheduler/time-driven-changes'
import { paymentTime } from '../time/wire-time'
import { addClockOffset, raiseClockOffset, siteClock } from '../sites/site-store'
import { clockAt, type SiteClock } from './site-clock'
import { siteClockMove, type Tx } from './site-write'

/** how far ahead of real time a site's clock may run: ten years of 365 days */
export const MAX_CLOCK_OFFSET_MS = 3650 * 86_400_000

export type ClockMove = { seconds: number } | { to: Date }

/** the one statement that moves the clock, behind the gate (a 503 with the clock unmoved when it stays shut) */
const moveClock = (siteId: string, update: (tx: Tx) => Promise<{ offset: bigint }[]>) =>
  siteClockMove(siteId, update, "The site's writes kept the clock waiting; it did not move: try again when they pause")

/**
 * Moves the site's clock forward (400 when the move is not forward or goes past the limit) and applies what fell due;
 * the clock after.
 */
export async function advanceSiteClock(siteId: string, move: ClockMove): Promise<SiteClock> {
  const offsetMs = 'seconds' in move ? await advanceBy(siteId, move.seconds * 1000) : await advanceTo(siteId, move.to)
  await applyDueChanges(siteId)
  // a change the scheduler took between the move and this pass is passed over above (its row is locked) and applied
  // by the scheduler's own transaction, which holds the site's gate shared: the gate taken exclusively waits for it
  // to commit, so the advance answers once every change it made due is written (a test reads them right after)
  // (a gate held shut past the wait, by a write stuck open, is no reason to refuse an advance already made)
  await siteClockMove(siteId, async () => undefined, 'busy').catch(() => undefined)
  await applyDueChanges(siteId)
  return clockAt(offsetMs)
}

async function advanceBy(siteId: string, ms: number): Promise<number> {
  const [row] = await moveClock(siteId, (tx) => addClockOffset(tx, siteId, ms, MAX_CLOCK_OFFSET_MS))
  if (!row)
    throw fieldError(
      'seconds',
      `would take the site's clock more than ${MAX_CLOCK_OFFSET_MS / 86_400_000} days ahead of real time`,
    )
  return Number(row.offset)
}

async function advanceTo(siteId: string, to: Date): Promise<number> {
  const target = to.getTime() - Date.now()
  if (target > MAX_CLOCK_OFFSET_MS)
    throw fieldError('to', `is more than ${MAX_CLOCK_OFFSET_MS / 86_400_000} days ahead of real time`)
  const [row] = await moveClock(siteId, (tx) => raiseClockOffset(tx, siteId, target))
  if (!row) {
    const now = (await siteClock(siteId)).now()
    throw validationError({
      to: [`must be later than the site's clock, now ${paymentTime(now)}: the clock only moves forward`],
    })
  }
  return Number(row.offset)
}
