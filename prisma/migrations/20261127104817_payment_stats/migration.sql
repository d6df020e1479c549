-- The dashboard overview's figures, kept as writes happen (issue 33: an overview as fast at a million payments as at
-- ten). Statement triggers on "Payment" and "Notification" append what each statement changed, grouped by site, UTC
-- hour of creation and the counted columns, to the *StatChange tables, in the writer's transaction: appends, so two
-- writers never wait for one counter row. The scheduler folds them into the *Stat tables (lib/payments/
-- payment-stats-store.ts, lib/notifications/notification-stats-store.ts). The existing rows are counted at the end,
-- in this migration's transaction: CREATE TRIGGER holds writes to the two tables until it commits, so nothing is
-- counted twice or missed (a few seconds at a million payments).

-- CreateTable
CREATE TABLE "PaymentStat" (
    "siteId" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "amountMinor" BIGINT NOT NULL,

    CONSTRAINT "PaymentStat_pkey" PRIMARY KEY ("siteId","hour","currency","status","reason")
);

-- CreateTable
CREATE TABLE "PaymentStatChange" (
    "id" BIGSERIAL NOT NULL,
    "siteId" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "amountMinor" BIGINT NOT NULL,

    CONSTRAINT "PaymentStatChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationStat" (
    "siteId" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "state" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "NotificationStat_pkey" PRIMARY KEY ("siteId","hour","state")
);

-- CreateTable
CREATE TABLE "NotificationStatChange" (
    "id" BIGSERIAL NOT NULL,
    "siteId" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "state" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "NotificationStatChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PaymentStatChange_siteId_hour_idx" ON "PaymentStatChange"("siteId", "hour");

-- CreateIndex
CREATE INDEX "NotificationStatChange_siteId_hour_idx" ON "NotificationStatChange"("siteId", "hour");

-- the groups of the rows a statement wrote (+1 each) and of those it replaced or deleted (-1 each), without the ones
-- that cancel out (an update that changed no counted column)
CREATE FUNCTION payment_stat_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "PaymentStatChange" ("siteId", hour, currency, status, reason, count, "amountMinor")
    SELECT "siteId", date_trunc('hour', "createdAt", 'UTC'), currency, status, coalesce("statusReason", ''),
           count(*), sum("amountMinor")
    FROM new_rows GROUP BY 1, 2, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "PaymentStatChange" ("siteId", hour, currency, status, reason, count, "amountMinor")
    SELECT "siteId", date_trunc('hour', "createdAt", 'UTC'), currency, status, coalesce("statusReason", ''),
           -count(*), -sum("amountMinor")
    FROM old_rows GROUP BY 1, 2, 3, 4, 5;
  ELSE
    INSERT INTO "PaymentStatChange" ("siteId", hour, currency, status, reason, count, "amountMinor")
    SELECT "siteId", date_trunc('hour', "createdAt", 'UTC'), currency, status, coalesce("statusReason", ''),
           sum(n), sum(a)
    FROM (SELECT "siteId", "createdAt", currency, status, "statusReason", 1 AS n, "amountMinor" AS a FROM new_rows
          UNION ALL
          SELECT "siteId", "createdAt", currency, status, "statusReason", -1, -"amountMinor" FROM old_rows) c
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(n) <> 0 OR sum(a) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER payment_stat_inserts AFTER INSERT ON "Payment"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_stat_changes();
CREATE TRIGGER payment_stat_updates AFTER UPDATE ON "Payment"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_stat_changes();
CREATE TRIGGER payment_stat_deletes AFTER DELETE ON "Payment"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_stat_changes();

CREATE FUNCTION notification_stat_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "NotificationStatChange" ("siteId", hour, state, count)
    SELECT "siteId", date_trunc('hour', "createdAt", 'UTC'), state, count(*) FROM new_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "NotificationStatChange" ("siteId", hour, state, count)
    SELECT "siteId", date_trunc('hour', "createdAt", 'UTC'), state, -count(*) FROM old_rows GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "NotificationStatChange" ("siteId", hour, state, count)
    SELECT "siteId", date_trunc('hour', "createdAt", 'UTC'), state, sum(n)
    FROM (SELECT "siteId", "createdAt", state, 1 AS n FROM new_rows
          UNION ALL
          SELECT "siteId", "createdAt", state, -1 FROM old_rows) c
    GROUP BY 1, 2, 3
    HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER notification_stat_inserts AFTER INSERT ON "Notification"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_stat_changes();
CREATE TRIGGER notification_stat_updates AFTER UPDATE ON "Notification"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_stat_changes();
CREATE TRIGGER notification_stat_deletes AFTER DELETE ON "Notification"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_stat_changes();

-- what is already there, counted once
INSERT INTO "PaymentStat" ("siteId", hour, currency, status, reason, count, "amountMinor")
SELECT "siteId", date_trunc('hour', "createdAt", 'UTC'), currency, status, coalesce("statusReason", ''),
       count(*), sum("amountMinor")
FROM "Payment" GROUP BY 1, 2, 3, 4, 5;
INSERT INTO "NotificationStat" ("siteId", hour, state, count)
SELECT "siteId", date_trunc('hour', "createdAt", 'UTC'), state, count(*) FROM "Notification" GROUP BY 1, 2, 3;

-- a read of a site's range of hours is an index-only scan (what it sums is in the index); partial (the rows a fold
-- empties are removed: none is left out) so that the schema, which cannot name an INCLUDE, does not see it
CREATE INDEX "PaymentStat_read_idx" ON "PaymentStat" ("siteId", hour)
  INCLUDE (currency, status, reason, count, "amountMinor") WHERE count <> 0;
CREATE INDEX "NotificationStat_read_idx" ON "NotificationStat" ("siteId", hour) INCLUDE (state, count) WHERE count <> 0;
