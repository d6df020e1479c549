-- The scheduler's searches read the payments in motion only (issue 32): those WAITING with a due change, the open
-- holds, and the WAITING ones of a flow that ends with its bill. Their indexes held every payment: a million entries,
-- nearly all of them NULL or of a final status, written at each payment's insert and at every change of its status.
-- Now each is partial, of the rows a search can find. The full index on (status, "authFlow") also misled the
-- planner after a burst of due changes (10,000 3-D Secure expiries falling due at once, statistics taken before
-- them): it read every WAITING payment and sorted them for each batch of 50, 12 ms a batch; the partial index on
-- "dueAt" gives them in order.
-- On a live database the new indexes can be built beforehand without blocking writes (npm run db:indexes,
-- docs/operators/deployment-and-scaling.md); each statement here then finds its index and does nothing. A build
-- CONCURRENTLY that failed midway leaves an invalid index of its name: this migration then fails, naming it, until
-- npm run db:indexes has built it again.
SELECT ('invalid index left by a failed build: ' || c.relname || ' (run npm run db:indexes again)')::int
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_namespace ns ON ns.oid = c.relnamespace AND ns.nspname = current_schema()
WHERE NOT i.indisvalid AND c.relname IN (
  'Payment_waiting_dueAt_idx', 'Payment_waiting_siteId_dueAt_idx', 'Payment_open_hold_holdDueAt_idx',
  'Payment_open_hold_siteId_holdDueAt_idx', 'Payment_waiting_authFlow_idx');

-- What the partial indexes below replace, dropped first: a drop takes the table's ACCESS EXCLUSIVE lock, and taken
-- after a CREATE INDEX (whose SHARE lock is held to the end, even when npm run db:indexes built the index already)
-- it would be an upgrade, which deadlocks with a transaction that locked a payment and then writes it. Taken first,
-- it waits for the transactions under way on payments (those that start meanwhile wait behind it), and the creates
-- that follow find the indexes built ahead, or build the partial ones (payments in motion: a few rows to write).
DROP INDEX IF EXISTS "Payment_dueAt_idx";
DROP INDEX IF EXISTS "Payment_siteId_dueAt_idx";
DROP INDEX IF EXISTS "Payment_holdDueAt_idx";
DROP INDEX IF EXISTS "Payment_siteId_holdDueAt_idx";
DROP INDEX IF EXISTS "Payment_status_authFlow_idx";

-- the due changes (lib/payments/payment-store.ts lockDuePayments: on real time, then of each site whose clock is
-- ahead); a WAITING payment without one has none to index, and leaves nothing at its end
CREATE INDEX IF NOT EXISTS "Payment_waiting_dueAt_idx" ON "Payment"("dueAt") WHERE status = 'WAITING' AND "dueAt" IS NOT NULL;
CREATE INDEX IF NOT EXISTS "Payment_waiting_siteId_dueAt_idx" ON "Payment"("siteId", "dueAt") WHERE status = 'WAITING' AND "dueAt" IS NOT NULL;

-- the holds to confirm (lockDueHolds; a site's new hold period, setHoldHours): only an open hold has a holdDueAt
CREATE INDEX IF NOT EXISTS "Payment_open_hold_holdDueAt_idx" ON "Payment"("holdDueAt") WHERE "holdDueAt" IS NOT NULL;
CREATE INDEX IF NOT EXISTS "Payment_open_hold_siteId_holdDueAt_idx" ON "Payment"("siteId", "holdDueAt") WHERE "holdDueAt" IS NOT NULL;

-- the payments waiting on a bill that closed (lockWaitsOnClosedBills), and the metrics' exact count of WAITING
CREATE INDEX IF NOT EXISTS "Payment_waiting_authFlow_idx" ON "Payment"("authFlow") WHERE status = 'WAITING';
