// Retention (issue 32): a site given a retention in days (`npm run site -- retention <siteId> <days|off>`; none by
// default: everything is kept) loses, to the scheduler's sweep, its finished data older than that on its own clock,
// so that a sandbox that runs for years stays bounded. What goes, and what never does
// (docs/operators/data-retention.md):
// - a bill created and last changed before the cutoff, not open (CREATED before its deadline), with all its payments
//   and what hangs on them (captures, refunds, notifications with their attempts, SBP QR codes, audit entries) — only
//   when every payment on it is finished too (lib/sandbox/retention-store.ts finished says which are not: WAITING,
//   something left to refund or an open hold, a notification still PENDING, a capture or refund WAITING or recent, a
//   payment token it issued, a recurrent series still running);
// - a notification created before the cutoff and delivered or failed for good, with its attempts, alone;
// - the dashboard's audit entries of the data (captures, refunds, bills, resends) dated before the cutoff on real time
//   (they are dated on real time); the entries of the site's settings stay.
// Each batch is a short transaction of its own through siteWrite (the site's gate taken shared, as every write of the
// site: a reset waits for it, and other writes run beside it), deleting a bill's rows with the sandbox reset's own
// batch (deleteBatch). A bill a write holds is passed over until the next sweep.
//
// Any instance's scheduler runs it (startScheduler): each pass takes the one site whose sweep is due first
// (Site.retentionDueAt, moved on by a lease so that no other instance takes it meanwhile) and makes at most
// BATCHES_PER_PASS batches of it. A site done is due again SWEEP_EVERY_MS later; one left unfinished is due at once,
// going on from where the pass stopped (Site.retentionCursor). Nothing in memory: an instance that dies midway leaves
// the site due again once its lease is over, and the next sweep finds what is still to delete.
import { retentionOf, claimRetentionSweep, finishRetentionSweep } from '../sites/site-store'
import {
  billsToLookAt,
  deleteOldAuditEntries,
  deleteOldNotifications,
  lockFinishedBills,
  type BillPlace,
  type Horizon,
} from './retention-store'
import { DATA_ACTIONS, deleteBatch } from './sandbox-reset'
import { siteWrite, type Tx } from './site-write'

/** a day in milliseconds */
const DAY_MS = 86_400_000

/** the bills one batch looks at, and the most notifications or audit entries it deletes (a transaction of ~0.1 s) */
export const BATCH = 500

/** how many batches one scheduler pass makes of the site it took */
export const BATCHES_PER_PASS = 20

/** how often a site whose sweep finished is swept again */
export const SWEEP_EVERY_MS = 60 * 60 * 1000

/** how long a site taken by a pass is not taken by another (the pass's bound of work takes seconds) */
const LEASE_MS = 10 * 60 * 1000

/** the retention's limits, 1 day to 10 years */
export const RETENTION_DAYS = { min: 1, max: 3650 }

/** what a sweep deleted */
export interface SweepCounts {
  bills: number
  payments: number
  captures: number
  refunds: number
  notifications: number
  auditEntries: number
}

/** where a sweep stopped: in the bills (after this one), or past them (the notifications and audit entries left) */
type Cursor = { bills: BillPlace | null } | 'after-bills'

const encode = (c: Cursor): string | null =>
  c === 'after-bills' ? c : c.bills ? `${c.bills.createdAt.toISOString()}|${c.bills.id}` : null

function decode(s: string | null): Cursor {
  if (s === 'after-bills') return s
  const [at, id] = (s ?? '').split('|')
  const createdAt = new Date(at ?? '')
  return at && id && !Number.isNaN(createdAt.getTime()) ? { bills: { createdAt, id } } : { bills: null }
}

/**
 * Sweeps the site with a retention of `days`: at most `batches` batches, from `cursor` (null: from the start), at
 * real time `now` (the site's clock adds its offset); what went, whether the sweep finished, and where it stopped.
 */
export async function sweepSite(
  siteId: string,
  days: number,
  o: { now?: Date; cursor?: string | null; batches?: number } = {},
): Promise<{ deleted: SweepCounts; done: boolean; cursor: string | null }> {
  const deleted: SweepCounts = { bills: 0, payments: 0, captures: 0, refunds: 0, notifications: 0, auditEntries: 0 }
  let cursor = decode(o.cursor ?? null)
  let budget = o.batches ?? BATCHES_PER_PASS
  const now = o.now ?? new Date()
  const batch = <T>(work: (tx: Tx, h: Horizon) => Promise<T>) => {
    budget--
    return siteWrite(siteId, (tx, clock) => {
      const siteNow = new Date(now.getTime() + clock.offsetMs)
      const h = {
        siteId,
        siteNow,
        cutoff: new Date(siteNow.getTime() - days * DAY_MS),
        realCutoff: new Date(now.getTime() - days * DAY_MS),
      }
      return work(tx, h)
    })
  }
  while (cursor !== 'after-bills') {
    if (budget <= 0) return { deleted, done: false, cursor: encode(cursor) }
    const from = cursor.bills
    const { looked, counts } = await batch(async (tx, h) => {
      const looked = await billsToLookAt(tx, h, from, BATCH)
      const bills = await lockFinishedBills(
        tx,
        h,
        looked.map((b) => b.id),
      )
      return { looked, counts: bills.length ? await deleteBatch(tx, siteId, bills) : null }
    })
    if (counts) for (const k of Object.keys(counts) as (keyof typeof counts)[]) deleted[k] += counts[k]
    cursor = looked.length < BATCH ? 'after-bills' : { bills: looked[looked.length - 1]! }
  }
  for (;;) {
    if (budget <= 0) return { deleted, done: false, cursor: encode(cursor) }
    const [notifications, auditEntries] = await batch(async (tx, h) => [
      await deleteOldNotifications(tx, h, BATCH),
      await deleteOldAuditEntries(tx, h, DATA_ACTIONS, BATCH),
    ])
    deleted.notifications += notifications
    deleted.auditEntries += auditEntries
    if (notifications < BATCH && auditEntries < BATCH) return { deleted, done: true, cursor: null }
  }
}

/**
 * A whole sweep of the site now (at real time `now`), whatever its due time, with the retention it has: what the
 * scheduler's passes would delete in turn (tests, and an operator who does not want to wait); null when the site has
 * no retention or does not exist.
 */
export async function sweepSiteNow(siteId: string, now = new Date()): Promise<SweepCounts | null> {
  const days = await retentionOf(siteId)
  if (days === null || days === undefined) return null
  const { deleted } = await sweepSite(siteId, days, { now, batches: Number.POSITIVE_INFINITY })
  await finishRetentionSweep(siteId, new Date(now.getTime() + SWEEP_EVERY_MS), null)
  return deleted
}

/**
 * The scheduler's part (each pass, every instance): the site whose sweep is due first, if any, swept for at most
 * BATCHES_PER_PASS batches, then due again SWEEP_EVERY_MS later when it finished, or at once to go on; how many bills
 * and notifications went.
 */
export async function sweepDueRetention(now = new Date()): Promise<number> {
  const claim = await claimRetentionSweep(now, LEASE_MS)
  if (!claim) return 0
  const { deleted, done, cursor } = await sweepSite(claim.siteId, claim.days, { now, cursor: claim.cursor })
  await finishRetentionSweep(claim.siteId, done ? new Date(now.getTime() + SWEEP_EVERY_MS) : now, cursor)
  return deleted.bills + deleted.notifications
}
