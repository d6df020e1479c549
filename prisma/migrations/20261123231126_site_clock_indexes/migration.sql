-- CreateIndex
CREATE INDEX "Bill_siteId_status_expiresAt_idx" ON "Bill"("siteId", "status", "expiresAt");

-- CreateIndex
CREATE INDEX "Notification_siteId_state_nextAttemptAt_idx" ON "Notification"("siteId", "state", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Payment_siteId_dueAt_idx" ON "Payment"("siteId", "dueAt");

-- CreateIndex
CREATE INDEX "Site_clockOffsetMs_idx" ON "Site"("clockOffsetMs");
