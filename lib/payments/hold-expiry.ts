// Holds that confirm themselves: an authorised, uncaptured payment (an open hold) is captured in full, or reversed
// when its site says so, once the site's hold period (72 hours by default, 1 hour to 5 days) has passed since its
// authorisation, as production does. The time is the payment's `holdDueAt`, on its site's clock, written when it is
// authorised (payment-store.ts) and moved when the site's period changes (setHoldSetting: the new period applies to
// the open holds too); a capture or a reversal of all it holds clears it. The scheduler (lib/scheduler) applies it,
// and so does any write or read of the payment after that time (payment-lifecycle.ts settle), dated at that time.
import { randomUUID } from 'node:crypto'
import { insertCapture } from './capture-store'
import { notifyCapture, refundNotificationInsert } from './payment-notify'
import { heldMinor, totalsOf } from './payment-rules'
import {
  lockPaymentByRef,
  refundTotalsUpdate,
  rescheduleHolds,
  setCapturedMinor,
  type Payment,
  type Tx,
} from './payment-store'
import { insertRefund } from './refund-store'
import { fingerprint } from '../security/keyed-hash'
import { holdSettingOf, siteClock, writeHoldSetting, type HoldSetting } from '../sites/site-store'
import { siteClockMove } from '../sandbox/site-write'

/** the hold period's bounds and default, in hours */
export const MIN_HOLD_HOURS = 1
export const MAX_HOLD_HOURS = 120
export const DEFAULT_HOLD_HOURS = 72

export type { HoldSetting } from '../sites/site-store'

/** whether the payment is an open hold whose time to confirm itself has come at `now` (its site's time) */
export const holdIsDue = (p: Pick<Payment, 'holdDueAt'>, now: Date) =>
  p.holdDueAt !== null && p.holdDueAt.getTime() <= now.getTime()

/** the id of a capture or a refund the service makes itself, told apart from the merchant's */
const serviceMadeId = () => `auto-${randomUUID()}`

/**
 * Confirms the open hold `p` (locked by the caller) at its `holdDueAt`: a capture of all it still holds, or, when its
 * site sets auto-reversal, a reversal of it (a refund flagged REVERSAL), each with its notification (to the payment's
 * callbackUrl, else the site's notification URL); the payment as it is then.
 */
export async function confirmHold(tx: Tx, p: Payment): Promise<Payment> {
  const at = p.holdDueAt!
  const setting = await holdSettingOf(tx, p.siteId)
  const amountMinor = BigInt(heldMinor(totalsOf(p)))
  // no capture or refund request named a callback URL: the payment's own callbackUrl (the merchant asked to hear of
  // this payment there), else the site's URL; a bill's invoice_callback_url is for PAYMENT notifications only
  const target = p.callbackUrl ?? null
  if (setting?.reversal) {
    const row = {
      id: randomUUID(),
      siteId: p.siteId,
      refundId: serviceMadeId(),
      callbackUrl: null,
      paymentRef: p.id,
      // no request made it: a merchant's request naming its id is a conflict
      fingerprint: fingerprint('refund', { payment: p.id, hold: 'expired' }),
      currency: p.currency,
      amountMinor,
      flags: ['REVERSAL'],
      status: 'COMPLETED',
      statusReason: null,
      statusChangedAt: at,
      createdAt: at,
      dueAt: null,
      // a hold's auto-reversal takes back no split of its own
      splits: null,
      cheque: null,
    }
    const notification = refundNotificationInsert({ ...row, callbackUrl: target }, p)
    await insertRefund(tx, row, refundTotalsUpdate(p.id, amountMinor, true, true), notification)
  } else {
    await setCapturedMinor(tx, p.id, amountMinor)
    const capture = await insertCapture(tx, {
      siteId: p.siteId,
      captureId: serviceMadeId(),
      callbackUrl: null,
      paymentRef: p.id,
      fingerprint: fingerprint('capture', { payment: p.id, hold: 'expired' }),
      currency: p.currency,
      amountMinor,
      status: 'COMPLETED',
      statusReason: null,
      statusChangedAt: at,
      createdAt: at,
    })
    await notifyCapture(tx, { ...capture, callbackUrl: target }, p)
  }
  return (await lockPaymentByRef(tx, p.id)) ?? p
}

/**
 * Sets what the site's open holds do at the end of their period and, when given, the period (as a write of the site,
 * with what `alsoWrite` records: the dashboard's audit entry); the site's open holds are then due after the new
 * period. The setting as it is now, or null when there is no such site.
 */
export async function setHoldSetting(
  siteId: string,
  change: { reversal: boolean; hours?: number },
  alsoWrite?: (tx: Tx, setting: HoldSetting) => Promise<unknown>,
): Promise<HoldSetting | null> {
  const { hours } = change
  if (hours !== undefined && !isHoldPeriod(hours))
    throw new RangeError(`the hold period is ${MIN_HOLD_HOURS} to ${MAX_HOLD_HOURS} hours`)
  // the site's gate taken exclusively, as a clock advance does: the authorisations under way (each reads the period
  // for its hold) finish first and are rescheduled with the others; those that start meanwhile wait and read the new
  // period; two changes at once are made one after the other
  return siteClockMove(
    siteId,
    async (tx) => {
      const before = await holdSettingOf(tx, siteId, true)
      if (!before) return null
      const setting = { hours: hours ?? before.hours, reversal: change.reversal }
      await writeHoldSetting(tx, siteId, setting)
      const now = (await siteClock(siteId)).now()
      if (setting.hours !== before.hours) await rescheduleHolds(tx, siteId, setting.hours, now)
      await alsoWrite?.(tx, setting)
      return setting
    },
    "The site's writes kept the hold setting waiting; it did not change: try again when they pause",
  )
}

/** whether `hours` is a hold period the service accepts: whole hours, 1 to 120 (5 days) */
export const isHoldPeriod = (hours: number) =>
  Number.isInteger(hours) && hours >= MIN_HOLD_HOURS && hours <= MAX_HOLD_HOURS
