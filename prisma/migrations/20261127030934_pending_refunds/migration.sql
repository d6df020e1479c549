-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "pendingRefundMinor" BIGINT NOT NULL DEFAULT 0;

-- Postponed refunds still WAITING were counted in "refundedMinor" before this column: moved to it.
WITH waiting AS (
    SELECT "paymentRef", sum("amountMinor") AS total FROM "Refund" WHERE status = 'WAITING' GROUP BY "paymentRef"
)
UPDATE "Payment" p SET "pendingRefundMinor" = waiting.total, "refundedMinor" = p."refundedMinor" - waiting.total
FROM waiting WHERE p.id = waiting."paymentRef";
