-- Payment.billId: the bill's merchant id, copied from the bill (it never changes)
ALTER TABLE "Payment" ADD COLUMN "billId" TEXT;
UPDATE "Payment" p SET "billId" = b."billId" FROM "Bill" b WHERE b.id = p."billRef";
ALTER TABLE "Payment" ALTER COLUMN "billId" SET NOT NULL;
