// Endpoint 2: the merchant finishes payer authentication — a 3-D Secure PaRes, or a one-time code.
import { readPares } from '../acquirer/three-ds'
import { settings } from '../config'
import { db, withRetry } from '../db/client'
import type { Payment } from '../generated/prisma/client'
import { fieldError, incorrectInvocation } from '../http/api-error'
import { siteClockForWrite } from '../sandbox/site-clock'
import { approve, decline, lockPayment } from './payment-lifecycle'
import { renderPayment } from './payment-wire'

export const MAX_OTP_ATTEMPTS = 3

export interface CompleteRequest {
  threeDS?: { pares: string }
  otp?: { code: string; otpProcessCode?: string }
}

const PAYER_FLOWS = ['THREE_DS', 'OTP']

export async function completePayment(siteId: string, paymentId: string, req: CompleteRequest) {
  const result = await withRetry(() =>
    db().$transaction(async (tx): Promise<Payment | { attemptsLeft: number }> => {
      const now = (await siteClockForWrite(tx, siteId)).now()
      const p = await lockPayment(tx, siteId, paymentId, now)
      const awaitsPayer = PAYER_FLOWS.includes(p.authFlow ?? '')
      // authentication already succeeded: answer the payment as it is
      if (awaitsPayer && p.status === 'COMPLETED') return p
      if (!awaitsPayer || p.status !== 'WAITING')
        throw incorrectInvocation(
          p.status === 'DECLINED' ? 'The payment was declined' : 'The payment does not await payer authentication',
        )

      if (p.authFlow === 'THREE_DS') {
        if (!req.threeDS) throw fieldError('threeDS.pares', 'is required: the payment awaits 3-D Secure')
        const pares = readPares(req.threeDS.pares)
        if (!pares || pares.paymentRef !== p.id) throw fieldError('threeDS.pares', 'was not issued for this payment')
        return pares.passed ? approve(tx, p, now) : decline(tx, p, 'DECLINED_BY_MPI', now)
      }
      if (!req.otp) throw fieldError('otp.code', 'is required: the payment awaits a one-time code')
      if (req.otp.code === settings().otpCode) return approve(tx, p, now)
      const attempts = p.otpAttempts + 1
      if (attempts >= MAX_OTP_ATTEMPTS) {
        await tx.payment.update({ where: { id: p.id }, data: { otpAttempts: attempts } })
        return decline(tx, p, 'INVALID_OTP', now)
      }
      // the attempt is counted (committed) before the 400 is answered
      await tx.payment.update({ where: { id: p.id }, data: { otpAttempts: attempts } })
      return { attemptsLeft: MAX_OTP_ATTEMPTS - attempts }
    }),
  )
  if ('attemptsLeft' in result)
    throw fieldError(
      'otp.code',
      `is not the code sent; ${result.attemptsLeft} attempt${result.attemptsLeft === 1 ? '' : 's'} left`,
    )
  return renderPayment(result)
}
