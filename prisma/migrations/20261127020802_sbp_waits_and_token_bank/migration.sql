-- AlterTable
ALTER TABLE "SbpToken" ADD COLUMN     "bankMemberId" TEXT;

-- CreateIndex
CREATE INDEX "Payment_status_authFlow_idx" ON "Payment"("status", "authFlow");
