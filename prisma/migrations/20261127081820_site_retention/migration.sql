-- A site's retention (lib/sandbox/retention-sweep.ts): its days, when its sweep is next due, where it goes on. The
-- index is on the Site table (one row per merchant), built in the migration's own transaction.
-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "retentionCursor" TEXT,
ADD COLUMN     "retentionDays" INTEGER,
ADD COLUMN     "retentionDueAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Site_retentionDueAt_idx" ON "Site"("retentionDueAt");
