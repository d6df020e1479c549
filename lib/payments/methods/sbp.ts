// SBP: the Faster Payments System. The payment answers WAITING with a QR code (`requirements.sbp`: qrcId, image,
// payload, where production's clients read it) that the payer pays or declines in their bank app (the sandbox's:
// lib/sbp), which completes or declines the payment; roubles only, always one-step (a capture is refused). Its
// answers and notifications tell the payer's phone (`paymentMethod.phone`) and bank details (`customer`), and its
// notifications the code (`qrCodeUid`), as production's do.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { payloadOf } from '../../sbp/qr-code-wire'
import { issuePaymentQrCode } from '../../sbp/qr-code-issue'
import { definePaymentMethod, type StoredMethod } from './payment-method'

const sbpMethodSchema = z.object({ type: z.literal('SBP') }).meta({
  id: 'SbpPaymentMethod',
  description: 'the Faster Payments System: the payer pays a QR code in their bank app',
})

/** what an SBP payment keeps besides the common columns (Payment.methodData) */
interface SbpMethodData {
  qrCodeUid?: string
  phone?: string
}

const dataOf = (p: { methodData: unknown }) => (p.methodData ?? {}) as SbpMethodData

export const storedSbp: StoredMethod = {
  methodType: 'SBP',
  capturesOnApproval: true,
  issuesTokens: false,
  answersPan: false,
  notifiedPan: () => null,
  // the payer's phone, once they paid (or declined) in their bank app
  methodFields: (p) => ({ phone: dataOf(p).phone }),
  notifiedFields: (p) => ({ qrCodeUid: dataOf(p).qrCodeUid }),
}

export const sbpMethod = definePaymentMethod({
  position: 45,
  type: 'SBP',
  schema: sbpMethodSchema,
  charges: 'the Faster Payments System, in roubles',
  storedAs: storedSbp,
  currencies: ['RUB'],
  charge: {
    async lookup(tx, _m, { siteId, now, amountMinor, comment, payerReturnUrl }) {
      // the code names its payment, whose row is written next in this transaction
      const paymentRef = randomUUID()
      const qr = await issuePaymentQrCode(tx, {
        siteId,
        paymentRef,
        amountMinor,
        purpose: comment?.slice(0, 140),
        // paid from the payment page on a phone, the bank app sends the payer back to it
        redirectUrl: payerReturnUrl,
        now,
      })
      const image = qr.image as { mediaType: string }
      return {
        methodType: storedSbp.methodType,
        paymentRef,
        methodData: { qrCodeUid: qr.qrCodeUid },
        answer: {
          kind: 'sbp',
          qr: {
            qrcId: qr.qrCodeUid,
            image: { mediaType: image.mediaType, content: qr.imageContent! },
            payload: payloadOf(qr.publicId),
          },
          expiresAt: qr.expiresAt,
        },
      }
    },
  },
  canBindToken: false,
  canStartRecurrent: false,
  requestExamples: {
    sbp: {
      summary: 'An SBP payment (a QR code for the bank app)',
      value: { paymentMethod: { type: 'SBP' }, amount: { value: '4.05', currency: 'RUB' }, comment: 'Order 1001' },
    },
  },
})

export default sbpMethod
