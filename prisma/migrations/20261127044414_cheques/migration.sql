-- AlterTable
ALTER TABLE "Bill" ADD COLUMN     "cheque" JSONB;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "cheque" JSONB;

-- AlterTable
ALTER TABLE "Refund" ADD COLUMN     "cheque" JSONB;
