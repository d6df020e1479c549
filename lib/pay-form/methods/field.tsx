// One labelled field of the payment form: its label (with anything beside it, such as the card's brand), the
// input, a hint and the error. Used by the form and by each method's fields.
import type { ReactNode } from 'react'

export function Field({
  id,
  label,
  hint,
  error,
  extra,
  children,
}: {
  id: string
  label: string
  hint?: string
  error: string
  extra?: ReactNode
  children: ReactNode
}) {
  return (
    <div className="pay-field">
      <label htmlFor={id}>
        <span>{label}</span>
        {extra}
      </label>
      {children}
      {hint && (
        <div className="pay-hint" id={`${id}-hint`}>
          {hint}
        </div>
      )}
      {error && (
        <div className="pay-error" id={`${id}-error`}>
          {error}
        </div>
      )}
    </div>
  )
}
