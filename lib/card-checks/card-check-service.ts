// Card verifications: a card checked without charging it (production's `_card-check_en`), through the API
// (PUT …/validation/card/requests/{requestUid}, idempotent per site and requestUid) or a CHECK_CARD bill's payment
// page. The sandbox acquirer decides as it does for payments, by the same test cards: an approved card is valid, a
// declining one is not, the 3-D Secure card (and production's test cards with CVV 849 or a holder name with `3ds`)
// waits for the payer's challenge and the merchant's complete. Production's test cards whose payments answer 3 s
// later (expiry months 03 and 04) are decided at once: a verification has no waiting status but 3-D Secure's. No
// money moves, no payment is written. A valid card's verification with tokenizationData.account issues a payment
// token (lib/payments/payment-tokens.ts) that pays TOKEN payments of the site for that account; its end is told in
// a CHECK_CARD notification.
import { randomUUID } from 'node:crypto'
import { cardOutcome, cardProfile, chargeOutcome, maskPan, type CardProfile } from '../acquirer/sandbox-acquirer'
import { issuePareq, readPares } from '../acquirer/three-ds'
import { settings } from '../config'
import { fieldError, incorrectInvocation, notFound, requestConflict } from '../http/api-error'
import { insertNotification, notificationInsert } from '../notifications/outbox'
import { recordCheckToken } from '../payments/payment-tokens'
import { siteWrite } from '../sandbox/site-write'
import { billState, markBillPaid } from '../settlement/bill-for-payment'
import { lockBill } from '../settlement/bill-store'
import { fingerprint } from '../security/keyed-hash'
import type { CardCheckComplete, CardCheckRequest } from './card-check-request'
import {
  finishCardCheck,
  insertCardCheck,
  isUniqueViolation,
  lockCardCheck,
  readCardCheck,
  withRetry,
  type CardCheck,
  type Tx,
} from './card-check-store'
import { cardCheckNotificationBody, renderCardCheck, type CardCheckAnswer } from './card-check-wire'

/** whether a card of this profile can be charged now: what an approval would say, without charging it */
export function isValidCardNow(profile: CardProfile, now: Date): boolean {
  const o = chargeOutcome(profile, now)
  if (o.kind === 'declined') return false
  if (o.kind === 'delayed') return o.approved
  // approved; a card that asks for 3-D Secure or a one-time code at payment can be charged once the payer answers
  return true
}

/**
 * the end of a verification: its token (valid card, account given), its CHECK_CARD notification, and for one made on
 * a CHECK_CARD bill's page with a valid card, the bill PAID (one still open: not expired meanwhile); a card not valid
 * leaves the bill CREATED until its deadline, its page showing the outcome
 */
async function ended(tx: Tx, c: CardCheck, now: Date): Promise<void> {
  if (c.billRef && c.isValidCard) {
    const bill = await lockBill(tx, c.siteId, c.requestUid)
    if (bill?.id === c.billRef && billState(bill, now) === 'CREATED') await markBillPaid(tx, bill.id, now)
  }
  if (c.isValidCard && c.account)
    await recordCheckToken(tx, {
      siteId: c.siteId,
      account: c.account,
      checkRef: c.id,
      profile: c.cardProfile as unknown as CardProfile,
      maskedPan: c.maskedPan,
      cardHolder: c.cardHolder,
    })
  await insertNotification(
    tx,
    notificationInsert({
      type: 'CHECK_CARD',
      siteId: c.siteId,
      resourceRef: c.id,
      resourceId: c.requestUid,
      status: 'COMPLETED',
      target: null,
      body: cardCheckNotificationBody(c),
    }),
  )
}

/** the request's fingerprint: compared after validation, the card by keyed hash only */
export const cardCheckPrint = (req: CardCheckRequest) => fingerprint('card-check', req)

/**
 * PUT …/validation/card/requests/{requestUid}: a new verification, or the same request again: the verification as
 * it is now; another request under that requestUid: 409.
 */
export async function createCardCheck(
  siteId: string,
  requestUid: string,
  req: CardCheckRequest,
  o: { billRef?: string } = {},
): Promise<CardCheckAnswer> {
  const print = cardCheckPrint(req)
  const { pan, expiryDate, cvv2, holderName } = req.cardData
  return withRetry(async () => {
    try {
      return await siteWrite(
        siteId,
        async (tx, clock) => {
          const now = clock.now()
          const id = randomUUID()
          const outcome = cardOutcome(pan, expiryDate, now, { cvv: cvv2, holderName })
          const profile = cardProfile(pan, expiryDate)
          const waits = outcome.kind === 'threeDS'
          const c = await insertCardCheck(tx, {
            id,
            siteId,
            requestUid,
            fingerprint: print,
            status: waits ? 'WAITING_3DS' : 'SUCCESS',
            isValidCard: waits ? null : isValidCardNow(profile, now),
            threeDsStatus: waits ? null : 'WITHOUT',
            maskedPan: maskPan(pan),
            cardHolder: holderName ?? null,
            cardProfile: profile,
            account: req.tokenizationData?.account ?? null,
            // the PaReq names the verification's id, as a payment's names the payment's
            requirements: waits ? { pareq: issuePareq(id), acsUrl: `${settings().publicBaseUrl}/acs` } : null,
            billRef: o.billRef ?? null,
            createdAt: now,
            checkedAt: waits ? null : now,
          })
          if (!waits) await ended(tx, c, now)
          return renderCardCheck(c)
        },
        { attempts: 1 },
      )
    } catch (e) {
      if (!isUniqueViolation(e)) throw e
      const existing = await readCardCheck(siteId, requestUid)
      if (!existing) throw e
      if (existing.fingerprint !== print) throw requestConflict(`Card verification ${requestUid}`)
      return renderCardCheck(existing)
    }
  })
}

/** GET …/validation/card/requests/{requestUid} */
export async function readCardCheckAnswer(siteId: string, requestUid: string): Promise<CardCheckAnswer> {
  const c = await readCardCheck(siteId, requestUid)
  if (!c) throw notFound('Card verification')
  return renderCardCheck(c)
}

/**
 * POST …/validation/card/requests/{requestUid}/complete: the PaRes of the payer's 3-D Secure challenge. Passed: the
 * card is judged as without a challenge (PASSED); failed: not valid (NOT_PASSED). A PaRes not issued for this
 * verification is a 400 and it keeps waiting; a repeated complete of a passed challenge answers it unchanged; one
 * of a verification that never waited, or whose challenge failed, is a 409.
 */
export async function completeCardCheck(
  siteId: string,
  requestUid: string,
  req: CardCheckComplete,
): Promise<CardCheckAnswer> {
  const c = await siteWrite(siteId, async (tx, clock) => {
    const now = clock.now()
    const check = await lockCardCheck(tx, siteId, requestUid)
    if (!check) throw notFound('Card verification')
    if (check.status === 'SUCCESS') {
      if (check.threeDsStatus === 'PASSED') return check
      throw incorrectInvocation(
        check.threeDsStatus === 'NOT_PASSED'
          ? 'The payer failed 3-D Secure for this verification'
          : 'The verification does not await 3-D Secure',
      )
    }
    const pares = readPares(req.pares)
    if (!pares || pares.paymentRef !== check.id) throw fieldError('pares', 'was not issued for this verification')
    const done = await finishCardCheck(tx, check.id, {
      isValidCard: pares.passed && isValidCardNow(check.cardProfile as unknown as CardProfile, now),
      threeDsStatus: pares.passed ? 'PASSED' : 'NOT_PASSED',
      at: now,
    })
    await ended(tx, done, now)
    return done
  })
  return renderCardCheck(c)
}

/**
 * A CHECK_CARD bill's page: the payer's card verified under the bill's billId (its requestUid, so the API's GET
 * answers it), a token asked for when the bill has BIND_PAYMENT_TOKEN (for its customer.account).
 */
export function verifyOnBill(
  bill: { id: string; siteId: string; billId: string; flags: string[]; customer: unknown },
  card: CardCheckRequest['cardData'],
): Promise<CardCheckAnswer> {
  const account = (bill.customer as { account?: unknown } | null)?.account
  const tokenizationData =
    bill.flags.includes('BIND_PAYMENT_TOKEN') && typeof account === 'string' ? { account } : undefined
  return createCardCheck(bill.siteId, bill.billId, { cardData: card, tokenizationData }, { billRef: bill.id })
}

/** the verification a CHECK_CARD bill's page made, or null */
export { readCardCheckOfBill } from './card-check-store'

/** whether a verification of the site's own (the API's) holds this requestUid, one the bill's page cannot make */
export const requestUidTaken = async (siteId: string, requestUid: string) =>
  (await readCardCheck(siteId, requestUid)) !== null
