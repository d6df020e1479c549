// A sandbox reset (POST …/sandbox/reset): the site's payments, bills, captures, refunds, payment tokens
// (issued by its payments), SBP QR codes and FPS tokens, and notifications with their attempts, the
// dashboard's audit entries about them, and its clock's offset, all in one transaction. Its tokens, its
// notification URL and secret, and the audit of its settings stay.
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
import { isRetryable, siteClockMove } from './site-write'

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
const DATA_ACTIONS = ['capture', 'refund', 'bill', 'resend']

/** a reset kept out by the site's writes (its gate held too long, or every race lost): the 503's words */
const BUSY = "The site's writes kept the reset waiting; nothing was deleted: try again when they pause"

/** a reset that lost a race to a concurrent write of the site: started again, up to this many times */
const ATTEMPTS = 10

/** a row a write committed refers to one the reset deletes (a write outside the rules above) */
const isForeignKeyViolation = (e: unknown) =>
  (e as { code?: string })?.code === 'P2003' ||
  /foreign key constraint|violates foreign key/i.test(String((e as Error)?.message ?? ''))

export async function resetSandbox(siteId: string): Promise<ResetCounts> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await resetOnce(siteId)
    } catch (e) {
      if (!(isRetryable(e) || isForeignKeyViolation(e))) throw e
      if (attempt >= ATTEMPTS) throw serviceUnavailable(BUSY)
      await sleep(Math.random() * 20 * attempt)
    }
  }
}

function resetOnce(siteId: string): Promise<ResetCounts> {
  // the site's gate first: the writes of the site under way finish, those that start wait (and a
  // concurrent reset or clock advance too); then its bills, which the scheduler's expiry passes over from now on
  return siteClockMove(
    siteId,
    async (tx) => {
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
    },
    BUSY,
  )
}
