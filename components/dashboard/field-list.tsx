// A resource's own key–value data in the dashboard (a customer, custom fields): each name, and its value as text that
// wraps between words only; a value that is not a string is shown as JSON.
import { Fragment } from 'react'
import { Words } from './words'

/** the object's members that have a value, in its order (nothing for what is not an object) */
export const fieldsOf = (o: unknown): [string, unknown][] =>
  o && typeof o === 'object' ? Object.entries(o as Record<string, unknown>).filter(([, v]) => v != null) : []

export function FieldList({ fields, testId }: { fields: [string, unknown][]; testId?: string }) {
  return (
    <dl data-testid={testId}>
      {fields.map(([k, v]) => (
        <Fragment key={k}>
          <dt>{k}</dt>
          <dd>
            <Words text={typeof v === 'string' ? v : JSON.stringify(v)} />
          </dd>
        </Fragment>
      ))}
    </dl>
  )
}
