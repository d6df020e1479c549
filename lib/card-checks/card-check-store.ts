// The card verifications' table ("CardCheck"): every statement that reads or writes it. The service
// (card-check-service.ts) decides and calls these, in the transaction of the site's write where it writes.
import { db, type Tx } from '../db/client'
import { Prisma, type CardCheck } from '../generated/prisma/client'

export type { CardCheck, Tx }
// a verification that lost a race (its requestUid taken by a concurrent twin) is told apart by the service
export { isUniqueViolation, withRetry } from '../db/client'

/** a new verification's row (its id chosen by the caller: the PaReq and the token name it) */
export type NewCardCheck = Omit<CardCheck, 'cardProfile' | 'requirements'> & {
  cardProfile: object
  requirements: object | null
}

export const insertCardCheck = (tx: Tx, row: NewCardCheck): Promise<CardCheck> =>
  tx.cardCheck.create({ data: { ...row, requirements: row.requirements ?? Prisma.DbNull } })

/** the site's verification by its requestUid, or null */
export const readCardCheck = (siteId: string, requestUid: string) =>
  db().cardCheck.findUnique({ where: { siteId_requestUid: { siteId, requestUid } } })

/** the verification a CHECK_CARD bill's page made, or null */
export const readCardCheckOfBill = (billRef: string) => db().cardCheck.findFirst({ where: { billRef } })

/** the site's verification, locked for the rest of the transaction; undefined when there is none */
export async function lockCardCheck(tx: Tx, siteId: string, requestUid: string): Promise<CardCheck | undefined> {
  const [row] = await tx.$queryRaw<
    CardCheck[]
  >`SELECT * FROM "CardCheck" WHERE "siteId" = ${siteId} AND "requestUid" = ${requestUid} FOR UPDATE`
  return row
}

/** writes the end of a verification that awaited 3-D Secure */
export const finishCardCheck = (
  tx: Tx,
  id: string,
  end: { isValidCard: boolean; threeDsStatus: string; at: Date },
): Promise<CardCheck> =>
  tx.cardCheck.update({
    where: { id },
    data: {
      status: 'SUCCESS',
      isValidCard: end.isValidCard,
      threeDsStatus: end.threeDsStatus,
      requirements: Prisma.DbNull,
      checkedAt: end.at,
    },
  })

/** A sandbox reset's statement for this table: the site's verifications deleted; how many. */
export const deleteSiteData = (tx: Tx, siteId: string): Promise<number> =>
  tx.$executeRaw`DELETE FROM "CardCheck" WHERE "siteId" = ${siteId}`
