// The captures' table ("Capture"): every statement that reads or writes it. The capture service decides and
// calls these in the transaction it got from siteWrite.
import { db, type Tx } from '../db/client'
import type { Prisma } from '../generated/prisma/client'

export type { Capture } from '../generated/prisma/client'

/** a new capture's row, as written */
export type NewCapture = Prisma.CaptureUncheckedCreateInput

/** the site's capture by its id, or null */
export const findCapture = (tx: Tx, siteId: string, captureId: string) =>
  tx.capture.findUnique({ where: { siteId_captureId: { siteId, captureId } } })

/** whether the payment has a successful capture */
export async function hasCompletedCapture(tx: Tx, paymentRef: string): Promise<boolean> {
  return !!(await tx.capture.findFirst({ where: { paymentRef, status: 'COMPLETED' }, select: { id: true } }))
}

/** writes the new capture; its row as stored */
export const insertCapture = (tx: Tx, data: NewCapture) => tx.capture.create({ data })

/** the site's capture of the site's payment, or null */
export const captureOfPayment = (siteId: string, paymentId: string, captureId: string) =>
  db().capture.findFirst({ where: { siteId, captureId, payment: { paymentId } } })

/** the payment's captures (by its internal id), oldest first */
export const capturesOfPayment = (paymentRef: string) =>
  db().capture.findMany({ where: { paymentRef }, orderBy: { createdAt: 'asc' } })

/** A sandbox reset's statement for this table: the site's captures deleted; how many. */
export const deleteSiteData = (tx: Tx, siteId: string): Promise<number> =>
  tx.$executeRaw`DELETE FROM "Capture" WHERE "siteId" = ${siteId}`
