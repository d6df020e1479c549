/*
  Warnings:

  - A unique constraint covering the columns `[pageAttemptKey]` on the table `Payment` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "pageAttemptKey" TEXT;

-- CreateTable
CREATE TABLE "PageAttemptWindow" (
    "clientHash" TEXT NOT NULL,
    "windowStart" TIMESTAMPTZ(0) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "PageAttemptWindow_pkey" PRIMARY KEY ("clientHash","windowStart")
);

-- CreateIndex
CREATE UNIQUE INDEX "Payment_pageAttemptKey_key" ON "Payment"("pageAttemptKey");
