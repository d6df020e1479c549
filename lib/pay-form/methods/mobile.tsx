// The payment page's mobile balance: the phone number with its country code (spaces, brackets, + and dashes
// allowed as typed). Pays with MOBILE; offered only on bills whose flags MOBILE allows (no token, no series).
import { Field } from './field'
import { definePayFormMethod, onlyDigits } from './pay-method'

export const mobilePayForm = definePayFormMethod({
  position: 20,
  method: 'mobile',
  type: 'MOBILE',
  label: 'mobile',
  fields: ['phone'],
  check(v, problem) {
    if (!/^\d{10,15}$/.test(onlyDigits(v.phone))) problem('phone', v.phone.trim() ? 'phone.invalid' : 'required')
  },
  values: (v) => ({ phone: onlyDigits(v.phone) }),
  paymentMethod: (v) => ({ type: 'MOBILE', phone: v.phone }),
  Fields: ({ t, register, error, describedBy, invalid }) => (
    <Field id="phone" label={t.phone} hint={t.phoneHint} error={error('phone')}>
      <input
        id="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        aria-invalid={invalid('phone')}
        aria-describedby={describedBy('phone', true)}
        {...register('phone')}
      />
    </Field>
  ),
})

export default mobilePayForm
