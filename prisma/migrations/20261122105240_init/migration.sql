-- CreateTable
CREATE TABLE "Site" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Site_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SiteToken" (
    "id" UUID NOT NULL,
    "siteId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "SiteToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Bill" (
    "id" UUID NOT NULL,
    "siteId" TEXT NOT NULL,
    "billId" TEXT NOT NULL,
    "invoiceUid" UUID NOT NULL,
    "fingerprint" TEXT,
    "currency" TEXT NOT NULL,
    "amountMinor" BIGINT,
    "comment" TEXT,
    "flags" TEXT[],
    "successUrl" TEXT,
    "failedUrl" TEXT,
    "customer" JSONB,
    "recurrent" JSONB,
    "receipt" JSONB,
    "status" TEXT NOT NULL,
    "statusChangedAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Bill_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Payment" (
    "id" UUID NOT NULL,
    "siteId" TEXT NOT NULL,
    "paymentId" TEXT NOT NULL,
    "billRef" UUID NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "methodType" TEXT NOT NULL,
    "maskedPan" TEXT,
    "flags" TEXT[],
    "currency" TEXT NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "capturedMinor" BIGINT NOT NULL DEFAULT 0,
    "refundedMinor" BIGINT NOT NULL DEFAULT 0,
    "reversed" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL,
    "statusReason" TEXT,
    "statusChangedAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "comment" TEXT,
    "customer" JSONB,
    "receipt" JSONB,
    "requirements" JSONB,
    "authFlow" TEXT,
    "otpAttempts" INTEGER NOT NULL DEFAULT 0,
    "mobileDecisionAt" TIMESTAMPTZ(3),
    "cardProfile" JSONB,
    "recurrentMinAuthDay" INTEGER,
    "recurrentExpiry" TEXT,
    "seriesRef" UUID,

    CONSTRAINT "Payment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PaymentToken" (
    "id" UUID NOT NULL,
    "siteId" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "paymentRef" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PaymentToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Capture" (
    "id" UUID NOT NULL,
    "siteId" TEXT NOT NULL,
    "captureId" TEXT NOT NULL,
    "paymentRef" UUID NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "statusReason" TEXT,
    "statusChangedAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Capture_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Refund" (
    "id" UUID NOT NULL,
    "siteId" TEXT NOT NULL,
    "refundId" TEXT NOT NULL,
    "paymentRef" UUID NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "flags" TEXT[],
    "status" TEXT NOT NULL,
    "statusReason" TEXT,
    "statusChangedAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Refund_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SiteToken_tokenHash_key" ON "SiteToken"("tokenHash");

-- CreateIndex
CREATE INDEX "SiteToken_siteId_idx" ON "SiteToken"("siteId");

-- CreateIndex
CREATE UNIQUE INDEX "Bill_invoiceUid_key" ON "Bill"("invoiceUid");

-- CreateIndex
CREATE UNIQUE INDEX "Bill_siteId_billId_key" ON "Bill"("siteId", "billId");

-- CreateIndex
CREATE INDEX "Payment_billRef_idx" ON "Payment"("billRef");

-- CreateIndex
CREATE INDEX "Payment_seriesRef_status_idx" ON "Payment"("seriesRef", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Payment_siteId_paymentId_key" ON "Payment"("siteId", "paymentId");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentToken_tokenHash_key" ON "PaymentToken"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentToken_paymentRef_key" ON "PaymentToken"("paymentRef");

-- CreateIndex
CREATE INDEX "Capture_paymentRef_idx" ON "Capture"("paymentRef");

-- CreateIndex
CREATE UNIQUE INDEX "Capture_siteId_captureId_key" ON "Capture"("siteId", "captureId");

-- CreateIndex
CREATE INDEX "Refund_paymentRef_createdAt_idx" ON "Refund"("paymentRef", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Refund_siteId_refundId_key" ON "Refund"("siteId", "refundId");

-- AddForeignKey
ALTER TABLE "SiteToken" ADD CONSTRAINT "SiteToken_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_billRef_fkey" FOREIGN KEY ("billRef") REFERENCES "Bill"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentToken" ADD CONSTRAINT "PaymentToken_paymentRef_fkey" FOREIGN KEY ("paymentRef") REFERENCES "Payment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Capture" ADD CONSTRAINT "Capture_paymentRef_fkey" FOREIGN KEY ("paymentRef") REFERENCES "Payment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Refund" ADD CONSTRAINT "Refund_paymentRef_fkey" FOREIGN KEY ("paymentRef") REFERENCES "Payment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
