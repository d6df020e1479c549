-- AlterTable
ALTER TABLE "SiteToken" ADD COLUMN     "rateLimitPerMinute" INTEGER;

-- CreateTable
CREATE TABLE "RateWindow" (
    "tokenRef" UUID NOT NULL,
    "windowStart" TIMESTAMPTZ(0) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "RateWindow_pkey" PRIMARY KEY ("tokenRef","windowStart")
);

-- AddForeignKey
ALTER TABLE "RateWindow" ADD CONSTRAINT "RateWindow_tokenRef_fkey" FOREIGN KEY ("tokenRef") REFERENCES "SiteToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;
