-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "frameOrigins" TEXT[] DEFAULT ARRAY[]::TEXT[];
