-- CreateTable
CREATE TABLE "DashboardSession" (
    "id" UUID NOT NULL,
    "idHash" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "tokenRef" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL,
    "endedAt" TIMESTAMPTZ(3),

    CONSTRAINT "DashboardSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SignInWindow" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMPTZ(0) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "SignInWindow_pkey" PRIMARY KEY ("key","windowStart")
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" UUID NOT NULL,
    "siteId" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "paymentRef" UUID,
    "outcome" TEXT NOT NULL,
    "detail" JSONB,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "DashboardSession_idHash_key" ON "DashboardSession"("idHash");

-- CreateIndex
CREATE INDEX "DashboardSession_tokenRef_idx" ON "DashboardSession"("tokenRef");

-- CreateIndex
CREATE INDEX "AuditEntry_siteId_paymentRef_at_idx" ON "AuditEntry"("siteId", "paymentRef", "at");

-- AddForeignKey
ALTER TABLE "DashboardSession" ADD CONSTRAINT "DashboardSession_tokenRef_fkey" FOREIGN KEY ("tokenRef") REFERENCES "SiteToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;
