// Text that wraps between its words and never inside one, not even at a hyphen (ids, e-mails and URLs have them):
// a word too long for its box makes the box scroll (dd, td) instead of being broken.
import { Fragment } from 'react'

export function Words({ text }: { text: string }) {
  return text.split(/(\s+)/).map((part, i) =>
    part === '' || /^\s+$/.test(part) ? (
      <Fragment key={i}>{part}</Fragment>
    ) : (
      <span key={i} className="dash-word">
        {part}
      </span>
    ),
  )
}
