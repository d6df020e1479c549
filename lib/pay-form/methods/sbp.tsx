// The payment page's Faster Payments (SBP): no fields. The attempt's answer is the payment's QR code, which the
// form shows (components/pay/bank-app-wait.tsx) while it follows the payment until the payer pays or declines it in
// their bank app. Pays with SBP, which pays roubles only: offered on RUB bills (lib/pay-form/form-service.ts).
import { definePayFormMethod } from './pay-method'

export const sbpPayForm = definePayFormMethod({
  position: 30,
  method: 'sbp',
  type: 'SBP',
  label: 'sbp',
  fields: [],
  check() {},
  values: () => ({}),
  paymentMethod: () => ({ type: 'SBP' }),
  Fields: ({ t }) => <p className="pay-hint">{t.sbpHint}</p>,
})

export default sbpPayForm
