-- The delivery worker's claim reads the pending notifications site by site (lib/notifications/notification-store.ts
-- claimStatement): the sites with any pending, one descent each, then of each site its first due ones in order and
-- the count of its deliveries under way. Both indexes are partial, of the few rows in motion: the pending ones (in
-- the order a claim takes them, the id settling ties: 10,000 notifications due at one instant have one due time),
-- and the leased ones. The full indexes on (state, "nextAttemptAt") and ("siteId", state, "nextAttemptAt") stay for
-- the other readers.
-- On a live database they can be built beforehand without blocking writes (npm run db:indexes,
-- docs/operators/deployment-and-scaling.md); each statement here then finds its index and does nothing. A build
-- CONCURRENTLY that failed midway leaves an invalid index of its name: this migration then fails, naming it, until
-- npm run db:indexes has built it again.
SELECT ('invalid index left by a failed build: ' || c.relname || ' (run npm run db:indexes again)')::int
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_namespace ns ON ns.oid = c.relnamespace AND ns.nspname = current_schema()
WHERE NOT i.indisvalid AND c.relname IN ('Notification_pending_siteId_nextAttemptAt_id_idx', 'Notification_leased_siteId_leaseUntil_idx');

CREATE INDEX IF NOT EXISTS "Notification_pending_siteId_nextAttemptAt_id_idx" ON "Notification"("siteId", "nextAttemptAt", "id") WHERE state = 'PENDING';
CREATE INDEX IF NOT EXISTS "Notification_leased_siteId_leaseUntil_idx" ON "Notification"("siteId", "leaseUntil") WHERE state = 'PENDING' AND "leaseUntil" IS NOT NULL;
