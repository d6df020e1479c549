/*
  Warnings:

  - A unique constraint covering the columns `[checkRef]` on the table `PaymentToken` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "PaymentToken" ADD COLUMN     "cardHolder" TEXT,
ADD COLUMN     "cardProfile" JSONB,
ADD COLUMN     "checkRef" UUID,
ADD COLUMN     "maskedPan" TEXT,
ALTER COLUMN "paymentRef" DROP NOT NULL;

-- CreateTable
CREATE TABLE "CardCheck" (
    "id" UUID NOT NULL,
    "siteId" TEXT NOT NULL,
    "requestUid" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "isValidCard" BOOLEAN,
    "threeDsStatus" TEXT,
    "maskedPan" TEXT NOT NULL,
    "cardHolder" TEXT,
    "cardProfile" JSONB NOT NULL,
    "account" TEXT,
    "requirements" JSONB,
    "billRef" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "checkedAt" TIMESTAMPTZ(3),

    CONSTRAINT "CardCheck_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CardCheck_siteId_requestUid_key" ON "CardCheck"("siteId", "requestUid");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentToken_checkRef_key" ON "PaymentToken"("checkRef");
