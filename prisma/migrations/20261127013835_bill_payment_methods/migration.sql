-- AlterTable
ALTER TABLE "Bill" ADD COLUMN     "paymentMethods" TEXT[] DEFAULT ARRAY[]::TEXT[];
