// How far a site's sandbox clock runs ahead, as the dashboard says it: days, hours and minutes (seconds
// only under a minute), in English and in the Russian forms that follow «на»; and the service's
// refusals of an advance put into Russian, their numbers kept.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { clockReason } from '../../lib/i18n/code-words.ts'
import { shownDuration } from '../../lib/i18n/format.ts'
import { textsOf } from '../../lib/i18n/languages.ts'

const S = 1000
const M = 60 * S
const H = 60 * M
const D = 24 * H

test('in English: the units that are not zero, largest first', () => {
  assert.equal(shownDuration(D, 'en'), '1 day')
  assert.equal(shownDuration(2 * D + 3 * H, 'en'), '2 days 3 hours')
  assert.equal(shownDuration(16 * M, 'en'), '16 minutes')
  assert.equal(shownDuration(D + 5 * M, 'en'), '1 day 5 minutes')
  assert.equal(shownDuration(3650 * D, 'en'), '3650 days')
  // an advance `to` a date-time leaves milliseconds: whole minutes are shown
  assert.equal(shownDuration(2 * D + 3 * H + 4 * M + 59.873 * S, 'en'), '2 days 3 hours 4 minutes')
  assert.equal(shownDuration(H + 30 * S, 'en'), '1 hour')
  // under a minute: seconds, never "0"
  assert.equal(shownDuration(45 * S, 'en'), '45 seconds')
  assert.equal(shownDuration(1 * S, 'en'), '1 second')
  assert.equal(shownDuration(120, 'en'), '1 second')
})

test('in Russian: the forms after «на» (one, few, many)', () => {
  assert.equal(shownDuration(D, 'ru'), '1 день')
  assert.equal(shownDuration(2 * D + 3 * H, 'ru'), '2 дня 3 часа')
  assert.equal(shownDuration(5 * D + 21 * H + M, 'ru'), '5 дней 21 час 1 минуту')
  assert.equal(shownDuration(11 * H + 22 * M, 'ru'), '11 часов 22 минуты')
  assert.equal(shownDuration(21 * D + 11 * M, 'ru'), '21 день 11 минут')
  assert.equal(shownDuration(31 * S, 'ru'), '31 секунду')
  assert.equal(shownDuration(44 * S, 'ru'), '44 секунды')
})

test('the service’s refusals in Russian, the limit’s number kept; others as they come', () => {
  const ru = textsOf('ru').settings
  assert.equal(
    clockReason(ru, "would take the site's clock more than 3650 days ahead of real time"),
    'часы сайта ушли бы вперёд от реального времени больше чем на 3650 дней',
  )
  assert.equal(
    clockReason(ru, 'must be at least 1: the clock only moves forward'),
    'нужно не меньше 1: часы идут только вперёд',
  )
  assert.equal(clockReason(ru, 'something new'), 'something new')
  assert.equal(
    clockReason(textsOf('en').settings, "would take the site's clock more than 3650 days ahead of real time"),
    "would take the site's clock more than 3650 days ahead of real time",
  )
})
