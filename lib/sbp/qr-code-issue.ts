// A new QR code's row: its opaque bank-app id, its image drawn once, its time on the site's clock. Used by the QR
// code API (qr-code-service.ts) and by an SBP payment, whose code is issued in the payment's transaction.
import { randomBytes, randomUUID } from 'node:crypto'
import { payloadOf } from './qr-code-wire'
import { qrImageContent } from './qr-image'
import { insertQrCode, type SbpQrCode, type Tx } from './qr-code-store'
import { QR_TTL, type QrCodeRequest } from './qr-code-request'

/** the image an SBP payment's answer carries (its client reads a PNG) */
export const PAYMENT_QR_IMAGE = { mediaType: 'image/png', width: 300, height: 300 } as const

/** the bank app's id of a code: 22 characters, not guessable from anything the merchant chose */
const newPublicId = () => randomBytes(16).toString('base64url')

export interface NewQrCode {
  siteId: string
  qrCodeUid: string
  /** null for a payment's code */
  fingerprint: string | null
  request: Pick<QrCodeRequest, 'qrCode' | 'paymentPurpose' | 'redirectUrl' | 'flags' | 'tokenizationAccount'> & {
    amountMinor: number | null
    tokenizationPurpose?: string
  }
  /** the SBP payment it belongs to */
  paymentRef: string | null
}

/** the row of a new code at `now`, its image drawn (not yet written) */
export async function newQrCodeRow(c: NewQrCode, now: Date): Promise<SbpQrCode> {
  const publicId = newPublicId()
  const ttl = c.request.qrCode.ttl ?? QR_TTL.default
  const image = c.request.qrCode.image ?? null
  return {
    id: randomUUID(),
    siteId: c.siteId,
    qrCodeUid: c.qrCodeUid,
    publicId,
    fingerprint: c.fingerprint,
    type: c.request.qrCode.type,
    currency: 'RUB',
    amountMinor: c.request.amountMinor === null ? null : BigInt(c.request.amountMinor),
    ttlMinutes: ttl,
    image: image ? { ...image } : null,
    imageContent: image ? await qrImageContent(payloadOf(publicId), image) : null,
    paymentPurpose: c.request.paymentPurpose ?? null,
    redirectUrl: c.request.redirectUrl ?? null,
    flags: c.request.flags,
    tokenizationAccount: c.request.tokenizationAccount ?? null,
    tokenizationPurpose: c.request.tokenizationPurpose ?? null,
    status: 'CREATED',
    statusChangedAt: now,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttl * 60_000),
    paymentRef: c.paymentRef,
    bankMemberId: null,
  }
}

/** An SBP payment's code, written in the payment's transaction: a DYNAMIC code of its amount, 72 hours. */
export async function issuePaymentQrCode(
  tx: Tx,
  p: {
    siteId: string
    paymentRef: string
    amountMinor: number
    purpose: string | undefined
    redirectUrl: string | undefined
    now: Date
  },
): Promise<SbpQrCode> {
  const row = await newQrCodeRow(
    {
      siteId: p.siteId,
      // the code's uid is the payment's client's qrcId: a uuid, never one a merchant chose
      qrCodeUid: randomUUID(),
      fingerprint: null,
      request: {
        qrCode: { type: 'DYNAMIC', image: { ...PAYMENT_QR_IMAGE } },
        amountMinor: p.amountMinor,
        paymentPurpose: p.purpose,
        redirectUrl: p.redirectUrl,
        flags: [],
      },
      paymentRef: p.paymentRef,
    },
    p.now,
  )
  return insertQrCode(tx, row)
}
