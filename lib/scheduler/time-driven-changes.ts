// The scheduler of time-driven changes: a WAITING payment's flow's due change at its `dueAt` (the flow decides it:
// lib/payments/flows, e.g. the emulated mobile operator's answer, the 3-D Secure expiry; settle applies it), and
// bill expiry (a CREATED bill's `expiresAt`), SBP QR code expiry (lib/sbp), payments waiting on a bill that
// closed, postponed refunds' processing, and holds that confirm themselves (lib/payments/hold-expiry.ts). Every
// instance runs it; each change is taken with FOR UPDATE SKIP LOCKED, so it is applied once, by whichever instance
// gets it, in a short transaction (a batch of changes, in order) that also writes its notification. Nothing lives
// in memory: a change whose instance dies before commit is still due and is taken by the next pass anywhere.
// Changes are dated when they fell due, as a read at or after that time (which applies them too) sees them.
// Due times are on the site's sandbox clock (lib/sandbox/site-clock.ts): a change is due once the site's
// time has reached it, so an advance of the clock makes changes due at once (the advance runs a pass for
// its site before it answers; every instance's pass would find them anyway).
import { settings } from '../config'
import { AUTH_FLOWS_ENDING_WITH_BILL, dueChangeOf } from '../payments/flows'
import { decline, declineDue, dueDecline, settle } from '../payments/payment-lifecycle'
import { confirmHold } from '../payments/hold-expiry'
import {
  lockBillMates,
  lockDueHolds,
  lockDuePayments,
  lockPaymentByRef,
  lockPaymentsInOrder,
  lockWaitsOnClosedBills,
} from '../payments/payment-store'
import { processDueRefund } from '../payments/refund-service'
import { lockDueRefunds } from '../payments/refund-store'
import { expireBillBatch } from '../settlement/bill-store'
import { expireQrCodeBatch } from '../sbp/qr-code-store'
import { sweepDueRetention } from '../sandbox/retention-sweep'
import { foldPaymentStats } from '../payments/payment-stats-store'
import { foldNotificationStats } from '../notifications/notification-stats-store'
import { clockOf } from '../sandbox/site-clock'
import { pickedSiteWrite, type DueTake, type Tx } from '../sandbox/site-write'

/** how many bills (or QR codes) one statement expires */
const BILL_BATCH = 100

/** how many due changes one transaction takes and applies */
const CHANGE_BATCH = 50

/** a due change the scheduler took: its row's id, and what applies it */
interface TakenChange {
  id: string
  apply(): Promise<unknown>
  /** taken in a batch, but to be applied in a transaction of its own after it (lockBillMates says why) */
  alone?: boolean
}

/**
 * Applies due changes in batches, each batch in one short transaction (`take` locks the first rows due, `limit` at
 * most, none of `skip`, with lib/sandbox/site-write.ts lockDue or the like, behind their sites' gates), in order; how
 * many. A batch that cannot be committed, even after retries, is applied again one change at a time, each in a
 * transaction of its own, as are the changes a batch leaves `alone`: one that cannot be applied is logged as `<what>
 * <id>` and passed over for the rest of the pass, so it does not hold up the ones behind it; the next pass tries it
 * again.
 */
async function applyInBatches(what: string, take: (tx: Tx, take: DueTake) => Promise<TakenChange[]>): Promise<number> {
  const failed: string[] = []
  let applied = 0
  /** the change `id` alone, if it is still due and no one else has it: whether it was applied */
  const applyAlone = async (id: string): Promise<boolean> => {
    try {
      return await pickedSiteWrite(async (tx) => {
        const [change] = await take(tx, { limit: 1, skip: failed, only: [id] })
        if (!change) return false
        await change.apply()
        return true
      })
    } catch (e) {
      process.stderr.write(`scheduler: ${what} ${id}: ${(e as Error)?.message ?? e}\n`)
      failed.push(id)
      return false
    }
  }
  for (;;) {
    let taken: string[] | null = null
    let alone: string[] = []
    try {
      const done = await pickedSiteWrite(async (tx) => {
        taken = null
        alone = []
        const changes = await take(tx, { limit: CHANGE_BATCH, skip: failed })
        if (!changes.length) return null
        taken = changes.map((c) => c.id)
        let n = 0
        for (const change of changes) {
          if (change.alone) {
            alone.push(change.id)
            continue
          }
          await change.apply()
          n++
        }
        return n
      })
      if (done === null) return applied
      applied += done
    } catch (e) {
      if (!taken) throw e
      // which change it was, if it was one: each alone, the one that fails logged and passed over
      alone = taken
    }
    for (const id of alone) if (await applyAlone(id)) applied++
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
  applyInBatches('payment', async (tx, take) => {
    const rows = await lockDuePayments(tx, now, take, siteId)
    // only an approval settles other payments of its bill (approve: settleDueOnBill)
    const approving = rows.filter((p) => p.status === 'WAITING' && dueChangeOf(p).kind === 'approve')
    const alone = rows.length > 1 && approving.length ? await lockBillMates(tx, approving) : new Set<string>()
    // each as it is on its site's clock, and that time
    const due = rows.map(({ siteOffsetMs, ...p }) => ({
      p,
      at: new Date(now.getTime() + clockOf(siteOffsetMs).offsetMs),
    }))
    const onBill = new Map<string, number>()
    for (const { p } of due) onBill.set(p.billRef, (onBill.get(p.billRef) ?? 0) + 1)
    // the declines (3-D Secure challenges left too long, most of a flood of due changes) of payments that are the
    // batch's only one on their bill: all in one statement, by the first to be applied (declineDue; the order among
    // them and the batch's other changes is no matter: a decline writes its payment only). One statement rather than
    // two per payment: the batch costs a few round trips, not a hundred.
    const declines = due.flatMap(({ p, at }) => {
      const reason = !alone.has(p.id) && onBill.get(p.billRef) === 1 ? dueDecline(p, at) : null
      return reason ? [{ p, reason }] : []
    })
    let declined: Promise<void> | undefined
    const declineAll = () => (declined ??= declineDue(tx, declines))
    const inDeclines = new Set(declines.map((d) => d.p.id))
    const bills = new Set<string>()
    return due.map(({ p, at }) => {
      if (inDeclines.has(p.id)) return { id: p.id, apply: declineAll }
      // an earlier change of the batch on the same bill may have settled this payment: then settled as it is now
      const again = bills.has(p.billRef)
      bills.add(p.billRef)
      const current = async () => (again ? ((await lockPaymentByRef(tx, p.id)) ?? p) : p)
      return { id: p.id, alone: alone.has(p.id), apply: async () => settle(tx, await current(), at) }
    })
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
  applyInBatches('payment', async (tx, take) => {
    const rows = await lockWaitsOnClosedBills(tx, AUTH_FLOWS_ENDING_WITH_BILL, take, siteId)
    return rows.map(({ billStatus, billClosedAt, siteOffsetMs: _offset, ...p }) => {
      const at = new Date(Math.max(billClosedAt.getTime(), p.createdAt.getTime()))
      return { id: p.id, apply: () => decline(tx, p, billStatus === 'PAID' ? 'BILL_ALREADY_PAID' : 'BILL_EXPIRED', at) }
    })
  })

/**
 * Processes the postponed refunds whose time has come (of one site, or all), each dated at its time, with its
 * notification; how many.
 */
export const processDueRefunds = (now = new Date(), siteId?: string): Promise<number> =>
  applyInBatches('refund', async (tx, take) => {
    const rows = await lockDueRefunds(tx, now, take, siteId)
    // each refund locks its payment: the batch's are locked first, in one order (two batches never wait in a circle)
    if (rows.length > 1) await lockPaymentsInOrder(tx, [...new Set(rows.map((r) => r.paymentRef))])
    return rows.map(({ siteOffsetMs: _offset, ...r }) => ({ id: r.id, apply: () => processDueRefund(tx, r, r.dueAt!) }))
  })

/**
 * Confirms the open holds whose period is over (of one site, or all): each captured in full or reversed, as its site
 * says, dated at its time, with its notification; how many.
 */
export const confirmDueHolds = (now = new Date(), siteId?: string): Promise<number> =>
  applyInBatches('hold of payment', async (tx, take) => {
    const rows = await lockDueHolds(tx, now, take, siteId)
    // a hold's confirmation writes its own payment only: nothing another batch holds
    return rows.map(({ siteOffsetMs: _offset, ...p }) => ({ id: p.id, apply: () => confirmHold(tx, p) }))
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
 * does not make them right.
 */
export async function foldOverviewFigures(): Promise<void> {
  for (const fold of [foldPaymentStats, foldNotificationStats])
    for (let n = 0; n < FOLDS_PER_PASS && (await fold(FOLD_BATCH)) === FOLD_BATCH; n++);
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
