-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "clockOffsetMs" BIGINT NOT NULL DEFAULT 0;
