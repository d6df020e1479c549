-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "cardHolder" TEXT,
ADD COLUMN     "deviceData" JSONB;
