// Whether a run of local days can be read from counts kept per UTC hour without splitting an hour: true when every
// local midnight of the days falls on a whole UTC hour, as in every zone whose offset is whole hours (Moscow, New York
// through its daylight saving). India, Nepal, Newfoundland or Adelaide are offset by a half or a quarter hour, so their
// midnights split an hour (lib/db/hour-stats.ts).
import { offsetMinutes } from './wire-time'

// a zone's offset is sampled this often over the days: no zone keeps an offset off the hour for a shorter time
const SAMPLE_MS = 6 * 3600_000
// a local midnight lies within 14 hours of the UTC midnight of its date (offsets run from -12:00 to +14:00)
const REACH_MS = 14 * 3600_000

// the last answer per zone: the overview asks about the same 30 days all day long, and sampling costs ~0.5 ms
const lastAnswer = new Map<string, { key: string; onTheHour: boolean }>()

/** whether every local midnight from `first` (YYYY-MM-DD) to `days` days after it falls on a whole UTC hour */
export function midnightsOnTheHour(first: string, days: number, timeZone: string): boolean {
  if (timeZone === 'UTC') return true
  // only a zone's full name (Region/City) means the same zone here and in PostgreSQL, which reads a name without a
  // slash as an abbreviation first: 'NST' is -03:30 there and Pacific/Auckland to Intl. Any other name is answered
  // the general way, which is right for every zone.
  if (!timeZone.includes('/')) return false
  const key = `${first}+${days}`
  const last = lastAnswer.get(timeZone)
  if (last?.key === key) return last.onTheHour
  const from = Date.parse(`${first}T00:00:00Z`) - REACH_MS
  const to = from + days * 86_400_000 + 2 * REACH_MS
  let onTheHour = true
  for (let t = from; t <= to && onTheHour; t += SAMPLE_MS) onTheHour = offsetMinutes(new Date(t), timeZone) % 60 === 0
  lastAnswer.set(timeZone, { key, onTheHour })
  return onTheHour
}
