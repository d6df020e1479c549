-- AlterTable
ALTER TABLE "Capture" ADD COLUMN     "callbackUrl" TEXT;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "callbackUrl" TEXT;

-- AlterTable
ALTER TABLE "Refund" ADD COLUMN     "callbackUrl" TEXT;

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "notifySecretVersion" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "notifyUrl" TEXT;

-- CreateTable
CREATE TABLE "Notification" (
    "id" UUID NOT NULL,
    "siteId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "resourceRef" UUID NOT NULL,
    "resourceId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL,
    "leaseUntil" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMPTZ(3),

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationAttempt" (
    "id" UUID NOT NULL,
    "notificationRef" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "httpStatus" INTEGER,
    "durationMs" INTEGER NOT NULL,
    "error" TEXT,

    CONSTRAINT "NotificationAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Notification_state_nextAttemptAt_idx" ON "Notification"("state", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Notification_siteId_createdAt_idx" ON "Notification"("siteId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_resourceRef_status_url_key" ON "Notification"("resourceRef", "status", "url");

-- CreateIndex
CREATE INDEX "NotificationAttempt_notificationRef_at_idx" ON "NotificationAttempt"("notificationRef", "at");

-- AddForeignKey
ALTER TABLE "NotificationAttempt" ADD CONSTRAINT "NotificationAttempt_notificationRef_fkey" FOREIGN KEY ("notificationRef") REFERENCES "Notification"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
