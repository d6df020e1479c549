// RECURRENT: a later charge of a recurrent series, started by a COMPLETED RECURRENT_FIRST payment (a card or a
// token) of the site. It charges the first payment's card under the series' rules and is stored as CARD (its
// answers and notifications say CARD, with the series' masked card number).
import { z } from 'zod'
import type { CardProfile } from '../../acquirer/sandbox-acquirer'
import { fieldError } from '../../http/api-error'
import { lastChargeOfSeries, lockPaymentRow, type Tx } from '../payment-store'
import { idSchema } from '../../wire/common-schemas'
import { cardAnswer, exampleCard, storedCard } from './card'
import { definePaymentMethod, type Instrument } from './payment-method'

const recurrentMethodSchema = z
  .object({
    type: z.literal('RECURRENT'),
    firstPaymentId: idSchema.meta({
      description: 'the COMPLETED RECURRENT_FIRST payment of this site that started the series',
    }),
  })
  .meta({ id: 'RecurrentPaymentMethod' })

const DAY_MS = 24 * 3600_000

/**
 * A charge of a recurrent series: the first payment must be a COMPLETED RECURRENT_FIRST payment of the
 * site; after the series' expiry date it declines RECURRENT_EXPIRED, and sooner than `minAuthDay` days
 * after the series' last COMPLETED charge REATTEMPT_NOT_PERMITTED. The first payment's row is locked,
 * so concurrent charges of one series are decided one after another.
 */
async function recurrentCharge(tx: Tx, siteId: string, firstPaymentId: string, now: Date): Promise<Instrument> {
  const first = await lockPaymentRow(tx, siteId, firstPaymentId)
  if (!first || first.status !== 'COMPLETED' || !first.flags.includes('RECURRENT_FIRST') || !first.cardProfile)
    throw fieldError('paymentMethod.firstPaymentId', 'must name a COMPLETED RECURRENT_FIRST payment of this site')
  const profile = first.cardProfile as unknown as CardProfile
  const base = {
    methodType: storedCard.methodType,
    maskedPan: first.maskedPan ?? undefined,
    profile,
    cardHolder: first.cardHolder ?? undefined,
    seriesRef: first.id,
  }
  if (now.toISOString().slice(0, 10) > first.recurrentExpiry!)
    return { ...base, answer: { kind: 'declined', reason: 'RECURRENT_EXPIRED' } }
  const last = await lastChargeOfSeries(tx, first.id)
  const lastCharge = last?.statusChangedAt ?? first.statusChangedAt
  if (now.getTime() - lastCharge.getTime() < first.recurrentMinAuthDay! * DAY_MS)
    return { ...base, answer: { kind: 'declined', reason: 'REATTEMPT_NOT_PERMITTED' } }
  return { ...base, answer: cardAnswer(profile, now) }
}

export const recurrentMethod = definePaymentMethod({
  position: 30,
  type: 'RECURRENT',
  schema: recurrentMethodSchema,
  charges: 'a recurrent series',
  storedAs: storedCard,
  charge: { lookup: (tx, m, { siteId, now }) => recurrentCharge(tx, siteId, m.firstPaymentId, now) },
  canBindToken: false,
  canStartRecurrent: false,
  requestExamples: {
    recurrentFirst: {
      summary: 'The first payment of a recurrent series',
      value: {
        paymentMethod: exampleCard,
        amount: { value: '9.99', currency: 'RUB' },
        flags: ['SALE', 'RECURRENT_FIRST'],
        recurrent: { minAuthDay: 30, expiryDate: '2027-12-31' },
      },
    },
    recurrent: {
      summary: 'A later charge of the series',
      value: {
        paymentMethod: { type: 'RECURRENT', firstPaymentId: 'sub-1' },
        amount: { value: '9.99', currency: 'RUB' },
        flags: ['SALE'],
      },
    },
  },
})

export default recurrentMethod
