// The payment tokens' table ("PaymentToken"): a token's SHA-256, bound to its site, customer account and binding
// payment. Every statement that reads or writes it.
import type { Tx } from '../db/client'

/** records a token (its hash) issued by the payment `paymentRef` */
export async function insertPaymentToken(
  tx: Tx,
  data: { siteId: string; account: string; tokenHash: string; paymentRef: string },
): Promise<void> {
  await tx.paymentToken.create({ data })
}

/**
 * records a token (its hash) issued by the card verification `checkRef` (lib/card-checks), with what a TOKEN payment
 * charges again: the card's profile, masked number and holder's name
 */
export async function insertCheckToken(
  tx: Tx,
  data: {
    siteId: string
    account: string
    tokenHash: string
    checkRef: string
    cardProfile: object
    maskedPan: string
    cardHolder: string | null
  },
): Promise<void> {
  await tx.paymentToken.create({ data })
}

/** the token of this hash with its binding payment (none for a card verification's token), or null */
export const tokenWithPayment = (tx: Tx, tokenHash: string) =>
  tx.paymentToken.findUnique({ where: { tokenHash }, include: { payment: true } })

/** A sandbox reset's statement for this table: the site's tokens deleted; how many. */
export const deleteSiteData = (tx: Tx, siteId: string): Promise<number> =>
  tx.$executeRaw`DELETE FROM "PaymentToken" WHERE "siteId" = ${siteId}`
