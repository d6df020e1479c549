/*
  Warnings:

  - A unique constraint covering the columns `[publicKeyHash]` on the table `Site` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "Bill" ADD COLUMN     "formFields" JSONB;

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "publicKeyGeneration" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "publicKeyHash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Site_publicKeyHash_key" ON "Site"("publicKeyHash");
