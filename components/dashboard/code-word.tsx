// The API's codes as the dashboard shows them (issue 33): a status, a method or a flag is its word in the page's
// language, its wire code in the element's title (and `data-code`); a decline reason is a sentence with its code
// beside it in a <code> element, since a merchant matches it with the API's answers and notifications.
import { codeWord } from '@/lib/i18n/code-words'

/** a status, a method, a notification's type or state, a flag: the word, the code in its title */
export function CodeWord({
  code,
  words,
  className,
}: {
  code: string
  words: Record<string, string>
  className?: string
}) {
  return (
    <span className={className ? `dash-word ${className}` : 'dash-word'} title={code} data-code={code}>
      {codeWord(words, code)}
    </span>
  )
}

/** a decline reason: its sentence in the page's words and the code beside it */
export function Reason({ code, words }: { code: string; words: Record<string, string> }) {
  return (
    <span className="dash-reason">
      {Object.hasOwn(words, code) ? `${words[code]} ` : ''}
      <code className="dash-word">{code}</code>
    </span>
  )
}

/** a status with the reason it was declined for, if any */
export function StatusWithReason({
  status,
  reason,
  statusWords,
  reasonWords,
}: {
  status: string
  reason: string | null | undefined
  statusWords: Record<string, string>
  reasonWords: Record<string, string>
}) {
  // one element: a card's row (a table of rows on a phone) holds it in its value's place
  if (!reason) return <CodeWord code={status} words={statusWords} />
  return (
    <span>
      <CodeWord code={status} words={statusWords} /> <Reason code={reason} words={reasonWords} />
    </span>
  )
}
