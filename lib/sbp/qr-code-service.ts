// SBP QR codes: created through the API (idempotent per site and qrCodeUid), read, paid or declined in the
// sandbox bank app (its page, or the sandbox's endpoints without a browser), and paid by an FPS token. A code's
// payment is written by lib/payments/bank-app-payment.ts in the same transaction as the code's change, so a code
// is PAYED exactly when its payment is COMPLETED, and paid at most once.
import { createHash, randomUUID } from 'node:crypto'
import { fieldError, incorrectInvocation, notFound, requestConflict } from '../http/api-error'
import {
  answerPayment,
  createQrPayment,
  createTokenPayment,
  type BankPayer,
  type PayerAction,
} from '../payments/bank-app-payment'
import { findPayment } from '../payments/payment-service'
import { decline, isDue, lockPayment } from '../payments/payment-lifecycle'
import { lockBillOfPayment, readPaymentByRef, type Payment } from '../payments/payment-store'
import { billState } from '../settlement/bill-for-payment'
import type { SiteClock } from '../sandbox/site-clock'
import { siteWrite } from '../sandbox/site-write'
import { siteClock } from '../sites/site-store'
import { fingerprint, sign } from '../security/keyed-hash'
import { newQrCodeRow } from './qr-code-issue'
import { QR_TTL, type QrCodeRequest } from './qr-code-request'
import {
  attachPayment,
  insertQrCode,
  insertSbpToken,
  isUniqueViolation,
  withRetry,
  lockQrCode,
  readQrCode,
  readQrCodeOfPayment,
  sbpTokenByHash,
  sbpTokenOfQrCode,
  settleQrCode,
  type SbpQrCode,
  type Tx,
} from './qr-code-store'
import { belongsToPayment, qrCodeStatus, renderQrCode, type QrCodeAnswer, type QrCodeView } from './qr-code-wire'
import { DEFAULT_SANDBOX_BANK, payerCustomer, SANDBOX_BANKS, sandboxBankOf, type SandboxBank } from './sandbox-banks'

/** how long an FPS token lasts once bound */
const TOKEN_LIFETIME_MS = 365 * 24 * 3600_000

/** an FPS token: derived from its QR code (so answers can repeat it), in production's uuid-like form */
export function fpsTokenOf(qrRef: string): string {
  const h = Buffer.from(sign('fps-token', qrRef), 'base64url').toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex')

/** the code, its payment brought up to date on the site's clock, and its token */
async function viewOf(qr: SbpQrCode, clock: SiteClock): Promise<QrCodeView> {
  let payment: Payment | null = qr.paymentRef ? await readPaymentByRef(qr.paymentRef) : null
  if (payment && isDue(payment, clock.now())) payment = await findPayment(qr.siteId, payment.paymentId, clock, payment)
  const token = qr.tokenizationAccount ? await sbpTokenOfQrCode(qr.id) : null
  return { qr, payment, token: token ? { value: fpsTokenOf(qr.id), expiresAt: token.expiresAt } : null }
}

/**
 * POST …/sbp/qrCodes (`qrCodeUid` from the body, else generated) and PUT …/sbp/qrCodes/{qrCodeUid}: a new code, or
 * the same request again: the code as it is now; another request under that uid: 409.
 */
export async function createQrCode(siteId: string, pathUid: string | undefined, req: QrCodeRequest) {
  if (pathUid && req.qrCodeUid !== undefined && req.qrCodeUid !== pathUid)
    throw fieldError('qrCodeUid', "must be the path's qrCodeUid, or absent")
  const qrCodeUid = pathUid ?? req.qrCodeUid ?? randomUUID()
  const { qrCodeUid: _uid, amount, ...rest } = req
  // compared after normalisation: an absent ttl is its default
  const print = fingerprint('sbp-qr-code', {
    ...rest,
    qrCode: { ...rest.qrCode, ttl: rest.qrCode.ttl ?? QR_TTL.default },
    amount,
  })
  // the image is drawn before the site's write (the time is set inside, on the site's clock)
  const drawn = await newQrCodeRow(
    {
      siteId,
      qrCodeUid,
      fingerprint: print,
      request: { ...rest, amountMinor: amount?.value ?? null },
      paymentRef: null,
    },
    new Date(),
  )
  return withRetry(async () => {
    try {
      return await siteWrite(
        siteId,
        async (tx, clock) => {
          const now = clock.now()
          const qr = await insertQrCode(tx, {
            ...drawn,
            createdAt: now,
            statusChangedAt: now,
            expiresAt: new Date(now.getTime() + drawn.ttlMinutes * 60_000),
          })
          return renderQrCode({ qr, payment: null, token: null }, now, true)
        },
        { attempts: 1 },
      )
    } catch (e) {
      if (!isUniqueViolation(e)) throw e
      const existing = await readQrCode(siteId, qrCodeUid)
      if (!existing) throw e
      if (existing.fingerprint !== print) throw requestConflict(`QR code ${qrCodeUid}`)
      return answerOf(existing, true)
    }
  })
}

/** the code `qr` (its row as read) as it is now on its site's clock (read when not given) */
export async function answerOf(qr: SbpQrCode, withImage: boolean, clock?: SiteClock): Promise<QrCodeAnswer> {
  const now = clock ?? (await siteClock(qr.siteId))
  return renderQrCode(await viewOf(qr, now), now.now(), withImage)
}

/** GET …/sbp/qrCodes/{qrCodeUid}: the code as it is now (without its image, as production's) */
export async function readQrCodeAnswer(siteId: string, qrCodeUid: string, clock: SiteClock): Promise<QrCodeAnswer> {
  const qr = await readQrCode(siteId, qrCodeUid)
  if (!qr) throw notFound('QR code')
  return answerOf(qr, false, clock)
}

/** the bank of a member id the payer chose (absent: the sandbox's first), or a 400 on `field` */
export function chosenBank(memberId: string | undefined, field: string): SandboxBank {
  if (memberId === undefined) return DEFAULT_SANDBOX_BANK
  const bank = sandboxBankOf(memberId)
  if (!bank)
    throw fieldError(field, `must be one of the sandbox banks: ${SANDBOX_BANKS.map((b) => b.memberId).join(', ')}`)
  return bank
}

const payerOf = (bank: SandboxBank): BankPayer => ({ phone: bank.payer.phone, customer: payerCustomer(bank) })

/** the code's payment (locked and up to date), if it has one */
async function lockedPaymentOf(tx: Tx, qr: SbpQrCode, now: Date): Promise<Payment | null> {
  if (!qr.paymentRef) return null
  const p = await readPaymentByRef(qr.paymentRef)
  return p ? lockPayment(tx, qr.siteId, p.paymentId, now) : null
}

/**
 * What the payer does in the bank app with the site's code: pays it (or binds their account, for a TOKEN code),
 * or declines it. A code no longer CREATED is a 409. The code as it is then, and where the bank app sends the
 * payer.
 */
export async function actInBankApp(
  siteId: string,
  qrCodeUid: string,
  action: PayerAction,
  bank: SandboxBank,
): Promise<{ answer: QrCodeAnswer; qr: SbpQrCode }> {
  const done = await siteWrite(siteId, async (tx, clock) => {
    const now = clock.now()
    const qr = await lockQrCode(tx, siteId, qrCodeUid)
    if (!qr) throw notFound('QR code')
    let payment = await lockedPaymentOf(tx, qr, now)
    const status = qrCodeStatus(qr, payment, now)
    if (status !== 'CREATED')
      throw incorrectInvocation(`The QR code is ${status}: it can no longer be paid or declined`)
    const payer = payerOf(bank)
    if (belongsToPayment(qr)) {
      // a payment whose bill another payment paid, or which expired, is withdrawn rather than paid into a decline
      const bill = billState(await lockBillOfPayment(tx, payment!.billRef), now)
      if (bill !== 'CREATED') {
        payment = await decline(tx, payment!, bill === 'PAID' ? 'BILL_ALREADY_PAID' : 'BILL_EXPIRED', now)
        await settleQrCode(tx, qr.id, { status: 'DECLINED', paymentRef: payment.id, bankMemberId: null, at: now })
        return { closedBill: bill }
      }
      payment = await answerPayment(tx, payment!, payer, action, now)
    } else if (qr.type === 'DYNAMIC')
      payment = await createQrPayment(
        tx,
        { siteId, qrCodeUid, amountMinor: Number(qr.amountMinor), purpose: qr.paymentPurpose },
        payer,
        action,
        now,
      )
    const paid = payment ? payment.status === 'COMPLETED' : action === 'pay'
    if (paid && qr.tokenizationAccount) await bindToken(tx, qr, bank, now)
    const settled = await settleQrCode(tx, qr.id, {
      status: paid ? 'PAYED' : 'DECLINED',
      paymentRef: payment?.id ?? null,
      bankMemberId: bank.memberId,
      at: now,
    })
    const token = paid && qr.tokenizationAccount ? { value: fpsTokenOf(qr.id), expiresAt: tokenExpiry(now) } : null
    return { answer: renderQrCode({ qr: settled, payment, token }, now, false), qr: settled }
  })
  if ('closedBill' in done)
    throw incorrectInvocation(
      `The bill of the QR code's payment is ${done.closedBill}: the payment was declined, the code can no longer be paid`,
    )
  return done
}

const tokenExpiry = (now: Date) => new Date(now.getTime() + TOKEN_LIFETIME_MS)

async function bindToken(tx: Tx, qr: SbpQrCode, bank: SandboxBank, now: Date) {
  await insertSbpToken(tx, {
    siteId: qr.siteId,
    account: qr.tokenizationAccount!,
    tokenHash: tokenHash(fpsTokenOf(qr.id)),
    qrRef: qr.id,
    bankMemberId: bank.memberId,
    createdAt: now,
    expiresAt: tokenExpiry(now),
  })
}

/**
 * POST …/sbp/qrCodes/{qrCodeUid}/payments: the site's DYNAMIC code paid by an FPS token of the site bound to the
 * account: INIT_PAYMENT_BY_TOKEN at once, PAYED once the emulated bank pays it (the scheduler, after
 * MOBILE_OPERATOR_DELAY_MS). A token of another site or account, or an expired one: 400.
 */
export async function payByToken(
  siteId: string,
  qrCodeUid: string,
  body: { tokenizationAccount: string; token: string },
) {
  return siteWrite(siteId, async (tx, clock) => {
    const now = clock.now()
    const qr = await lockQrCode(tx, siteId, qrCodeUid)
    if (!qr) throw notFound('QR code')
    const token = await sbpTokenByHash(tx, tokenHash(body.token))
    if (!token || token.siteId !== siteId || token.account !== body.tokenizationAccount)
      throw fieldError('token', 'is not an FPS token of this site and tokenizationAccount')
    if (token.expiresAt.getTime() <= now.getTime()) throw fieldError('token', 'has expired')
    if (qr.type !== 'DYNAMIC' || belongsToPayment(qr))
      throw incorrectInvocation('Only a DYNAMIC QR code issued through the QR code API can be paid by an FPS token')
    const status = qrCodeStatus(qr, await lockedPaymentOf(tx, qr, now), now)
    if (status !== 'CREATED') throw incorrectInvocation(`The QR code is ${status}: it can no longer be paid`)
    // the payer who bound the token pays
    const bank = (token.bankMemberId && sandboxBankOf(token.bankMemberId)) || DEFAULT_SANDBOX_BANK
    const payment = await createTokenPayment(
      tx,
      { siteId, qrCodeUid, amountMinor: Number(qr.amountMinor), purpose: qr.paymentPurpose },
      payerOf(bank),
      now,
    )
    const attached = await attachPayment(tx, qr.id, payment.id)
    return renderQrCode({ qr: attached, payment, token: null }, now, false)
  })
}

/** what the dashboard shows of an SBP payment: its code, the payer's phone and bank, the FPS token its code bound */
export interface SbpPaymentDetails {
  qrCodeUid: string
  phone: string | null
  bankName: string | null
  /** the token, masked (its first and last characters): the merchant has it whole from the API */
  fpsToken: string | null
}

export async function sbpPaymentDetails(payment: Payment): Promise<SbpPaymentDetails | null> {
  const qr = await readQrCodeOfPayment(payment.id)
  if (!qr) return null
  const bound = qr.tokenizationAccount ? await sbpTokenOfQrCode(qr.id) : null
  const token = bound ? fpsTokenOf(qr.id) : null
  return {
    qrCodeUid: qr.qrCodeUid,
    phone: ((payment.methodData as { phone?: string } | null) ?? {}).phone ?? null,
    bankName: qr.bankMemberId ? (sandboxBankOf(qr.bankMemberId)?.name ?? qr.bankMemberId) : null,
    fpsToken: token ? `${token.slice(0, 8)}…${token.slice(-4)}` : null,
  }
}
