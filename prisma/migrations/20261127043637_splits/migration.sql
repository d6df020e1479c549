-- AlterTable
ALTER TABLE "Bill" ADD COLUMN     "splits" JSONB;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "splits" JSONB;

-- AlterTable
ALTER TABLE "Refund" ADD COLUMN     "splits" JSONB;
