// A sandbox reset (POST …/sandbox/reset): the site's payments, bills, captures, refunds, payment tokens
// (issued by its payments), SBP QR codes and FPS tokens, and notifications with their attempts, the
// dashboard's audit entries about them, and its clock's offset. Its tokens, its notification URL and secret, and
// the audit of its settings stay.
//
// A site with a year of traffic (a million payments) cannot go in one transaction: it outlasted the transaction's
// timeout and deleted nothing (issue 32). A site of more than BATCH bills loses them BATCH at a time first, each
// batch with all that hangs on them — their payments and those payments' captures, refunds, notifications with
// their attempts, tokens, QR codes and audit entries — in a transaction of its own behind the site's gate, as
// below. Between two batches the site is whole (every payment kept has its bill, captures, refunds and
// notifications), its writes run (on its clock as it was), and other sites never wait; a reset that failed or was
// stopped midway leaves such a site, and the next one finishes it. The last transaction, once BATCH bills or fewer
// are left (a smaller site's only one), deletes all that is left and sets the clock back: what follows applies to
// it, the moment the reset takes effect for every write of the site made before.
//
// Concurrent writes of the site (a payment, a capture, a refund, a completion, a due change, a bill, a
// delivery's attempt) are either wholly deleted or wholly kept, and none is dated on the clock the reset
// took away: every such write runs behind the site's gate (lib/sandbox/site-write.ts siteWrite), which
// the reset takes exclusively first of all. It waits for the writes under way, then deletes at READ
// COMMITTED (each statement sees all of them), and a write that starts meanwhile waits for the reset (the
// gate's queue is fair: the reset is not kept out by writes that start after it asked), then runs on the
// clock it left, finding the data it deleted gone (a capture of a deleted payment is 404). The scheduler
// passes over a site being reset. What is left to race is a deadlock with a write outside the gate that
// PostgreSQL breaks (or a foreign key such a write broke): the reset starts again, after a short pause.
import { setTimeout as sleep } from 'node:timers/promises'
import * as cardCheckStore from '../card-checks/card-check-store'
import * as auditStore from '../dashboard/audit-store'
import { serviceUnavailable } from '../http/api-error'
import * as notificationStore from '../notifications/notification-store'
import * as captureStore from '../payments/capture-store'
import * as tokenStore from '../payments/payment-token-store'
import * as paymentStore from '../payments/payment-store'
import * as refundStore from '../payments/refund-store'
import * as billStore from '../settlement/bill-store'
import * as sbpStore from '../sbp/qr-code-store'
import * as siteStore from '../sites/site-store'
import { isRetryable, siteClockMove, type Tx } from './site-write'

export interface ResetCounts {
  payments: number
  bills: number
  captures: number
  refunds: number
  notifications: number
}

/**
 * the audit entries about the data a reset deletes (lib/dashboard/dashboard-actions.ts, dashboard-bills.ts,
 * notification resends)
 */
export const DATA_ACTIONS = ['capture', 'refund', 'bill', 'resend']

/** a reset kept out by the site's writes (its gate held too long, or every race lost): the 503's words */
const BUSY = "The site's writes kept the reset waiting; nothing was deleted: try again when they pause"

/** a reset that lost a race to a concurrent write of the site: started again, up to this many times */
const ATTEMPTS = 10

/** a row a write committed refers to one the reset deletes (a write outside the rules above) */
const isForeignKeyViolation = (e: unknown) =>
  (e as { code?: string })?.code === 'P2003' ||
  /foreign key constraint|violates foreign key/i.test(String((e as Error)?.message ?? ''))

/** the bills a batch deletes, with all that hangs on them (a few thousand rows: a transaction of 0.1–0.2 s) */
export const BATCH = 1000

export async function resetSandbox(siteId: string): Promise<ResetCounts> {
  const total: ResetCounts = { payments: 0, bills: 0, captures: 0, refunds: 0, notifications: 0 }
  for (;;) {
    const { deleted, done } = await raced(() => resetStep(siteId))
    for (const k of Object.keys(total) as (keyof ResetCounts)[]) total[k] += deleted[k]
    if (done) return total
  }
}

/** a part of the reset, made again when it lost a race to a concurrent write of the site */
async function raced<T>(part: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await part()
    } catch (e) {
      if (!(isRetryable(e) || isForeignKeyViolation(e))) throw e
      if (attempt >= ATTEMPTS) throw serviceUnavailable(BUSY)
      await sleep(Math.random() * 20 * attempt)
    }
  }
}

/**
 * One transaction of the reset, behind the site's gate (the writes of the site under way finish, those that start
 * wait, and a concurrent reset or clock advance too), then at its bills, which the scheduler's expiry passes over
 * from then on: with BATCH bills or fewer left, everything and the clock (done); else a batch of BATCH bills with
 * their payments and all that refers to those. A site of BATCH bills or fewer is reset in one transaction.
 */
function resetStep(siteId: string): Promise<{ deleted: ResetCounts; done: boolean }> {
  return siteClockMove(
    siteId,
    async (tx) => {
      const bills = await billStore.lockBillBatch(tx, siteId, BATCH + 1)
      if (bills.length <= BATCH) return { deleted: await deleteTheRest(tx, siteId), done: true }
      return { deleted: await deleteBatch(tx, siteId, bills.slice(0, BATCH)), done: false }
    },
    BUSY,
  )
}

/** these bills deleted, with their payments and all that refers to those (a retention sweep's batch too) */
export async function deleteBatch(tx: Tx, siteId: string, bills: string[]): Promise<ResetCounts> {
  const paymentRefs = await paymentStore.paymentsOfBills(tx, bills)
  const captures = await captureStore.deleteOfPayments(tx, paymentRefs)
  const refunds = await refundStore.deleteOfPayments(tx, paymentRefs)
  const notifications = await notificationStore.deleteOfResources(tx, siteId, [...paymentRefs, ...captures, ...refunds])
  await tokenStore.deleteOfPayments(tx, paymentRefs)
  await sbpStore.deleteOfPayments(tx, paymentRefs)
  await auditStore.deleteOfPayments(tx, siteId, DATA_ACTIONS, paymentRefs)
  const payments = await paymentStore.deletePaymentsOfBills(tx, bills)
  return {
    payments: payments.length,
    bills: await billStore.deleteBills(tx, bills),
    captures: captures.length,
    refunds: refunds.length,
    notifications,
  }
}

/** all the site's data left deleted, and its clock set back */
async function deleteTheRest(tx: Tx, siteId: string): Promise<ResetCounts> {
  await billStore.lockSiteBills(tx, siteId)
  const notifications = await notificationStore.deleteSiteData(tx, siteId)
  const captures = await captureStore.deleteSiteData(tx, siteId)
  const refunds = await refundStore.deleteSiteData(tx, siteId)
  await tokenStore.deleteSiteData(tx, siteId)
  await sbpStore.deleteSiteData(tx, siteId)
  await cardCheckStore.deleteSiteData(tx, siteId)
  const payments = await paymentStore.deleteSiteData(tx, siteId)
  const bills = await billStore.deleteSiteData(tx, siteId)
  await auditStore.deleteSiteData(tx, siteId, DATA_ACTIONS)
  await siteStore.deleteSiteData(tx, siteId)
  return { payments, bills, captures, refunds, notifications }
}
