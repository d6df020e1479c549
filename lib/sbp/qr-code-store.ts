// The SBP QR codes' and FPS tokens' tables ("SbpQrCode", "SbpToken"): every statement that reads or writes them.
// The services (qr-code-service.ts, the SBP payment method) decide and call these, passing the transaction of
// the site's write (lib/sandbox/site-write.ts siteWrite) where they write. A row's `status` is the code's own
// (CREATED until the payer acts in the bank app, or EXPIRED); once the code has a payment, its status follows the
// payment's (qr-code-wire.ts qrCodeStatus, the only reading of a code's status for people and answers).
import { db, type Tx } from '../db/client'
import { Prisma, type SbpQrCode, type SbpToken } from '../generated/prisma/client'
import { gateOpenFor } from '../sandbox/site-write'

export type { SbpQrCode, SbpToken, Tx }
// a creation that lost a race (its uid taken by a concurrent twin) is told apart and answered by the service
export { isUniqueViolation, withRetry } from '../db/client'

/** writes a new QR code's row; the row as stored */
export const insertQrCode = (tx: Tx, row: SbpQrCode): Promise<SbpQrCode> =>
  tx.sbpQrCode.create({ data: { ...row, image: row.image ?? Prisma.DbNull } })

/** the site's QR code by its uid, or null */
export const readQrCode = (siteId: string, qrCodeUid: string) =>
  db().sbpQrCode.findUnique({ where: { siteId_qrCodeUid: { siteId, qrCodeUid } } })

/** the QR code the bank app's link names, or null */
export const readQrCodeByPublicId = (publicId: string) => db().sbpQrCode.findUnique({ where: { publicId } })

/** the QR code of a payment (one it created, or the SBP payment it belongs to), or null */
export const readQrCodeOfPayment = (paymentRef: string) => db().sbpQrCode.findUnique({ where: { paymentRef } })

/** the site's QR code, locked for the rest of the transaction; undefined when there is none */
export async function lockQrCode(tx: Tx, siteId: string, qrCodeUid: string): Promise<SbpQrCode | undefined> {
  const [row] = await tx.$queryRaw<
    SbpQrCode[]
  >`SELECT * FROM "SbpQrCode" WHERE "siteId" = ${siteId} AND "qrCodeUid" = ${qrCodeUid} FOR UPDATE`
  return row
}

/** writes what the payer did: the code's final status, its payment and the payer's bank */
export const settleQrCode = (
  tx: Tx,
  id: string,
  change: { status: string; paymentRef: string | null; bankMemberId: string | null; at: Date },
) =>
  tx.sbpQrCode.update({
    where: { id },
    data: {
      status: change.status,
      statusChangedAt: change.at,
      paymentRef: change.paymentRef,
      bankMemberId: change.bankMemberId,
    },
  })

/** the code now paid by a payment under way (an FPS token's): its payment, the code still CREATED until it ends */
export const attachPayment = (tx: Tx, id: string, paymentRef: string) =>
  tx.sbpQrCode.update({ where: { id }, data: { paymentRef } })

/** the changes of one site only (a clock advance's pass), or of every site */
const ofSite = (siteId?: string) => (siteId ? Prisma.sql` AND q."siteId" = ${siteId}` : Prisma.empty)

/**
 * Writes EXPIRED on unpaid QR codes past their time, dated then; how many (at most `batch`). A code that belongs to
 * a payment, or is being paid by a token, ends with its payment instead (the payment's flow declines it at the
 * same time). As the bills' expiry: those due on real time, or (`onSiteClock`) of each site whose clock is ahead.
 */
export async function expireQrCodeBatch(now: Date, batch: number, onSiteClock: boolean, siteId?: string) {
  const due = onSiteClock
    ? Prisma.sql`
    SELECT q.id FROM "Site" ahead CROSS JOIN LATERAL (
      SELECT q.id FROM "SbpQrCode" q
      WHERE q."siteId" = ahead.id AND q.status = 'CREATED' AND q."paymentRef" IS NULL AND q."expiresAt" > ${now}::timestamptz
        AND q."expiresAt" <= ${now}::timestamptz + ahead."clockOffsetMs" * interval '1 millisecond'${gateOpenFor('q."siteId"')}
      ORDER BY q."expiresAt" LIMIT ${batch} FOR UPDATE OF q SKIP LOCKED) q
    WHERE ahead."clockOffsetMs" > 0${siteId ? Prisma.sql` AND ahead.id = ${siteId}` : Prisma.empty} LIMIT ${batch}`
    : Prisma.sql`
    SELECT q.id FROM "SbpQrCode" q
    WHERE q."expiresAt" <= ${now}::timestamptz AND q.status = 'CREATED' AND q."paymentRef" IS NULL${ofSite(siteId)}${gateOpenFor('q."siteId"')}
    ORDER BY q."expiresAt" LIMIT ${batch} FOR UPDATE OF q SKIP LOCKED`
  return db().$executeRaw`
    UPDATE "SbpQrCode" SET status = 'EXPIRED', "statusChangedAt" = "expiresAt"
    WHERE id IN (${due}) AND status = 'CREATED' AND "paymentRef" IS NULL`
}

// ---- FPS tokens

/** writes the token a QR code bound; the row as stored */
export const insertSbpToken = (tx: Tx, row: Omit<SbpToken, 'id'>) => tx.sbpToken.create({ data: row })

/** the token of a QR code, or null */
export const sbpTokenOfQrCode = (qrRef: string) => db().sbpToken.findUnique({ where: { qrRef } })

/** a token by its hash, or null */
export const sbpTokenByHash = (tx: Tx, tokenHash: string) => tx.sbpToken.findUnique({ where: { tokenHash } })

// ---- sandbox reset

/** A sandbox reset's statements here: the site's FPS tokens and QR codes deleted; how many codes. */
export async function deleteSiteData(tx: Tx, siteId: string): Promise<number> {
  await tx.$executeRaw`DELETE FROM "SbpToken" WHERE "siteId" = ${siteId}`
  return tx.$executeRaw`DELETE FROM "SbpQrCode" WHERE "siteId" = ${siteId}`
}
