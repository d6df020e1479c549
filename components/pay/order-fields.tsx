// The bill's fields a link without the API asked the page to show (lib/form-links): each with its value, the payer
// may change those not read-only (sent with the attempt, they become the payment's customFields). Part of the form,
// so the page's script takes them over as rendered.
import type { UseFormRegister } from 'react-hook-form'
import { Field } from '@/lib/pay-form/methods/field'
import type { PayFormInput } from '@/lib/pay-form/methods/pay-method'
import type { OrderFields } from '@/lib/pay-form/pay-page'

/** the form's name of the shown field at `index` (a bill's field names may hold any character) */
export const orderFieldName = (index: number) => `order_${index}`

export function OrderFieldSet({ fields, register }: { fields: OrderFields; register: UseFormRegister<PayFormInput> }) {
  return (
    <fieldset data-testid="order-fields">
      <legend>{fields.title}</legend>
      {fields.list.map((f, i) => {
        const id = orderFieldName(i)
        return (
          <Field key={id} id={id} label={f.name} hint={f.readonly ? fields.readonlyNote : undefined} error="">
            <input
              id={id}
              defaultValue={f.value}
              maxLength={2048}
              autoComplete="off"
              {...(f.readonly ? { readOnly: true, 'aria-describedby': `${id}-hint` } : register(id))}
            />
          </Field>
        )
      })}
    </fieldset>
  )
}
