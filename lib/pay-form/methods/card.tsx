// The payment page's card: number (grouped as typed, its brand beside the label), expiry as MM/YY and CVV,
// checked as the sandbox acquirer checks them (Luhn; the expiry month by the site's sandbox clock). Pays with CARD.
import { isExpired, luhnValid, parseExpiry } from '../../acquirer/sandbox-acquirer'
import { Field } from './field'
import { definePayFormMethod, onlyDigits } from './pay-method'

/** `4111 1111 1111 1111` as typed */
export function groupCardNumber(text: string): string {
  return onlyDigits(text)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ')
}

/** `12/30` as typed */
export function formatExpiry(text: string): string {
  const d = text.replace(/\D/g, '').slice(0, 4)
  return d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d
}

export function cardBrand(pan: string): 'Visa' | 'Mastercard' | 'Mir' | null {
  const d = onlyDigits(pan)
  if (/^4/.test(d)) return 'Visa'
  if (/^220[0-4]/.test(d)) return 'Mir'
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(d)) return 'Mastercard'
  return null
}

export const cardPayForm = definePayFormMethod({
  position: 10,
  method: 'card',
  type: 'CARD',
  label: 'card',
  fields: ['pan', 'expiry', 'cvv'],
  check(v, problem, now) {
    const pan = onlyDigits(v.pan)
    if (!pan) problem('pan', 'required')
    else if (!luhnValid(pan)) problem('pan', 'pan.invalid')
    const expiry = parseExpiry(v.expiry.trim())
    if (!v.expiry.trim()) problem('expiry', 'required')
    else if (!expiry) problem('expiry', 'expiry.invalid')
    else if (isExpired(expiry, now())) problem('expiry', 'expiry.past')
    if (!v.cvv) problem('cvv', 'required')
    else if (!/^\d{3,4}$/.test(v.cvv)) problem('cvv', 'cvv.invalid')
  },
  values: (v) => ({ pan: onlyDigits(v.pan), expiry: v.expiry.trim(), cvv: v.cvv }),
  paymentMethod: (v) => ({ type: 'CARD', pan: v.pan, expiryDate: v.expiry, cvv2: v.cvv }),
  notKept: ['pan', 'cvv', 'expiry'],
  // production's test cards of months 03 and 04: the bank answers a few seconds later
  waiting: 'cardWaiting',
  shownAsTyped: ({ pan, expiry }) => ({
    ...(pan ? { pan: groupCardNumber(pan) } : {}),
    ...(expiry ? { expiry: formatExpiry(expiry) } : {}),
  }),
  Fields({ t, register, error, describedBy, invalid, watched }) {
    const pan = register('pan')
    const expiry = register('expiry')
    const brand = cardBrand(watched('pan'))
    return (
      <>
        <Field
          id="pan"
          label={t.cardNumber}
          error={error('pan')}
          extra={
            brand ? (
              <span className="pay-brand" data-testid="brand">
                {brand}
              </span>
            ) : null
          }
        >
          <input
            id="pan"
            inputMode="numeric"
            autoComplete="cc-number"
            maxLength={23}
            placeholder="0000 0000 0000 0000"
            aria-invalid={invalid('pan')}
            aria-describedby={describedBy('pan')}
            {...pan}
            onChange={(e) => {
              e.target.value = groupCardNumber(e.target.value)
              return pan.onChange(e)
            }}
          />
        </Field>
        <div className="pay-row">
          <Field id="expiry" label={t.expiry} error={error('expiry')}>
            <input
              id="expiry"
              inputMode="numeric"
              autoComplete="cc-exp"
              maxLength={5}
              placeholder="MM/YY"
              aria-invalid={invalid('expiry')}
              aria-describedby={describedBy('expiry')}
              {...expiry}
              onChange={(e) => {
                e.target.value = formatExpiry(e.target.value)
                return expiry.onChange(e)
              }}
            />
          </Field>
          <Field id="cvv" label={t.cvv} error={error('cvv')}>
            <input
              id="cvv"
              type="password"
              inputMode="numeric"
              autoComplete="cc-csc"
              maxLength={4}
              aria-invalid={invalid('cvv')}
              aria-describedby={describedBy('cvv', true)}
              {...register('cvv')}
            />
          </Field>
        </div>
        <div className="pay-hint" id="cvv-hint">
          {t.cvvHint}
        </div>
      </>
    )
  },
})

export default cardPayForm
