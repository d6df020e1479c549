// How long a span of time is, in English words ("2 days 3 hours", "1 minute"): each unit's forms by plural
// category of the language's locale (Intl.PluralRules; English has two, `one` and `other`).
import type { DurationWords } from '../locale-format'

export const duration: DurationWords = {
  day: { one: 'day', other: 'days' },
  hour: { one: 'hour', other: 'hours' },
  minute: { one: 'minute', other: 'minutes' },
  second: { one: 'second', other: 'seconds' },
}
