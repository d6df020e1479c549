-- Time-driven changes are stored with their due time and applied by a scheduler (see README,
-- "Time-driven changes"). Hand-edited from the generated diff: the operator's decision time becomes
-- the general due time (renamed, not dropped, so waiting mobile payments keep theirs), and waiting
-- 3-D Secure payments get the due time of their 15-minute expiry.

-- AlterTable
ALTER TABLE "Bill" ADD COLUMN     "customFields" JSONB;

-- AlterTable
ALTER TABLE "Payment" RENAME COLUMN "mobileDecisionAt" TO "dueAt";
ALTER TABLE "Payment" ADD COLUMN     "customFields" JSONB;
UPDATE "Payment" SET "dueAt" = NULL WHERE status <> 'WAITING';
UPDATE "Payment" SET "dueAt" = "createdAt" + interval '15 minutes' WHERE status = 'WAITING' AND "authFlow" = 'THREE_DS';

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "notifySecretRotatedAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Bill_status_expiresAt_idx" ON "Bill"("status", "expiresAt");

-- CreateIndex
CREATE INDEX "Payment_dueAt_idx" ON "Payment"("dueAt");
