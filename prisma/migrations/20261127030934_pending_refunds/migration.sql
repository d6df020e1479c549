-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "pendingRefundMinor" BIGINT NOT NULL DEFAULT 0;
