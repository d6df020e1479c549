-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "holdDueAt" TIMESTAMPTZ(3),
ADD COLUMN     "reversedMinor" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "holdHours" INTEGER NOT NULL DEFAULT 72,
ADD COLUMN     "holdReversal" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Payment_holdDueAt_idx" ON "Payment"("holdDueAt");

-- CreateIndex
CREATE INDEX "Payment_siteId_holdDueAt_idx" ON "Payment"("siteId", "holdDueAt");

-- Reversals made before: their amount is the whole authorisation
UPDATE "Payment" SET "reversedMinor" = "refundedMinor" WHERE reversed;

-- Open holds made before: they confirm themselves 72 hours (the default) after their authorisation
UPDATE "Payment" SET "holdDueAt" = "statusChangedAt" + interval '72 hours'
WHERE status = 'COMPLETED' AND "capturedMinor" = 0 AND NOT reversed AND NOT ('SALE' = ANY(flags));
