// A sandbox reset (POST …/sandbox/reset): the site's payments, bills, captures, refunds, payment tokens
// (issued by its payments), SBP QR codes and FPS tokens, and notifications with their attempts, the
// dashboard's audit entries about them, and its clock's offset. Its tokens, its notification URL and secret, and
// the audit of its settings stay.
//
// A site with a year of traffic (a million payments) cannot go in one transaction: it outlasted the transaction's
// timeout and deleted nothing (issue 32). A site of more than BATCH bills loses them BATCH at a time first, each
// batch with all that hangs on them — their payments and those payments' captures, refunds, notifications with
// their attempts, tokens, QR codes and audit entries — in a transaction of its own behind the site's gate, as
// below; then, as many at a time, its card verifications (each with its token and notifications), QR codes never
// paid and audit entries about no payment kept (PARTS). Between two batches the site is whole (every payment kept
// has its bill, captures, refunds and notifications; every verification kept its token and notifications), its
// writes run (on its clock as it was), and other sites never wait; a reset that failed or was stopped midway leaves
// such a site, and the next one finishes it. The last transaction, once each part has BATCH rows or fewer left (a
// smaller site's only one), deletes all that is left and sets the clock back: what follows applies to it, the moment
// the reset takes effect for every write of the site made before.
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
import {
  deleteAuditEntries,
  deleteBillsWhole,
  deleteChecksWhole,
  deleteQrCodesWhole,
  lastPlace,
  lockNextRows,
  type BatchPart,
  type BillBatchCounts,
  type PlacedRow,
  type TablePlace,
} from './reset-store'
import { isRetryable, siteClockMove, type Tx } from './site-write'

/** what a reset deleted: the counts a batch of bills answers (reset-store.ts), summed */
export type ResetCounts = BillBatchCounts

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

/**
 * the rows a batch deletes (bills with all that hangs on them, card verifications, ...): a transaction of about 0.2 s
 * at a million payments, the longest a write of the site waits; a quarter of it took a fifth more time per row
 */
export const BATCH = 4000

/**
 * A batch is of bills, not rows: a site whose bills each hold many payments or notifications can make one outlast the
 * transaction's time (lib/db/client.ts). The reset then goes on in batches a quarter the size, down to this many.
 */
const MIN_BATCH = 60

/** a transaction that outlasted its time (Prisma's P2028), or a statement cancelled by statement_timeout */
const outlasted = (e: unknown) =>
  (e as { code?: string })?.code === 'P2028' ||
  /expired transaction|transaction already closed|statement timeout/i.test(String((e as Error)?.message ?? ''))

/**
 * Where a reset is: at its `part` (PARTS), after the place in its table that the last batch reached (null: from the
 * start). The parts before it had BATCH rows or fewer left when it got there.
 */
interface Progress {
  part: number
  after: TablePlace | null
}

/**
 * The parts of the site a reset deletes a batch at a time, in this order, before the last transaction deletes what is
 * left: its bills (each with what hangs on it), then what hangs on no bill and may be as many: card verifications
 * (each with its token and notifications), QR codes never paid (each with its FPS token), the audit entries of the
 * data about no payment kept.
 */
const PARTS: { part: BatchPart; delete: (tx: Tx, siteId: string, rows: PlacedRow[]) => Promise<ResetCounts> }[] = [
  { part: 'bills', delete: (tx, siteId, rows) => deleteBatch(tx, siteId, rows) },
  {
    part: 'cardChecks',
    delete: async (tx, siteId, rows) => ({ ...NONE, notifications: await deleteChecksWhole(tx, siteId, idsOf(rows)) }),
  },
  { part: 'unpaidQrCodes', delete: async (tx, _, rows) => (await deleteQrCodesWhole(tx, idsOf(rows)), NONE) },
  { part: 'auditLeft', delete: async (tx, _, rows) => (await deleteAuditEntries(tx, idsOf(rows)), NONE) },
]

const idsOf = (rows: PlacedRow[]) => rows.map((r) => r.id)

const NONE: ResetCounts = { payments: 0, bills: 0, captures: 0, refunds: 0, notifications: 0 }

export async function resetSandbox(siteId: string): Promise<ResetCounts> {
  const total: ResetCounts = { ...NONE }
  let at: Progress = { part: 0, after: null }
  let size = BATCH
  for (;;) {
    let step: Awaited<ReturnType<typeof resetStep>>
    try {
      step = await raced(() => resetStep(siteId, at, size))
    } catch (e) {
      // nothing of that batch was deleted (its transaction rolled back): the same rows again, fewer at a time
      if (!outlasted(e) || size <= MIN_BATCH) throw e
      size = Math.max(MIN_BATCH, Math.floor(size / 4))
      continue
    }
    const { deleted, next } = step
    for (const k of Object.keys(total) as (keyof ResetCounts)[]) total[k] += deleted[k]
    if (!next) return total
    at = next
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
 * wait, and a concurrent reset or clock advance too): the next batch of BATCH rows of the first part, from `at`, that
 * has more than BATCH left (its rows locked first: the scheduler's changes of bills and QR codes pass over them from
 * then on), with all that hangs on them; with none such left, everything and the clock (no next). A part is looked
 * at from its table's start before it is taken for done. A site of BATCH rows or fewer in each part is reset in one
 * transaction.
 */
function resetStep(siteId: string, at: Progress, size: number): Promise<{ deleted: ResetCounts; next?: Progress }> {
  return siteClockMove(
    siteId,
    async (tx) => {
      for (let part = at.part; part < PARTS.length; part++) {
        const look = (after: TablePlace | null) =>
          lockNextRows(tx, { part: PARTS[part].part, siteId, limit: size + 1, after, actions: DATA_ACTIONS })
        const after = part === at.part ? at.after : null
        let rows = await look(after)
        if (rows.length <= size && after !== null) rows = await look(null)
        if (rows.length > size) {
          const batch = rows.slice(0, size)
          return { deleted: await PARTS[part].delete(tx, siteId, batch), next: { part, after: lastPlace(batch) } }
        }
      }
      return { deleted: await deleteTheRest(tx, siteId) }
    },
    BUSY,
  )
}

/**
 * these bills, locked (each with its place in its table), deleted with their payments and all that refers to those (a
 * retention sweep's batch too)
 */
export async function deleteBatch(tx: Tx, siteId: string, bills: PlacedRow[]): Promise<ResetCounts> {
  return deleteBillsWhole(tx, siteId, bills, DATA_ACTIONS)
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
