// A resource's own key–value data in the dashboard (a customer, custom fields): each name (in the page's words when it
// has them, else as sent, kept on one line), and its value as text that wraps between words only; a value that is not
// a string is shown as JSON.
import { Fragment } from 'react'
import { Words } from './words'

/** the object's members that have a value, in its order (nothing for what is not an object) */
export const fieldsOf = (o: unknown): [string, unknown][] =>
  o && typeof o === 'object' ? Object.entries(o as Record<string, unknown>).filter(([, v]) => v != null) : []

export function FieldList({
  fields,
  names = {},
  testId,
}: {
  fields: [string, unknown][]
  names?: Record<string, string>
  testId?: string
}) {
  return (
    <dl data-testid={testId}>
      {fields.map(([k, v]) => (
        <Fragment key={k}>
          <dt>
            <span className="dash-word">{Object.hasOwn(names, k) ? names[k] : k}</span>
          </dt>
          <dd>
            <Words text={typeof v === 'string' ? v : JSON.stringify(v)} />
          </dd>
        </Fragment>
      ))}
    </dl>
  )
}
