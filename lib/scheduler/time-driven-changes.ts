// The scheduler of time-driven changes: a WAITING payment's flow's due change at its `dueAt` (the flow decides it:
// lib/payments/flows, e.g. the emulated mobile operator's answer, the 3-D Secure expiry; settle applies it), and
// bill expiry (a CREATED bill's `expiresAt`), SBP QR code expiry (lib/sbp), payments waiting on a bill that
// closed, postponed refunds' processing, and holds that confirm themselves (lib/payments/hold-expiry.ts). Every
// instance runs it; each change is taken with FOR UPDATE SKIP LOCKED, so it is applied once, by whichever instance
// gets it, in a short transaction of its own that also writes its notification. Nothing lives in memory: a
// change whose instance dies before commit is still due and is taken by the next pass anywhere.
// Changes are dated when they fell due, as a read at or after that time (which applies them too) sees them.
// Due times are on the site's sandbox clock (lib/sandbox/site-clock.ts): a change is due once the site's
// time has reached it, so an advance of the clock makes changes due at once (the advance runs a pass for
// its site before it answers; every instance's pass would find them anyway).
import { settings } from '../config'
import { AUTH_FLOWS_ENDING_WITH_BILL } from '../payments/flows'
import { decline, settle } from '../payments/payment-lifecycle'
import { confirmHold } from '../payments/hold-expiry'
import { lockFirstDueHold, lockFirstDuePayment, lockFirstWaitOnClosedBill } from '../payments/payment-store'
import { processDueRefund } from '../payments/refund-service'
import { lockFirstDueRefund } from '../payments/refund-store'
import { expireBillBatch } from '../settlement/bill-store'
import { expireQrCodeBatch } from '../sbp/qr-code-store'
import { sweepDueRetention } from '../sandbox/retention-sweep'
import { foldPaymentStats } from '../payments/payment-stats-store'
import { foldNotificationStats } from '../notifications/notification-stats-store'
import { clockOf } from '../sandbox/site-clock'
import { pickedSiteWrite, type Tx } from '../sandbox/site-write'

/** how many bills (or QR codes) one statement expires */
const BILL_BATCH = 100

/** a due change the scheduler took: its row's id, and what applies it */
interface TakenChange {
  id: string
  apply(): Promise<unknown>
}

/**
 * Applies due changes one at a time, each in a short transaction of its own behind its site's gate (`take` locks the
 * first row due that is not in `skip`, with lib/sandbox/site-write.ts lockFirstDue or the like); how many. One that
 * cannot be applied, even after retries, is logged as `<what> <id>` and passed over for the rest of the pass, so it
 * does not hold up the ones behind it; the next pass tries it again.
 */
async function applyOneAtATime(
  what: string,
  take: (tx: Tx, skip: string[]) => Promise<TakenChange | undefined>,
): Promise<number> {
  const failed: string[] = []
  let applied = 0
  for (;;) {
    let taken: string | null = null
    try {
      const done = await pickedSiteWrite(async (tx) => {
        taken = null
        const change = await take(tx, failed)
        if (!change) return false
        taken = change.id
        await change.apply()
        return true
      })
      if (!done) return applied
      applied++
    } catch (e) {
      if (!taken) throw e
      process.stderr.write(`scheduler: ${what} ${taken}: ${(e as Error)?.message ?? e}\n`)
      failed.push(taken)
    }
  }
}

/** Writes EXPIRED in batches (`expire`), on real time, then on the clocks of the sites ahead; how many. */
async function expireInBatches(expire: (onSiteClock: boolean) => Promise<number>): Promise<number> {
  let expired = 0
  for (const onSiteClock of settings().sandboxClock ? [false, true] : [false]) {
    for (;;) {
      const n = await expire(onSiteClock)
      expired += n
      if (n < BILL_BATCH) break
    }
  }
  return expired
}

/**
 * Every payment change due now (at `now`, real time, each on its site's clock; of one site, or all): its flow's due
 * change applied; how many.
 */
export const settleDuePayments = (now = new Date(), siteId?: string): Promise<number> =>
  applyOneAtATime('payment', async (tx, skip) => {
    const row = await lockFirstDuePayment(tx, now, skip, siteId)
    if (!row) return undefined
    const { siteOffsetMs, ...p } = row
    return { id: p.id, apply: () => settle(tx, p, new Date(now.getTime() + clockOf(siteOffsetMs).offsetMs)) }
  })

/**
 * Writes EXPIRED on the unpaid bills past their deadline, dated at the deadline; how many. A bill with a
 * payment whose change fell due before the deadline waits for that payment to be settled first (it may
 * pay the bill). As for payments, batches of the bills due on real time come first, each an ordered
 * range of an index, then those of each site whose clock is ahead, due by its own time.
 */
export const expireDueBills = (now = new Date(), siteId?: string): Promise<number> =>
  expireInBatches((onSiteClock) => expireBillBatch(now, BILL_BATCH, onSiteClock, siteId))

/**
 * Declines the payments waiting on a bill that closed (paid by another payment, or expired) whose flow ends with its
 * bill (an SBP payment's QR code: lib/payments/flows endsWithBill), dated when the bill closed; how many.
 */
export const declineWaitsOnClosedBills = (siteId?: string): Promise<number> =>
  applyOneAtATime('payment', async (tx, skip) => {
    const row = await lockFirstWaitOnClosedBill(tx, AUTH_FLOWS_ENDING_WITH_BILL, skip, siteId)
    if (!row) return undefined
    const { billStatus, billClosedAt, siteOffsetMs: _offset, ...p } = row
    const at = new Date(Math.max(billClosedAt.getTime(), p.createdAt.getTime()))
    return { id: p.id, apply: () => decline(tx, p, billStatus === 'PAID' ? 'BILL_ALREADY_PAID' : 'BILL_EXPIRED', at) }
  })

/**
 * Processes the postponed refunds whose time has come (of one site, or all), each dated at its time, with its
 * notification; how many.
 */
export const processDueRefunds = (now = new Date(), siteId?: string): Promise<number> =>
  applyOneAtATime('refund', async (tx, skip) => {
    const row = await lockFirstDueRefund(tx, now, skip, siteId)
    if (!row) return undefined
    const { siteOffsetMs: _offset, ...r } = row
    return { id: r.id, apply: () => processDueRefund(tx, r, r.dueAt!) }
  })

/**
 * Confirms the open holds whose period is over (of one site, or all): each captured in full or reversed, as its site
 * says, dated at its time, with its notification; how many.
 */
export const confirmDueHolds = (now = new Date(), siteId?: string): Promise<number> =>
  applyOneAtATime('hold of payment', async (tx, skip) => {
    const row = await lockFirstDueHold(tx, now, skip, siteId)
    if (!row) return undefined
    const { siteOffsetMs: _offset, ...p } = row
    return { id: p.id, apply: () => confirmHold(tx, p) }
  })

/** Writes EXPIRED on the unpaid SBP QR codes past their time (no payment, no notification); how many. */
export const expireDueQrCodes = (now = new Date(), siteId?: string): Promise<number> =>
  expireInBatches((onSiteClock) => expireQrCodeBatch(now, BILL_BATCH, onSiteClock, siteId))

const logError = (what: string) => (e: unknown) => {
  process.stderr.write(`scheduler: ${what}: ${(e as Error)?.message ?? e}\n`)
  return 0
}

/**
 * One pass: every change due now, of one site or all (payments first: they may pay a bill before it expires); the
 * number applied.
 */
export async function applyDueChanges(siteId?: string): Promise<number> {
  const payments = await settleDuePayments(new Date(), siteId).catch(logError('payments'))
  const bills = await expireDueBills(new Date(), siteId).catch(logError('bills'))
  const qrCodes = await expireDueQrCodes(new Date(), siteId).catch(logError('SBP QR codes'))
  const waits = await declineWaitsOnClosedBills(siteId).catch(logError('payments on closed bills'))
  const refunds = await processDueRefunds(new Date(), siteId).catch(logError('postponed refunds'))
  const holds = await confirmDueHolds(new Date(), siteId).catch(logError('holds'))
  return payments + bills + qrCodes + waits + refunds + holds
}

/** how many counted changes one statement folds into the overview's figures, and at most how many such per pass */
const FOLD_BATCH = 10_000
const FOLDS_PER_PASS = 10

/**
 * Folds the changes to the overview's figures written since the last pass (lib/payments/payment-stats-store.ts
 * foldPaymentStats, and the notifications'), up to FOLDS_PER_PASS batches of each, so a flood of changes does not
 * hold up the due changes of the next pass; readers sum what is not folded yet, so this keeps their reads short, it
 * does not make them right. Whether changes were left for the next pass.
 */
export async function foldOverviewFigures(): Promise<boolean> {
  let left = false
  for (const fold of [foldPaymentStats, foldNotificationStats]) {
    let n = 0
    while ((await fold(FOLD_BATCH)) === FOLD_BATCH) if (++n === FOLDS_PER_PASS) break
    left ||= n === FOLDS_PER_PASS
  }
  return left
}

/**
 * this instance's scheduler: a pass every SCHEDULER_POLL_MS, with a part of a due retention sweep; the returned
 * function stops it
 */
export function startScheduler(pollMs = settings().schedulerPollMs): () => void {
  let stopped = false
  ;(async () => {
    while (!stopped) {
      await applyDueChanges()
      // a site's retention sweep, when one is due (lib/sandbox/retention-sweep.ts): a bounded part of it per pass
      await sweepDueRetention().catch(logError('retention'))
      await foldOverviewFigures().catch(logError('overview figures'))
      await new Promise((r) => setTimeout(r, pollMs).unref?.())
    }
  })()
  return () => {
    stopped = true
  }
}
