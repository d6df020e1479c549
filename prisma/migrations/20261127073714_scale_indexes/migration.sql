-- The indexes a site with a million payments needs (issue 32): each list's keyset order ("siteId", "createdAt",
-- id) for payments (whole, of a status), bills and notifications, the dashboard's search by bill id and by a card's
-- last four digits, a bill's or a notification's audit entries. On a live database they can be built beforehand
-- without blocking writes (CREATE INDEX CONCURRENTLY, outside a transaction: npm run db:indexes, described in
-- docs/operators/deployment-and-scaling.md), and every statement here then finds its index and does nothing.
-- A build CONCURRENTLY that failed midway leaves an invalid index of its name, which IF NOT EXISTS would take for
-- a built one: this migration then fails, naming it, until npm run db:indexes has built it again.
SELECT ('invalid index left by a failed build: ' || c.relname || ' (run npm run db:indexes again)')::int
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_namespace ns ON ns.oid = c.relnamespace AND ns.nspname = current_schema()
WHERE NOT i.indisvalid AND c.relname IN (
  'AuditEntry_siteId_action_subject_at_idx', 'Bill_siteId_createdAt_id_idx', 'Notification_siteId_createdAt_id_idx',
  'Payment_siteId_createdAt_id_idx', 'Payment_siteId_status_createdAt_id_idx', 'Payment_siteId_billId_createdAt_id_idx',
  'Payment_siteId_cardLastFour_createdAt_id_idx');

-- CreateIndex
CREATE INDEX IF NOT EXISTS "AuditEntry_siteId_action_subject_at_idx" ON "AuditEntry"("siteId", "action", "subject", "at");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "Bill_siteId_createdAt_id_idx" ON "Bill"("siteId", "createdAt", "id");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "Notification_siteId_createdAt_id_idx" ON "Notification"("siteId", "createdAt", "id");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "Payment_siteId_createdAt_id_idx" ON "Payment"("siteId", "createdAt", "id");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "Payment_siteId_status_createdAt_id_idx" ON "Payment"("siteId", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "Payment_siteId_billId_createdAt_id_idx" ON "Payment"("siteId", "billId", "createdAt", "id");

-- The search by a card's last four digits (lib/payments/payment-store.ts listPaymentRows): an expression of the
-- masked number, which the schema cannot name (no column holds the digits twice, and never more of the card)
CREATE INDEX IF NOT EXISTS "Payment_siteId_cardLastFour_createdAt_id_idx" ON "Payment"("siteId", right("maskedPan", 4), "createdAt", "id") WHERE "maskedPan" IS NOT NULL;

-- The (siteId, createdAt, id) index above serves what this one did (the dashboard's overview by site and time)
DROP INDEX IF EXISTS "Notification_siteId_createdAt_idx";
