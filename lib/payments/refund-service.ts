// Refunds of completed payments, partial or whole, and reversals of uncaptured holds (endpoints 5, 6
// and the refund list).
import { randomUUID } from 'node:crypto'
import { db, type Tx } from '../db/client'
import { Prisma, type Refund } from '../generated/prisma/client'
import { fieldError, notFound, requestConflict } from '../http/api-error'
import { refundNotificationInsert } from './payment-notify'
import { fingerprint } from '../security/keyed-hash'
import type { AmountInput } from '../wire/common-schemas'
import { siteWrite } from '../sandbox/site-write'
import { lockPayment } from './payment-lifecycle'
import { currencyMismatch, decideRefund, totalsOf } from './payment-rules'
import { renderRefund } from './payment-wire'

/**
 * `alsoWrite`: what the caller records with a new refund, in its transaction (the dashboard's audit entry); not on a
 * replay
 */
export async function refundPayment(
  siteId: string,
  paymentId: string,
  refundId: string,
  amount: AmountInput,
  callbackUrl?: string,
  alsoWrite?: (tx: Tx, refund: Refund) => Promise<unknown>,
) {
  // on the site's sandbox clock, a sandbox reset of the site waiting for this write (or this write for it)
  const refund = await siteWrite(siteId, async (tx, clock) => {
    const now = clock.now()
    const p = await lockPayment(tx, siteId, paymentId, now)
    const print = fingerprint('refund', { payment: p.id, amount, callbackUrl })
    const existing = await tx.refund.findUnique({ where: { siteId_refundId: { siteId, refundId } } })
    if (existing) {
      if (existing.fingerprint !== print) throw requestConflict(`Refund ${refundId}`)
      return existing
    }
    const mismatch = currencyMismatch(amount, p)
    if (mismatch) throw fieldError('amount.currency', mismatch)
    const d = decideRefund(totalsOf(p), amount.value)
    const row: Refund = {
      id: randomUUID(),
      siteId,
      refundId,
      callbackUrl: callbackUrl ?? null,
      paymentRef: p.id,
      fingerprint: print,
      currency: p.currency,
      amountMinor: BigInt(amount.value),
      flags: d.ok && d.reversal ? ['REVERSAL'] : [],
      status: d.ok ? 'COMPLETED' : 'DECLINED',
      statusReason: d.ok ? null : d.reason,
      statusChangedAt: now,
      createdAt: now,
    }
    // the payment's totals, the refund and its notifications in one statement (the payment is locked)
    const totals = d.ok
      ? Prisma.sql`totals AS (UPDATE "Payment" SET "refundedMinor" = "refundedMinor" + ${row.amountMinor}${d.reversal ? Prisma.sql`, reversed = true` : Prisma.empty} WHERE id = ${p.id}::uuid),`
      : Prisma.empty
    const [refund] = await tx.$queryRaw<Refund[]>`
      WITH ${totals}
        refund AS (
          INSERT INTO "Refund" (id, "siteId", "refundId", "callbackUrl", "paymentRef", fingerprint, currency, "amountMinor", flags, status, "statusReason", "statusChangedAt", "createdAt")
          VALUES (${row.id}::uuid, ${row.siteId}, ${row.refundId}, ${row.callbackUrl}, ${row.paymentRef}::uuid, ${row.fingerprint}, ${row.currency}, ${row.amountMinor}, ${row.flags}::text[],
                  ${row.status}, ${row.statusReason}, ${row.statusChangedAt}, ${row.createdAt})
          RETURNING *),
        notification AS (${refundNotificationInsert(row, p)})
      SELECT * FROM refund`
    await alsoWrite?.(tx, refund)
    return refund
  })
  return renderRefund(refund)
}

export async function readRefund(siteId: string, paymentId: string, refundId: string) {
  const r = await db().refund.findFirst({ where: { siteId, refundId, payment: { paymentId } } })
  if (!r) throw notFound('Refund')
  return renderRefund(r)
}

export async function listRefunds(siteId: string, paymentId: string) {
  const p = await db().payment.findUnique({
    where: { siteId_paymentId: { siteId, paymentId } },
    select: { refunds: { orderBy: [{ createdAt: 'asc' }, { refundId: 'asc' }] } },
  })
  if (!p) throw notFound('Payment')
  return p.refunds.map(renderRefund)
}
