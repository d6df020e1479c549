-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "methodData" JSONB;

-- CreateTable
CREATE TABLE "SbpQrCode" (
    "id" UUID NOT NULL,
    "siteId" TEXT NOT NULL,
    "qrCodeUid" TEXT NOT NULL,
    "publicId" TEXT NOT NULL,
    "fingerprint" TEXT,
    "type" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amountMinor" BIGINT,
    "ttlMinutes" INTEGER NOT NULL,
    "image" JSONB,
    "imageContent" TEXT,
    "paymentPurpose" TEXT,
    "redirectUrl" TEXT,
    "flags" TEXT[],
    "tokenizationAccount" TEXT,
    "tokenizationPurpose" TEXT,
    "status" TEXT NOT NULL,
    "statusChangedAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "paymentRef" UUID,
    "bankMemberId" TEXT,

    CONSTRAINT "SbpQrCode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SbpToken" (
    "id" UUID NOT NULL,
    "siteId" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "qrRef" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SbpToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SbpQrCode_publicId_key" ON "SbpQrCode"("publicId");

-- CreateIndex
CREATE UNIQUE INDEX "SbpQrCode_paymentRef_key" ON "SbpQrCode"("paymentRef");

-- CreateIndex
CREATE INDEX "SbpQrCode_status_expiresAt_idx" ON "SbpQrCode"("status", "expiresAt");

-- CreateIndex
CREATE INDEX "SbpQrCode_siteId_status_expiresAt_idx" ON "SbpQrCode"("siteId", "status", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "SbpQrCode_siteId_qrCodeUid_key" ON "SbpQrCode"("siteId", "qrCodeUid");

-- CreateIndex
CREATE UNIQUE INDEX "SbpToken_tokenHash_key" ON "SbpToken"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "SbpToken_qrRef_key" ON "SbpToken"("qrRef");
