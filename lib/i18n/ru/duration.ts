// How long a span of time is, in Russian words: the accusative that follows «на» («на 1 день», «на 2 дня
// 3 часа», «на 1 минуту»), by plural category (`one`, `few`, `many`; `other` is for fractions, never shown).
import type { DurationWords } from '../locale-format'

export const duration: DurationWords = {
  day: { one: 'день', few: 'дня', many: 'дней', other: 'дня' },
  hour: { one: 'час', few: 'часа', many: 'часов', other: 'часа' },
  minute: { one: 'минуту', few: 'минуты', many: 'минут', other: 'минуты' },
  second: { one: 'секунду', few: 'секунды', many: 'секунд', other: 'секунды' },
}
