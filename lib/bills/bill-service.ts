// Bills: create (idempotent per site and billId), details, the list of a bill's payments, and the
// bill behind a payUrl. EXPIRED is derived from the deadline on every read; WAITING payments whose
// change fell due are brought up to date first, so the bill's state is current.
import { randomUUID } from 'node:crypto'
import { db, withRetry } from '../db/client'
import type { Bill } from '../generated/prisma/client'
import { notFound, requestConflict } from '../http/api-error'
import { isDue } from '../payments/payment-lifecycle'
import { findPayment } from '../payments/payment-service'
import { fingerprint } from '../security/keyed-hash'
import type { BillRequest } from './bill-request'
import { renderBill, renderBillPayment } from './bill-wire'

export async function createBill(siteId: string, billId: string, req: BillRequest) {
  const print = fingerprint('bill', req)
  const bill = await withRetry(async () => {
    const existing = await db().bill.findUnique({ where: { siteId_billId: { siteId, billId } } })
    if (existing) {
      if (existing.fingerprint !== print) throw requestConflict(`Bill ${billId}`)
      return existing
    }
    const now = new Date()
    return db().bill.create({
      data: {
        siteId,
        billId,
        invoiceUid: randomUUID(),
        fingerprint: print,
        currency: req.amount.currency,
        amountMinor: req.amount.value,
        comment: req.comment,
        flags: req.flags,
        successUrl: req.successUrl,
        failedUrl: req.failedUrl,
        customer: req.customer,
        recurrent: req.recurrent,
        receipt: req.receipt,
        status: 'CREATED',
        statusChangedAt: now,
        createdAt: now,
        expiresAt: req.expirationDateTime,
      },
    })
  })
  return renderBill(bill)
}

/** the bill and its payments, oldest first, brought up to date */
export async function loadBill(where: { siteId: string; billId: string } | { invoiceUid: string }): Promise<{ bill: Bill; payments: Awaited<ReturnType<typeof findPayment>>[] } | null> {
  const find = () =>
    'invoiceUid' in where
      ? db().bill.findUnique({ where: { invoiceUid: where.invoiceUid } })
      : db().bill.findUnique({ where: { siteId_billId: where } })
  let bill = await find()
  if (!bill) return null
  let payments = await db().payment.findMany({ where: { billRef: bill.id }, orderBy: [{ createdAt: 'asc' }, { paymentId: 'asc' }] })
  const now = new Date()
  const due = payments.filter((p) => isDue(p, now))
  if (due.length) {
    const settled = new Map<string, (typeof payments)[number]>()
    for (const p of due) settled.set(p.id, await findPayment(p.siteId, p.paymentId))
    payments = payments.map((p) => settled.get(p.id) ?? p)
    bill = (await find())!
  }
  return { bill, payments }
}

export async function readBillDetails(siteId: string, billId: string) {
  const loaded = await loadBill({ siteId, billId })
  if (!loaded) throw notFound('Bill')
  const { payUrl, ...bill } = renderBill(loaded.bill)
  return { ...bill, payUrl, payments: loaded.payments.map((p) => renderBillPayment(p, true)) }
}

export async function listBillPayments(siteId: string, billId: string) {
  const loaded = await loadBill({ siteId, billId })
  if (!loaded) throw notFound('Bill')
  return loaded.payments.map((p) => renderBillPayment(p, false))
}
