-- AlterTable
ALTER TABLE "Refund" ADD COLUMN     "dueAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "postponedRefunds" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Refund_dueAt_idx" ON "Refund"("dueAt");

-- CreateIndex
CREATE INDEX "Refund_siteId_dueAt_idx" ON "Refund"("siteId", "dueAt");
