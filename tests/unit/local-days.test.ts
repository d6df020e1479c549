import assert from 'node:assert/strict'
import { test } from 'node:test'
import { midnightsOnTheHour } from '../../lib/time/local-days.ts'

test('zones offset by whole hours keep their midnights on the hour, through daylight saving too', () => {
  assert.equal(midnightsOnTheHour('2026-10-29', 30, 'UTC'), true)
  assert.equal(midnightsOnTheHour('2026-10-29', 30, 'Europe/Moscow'), true)
  // New York leaves daylight saving on 1 November 2026
  assert.equal(midnightsOnTheHour('2026-10-20', 30, 'America/New_York'), true)
})

test('zones offset by a half or a quarter hour split an hour at each midnight', () => {
  assert.equal(midnightsOnTheHour('2026-10-29', 30, 'Asia/Kolkata'), false)
  assert.equal(midnightsOnTheHour('2026-10-29', 30, 'Asia/Kathmandu'), false)
  assert.equal(midnightsOnTheHour('2026-06-01', 30, 'America/St_Johns'), false)
})

test('a zone off the hour for part of the year is judged by the days asked about', () => {
  // Lord Howe Island: +10:30 in winter, +11:00 from the first Sunday of October (4 October 2026)
  assert.equal(midnightsOnTheHour('2026-11-01', 30, 'Australia/Lord_Howe'), true)
  assert.equal(midnightsOnTheHour('2026-09-20', 30, 'Australia/Lord_Howe'), false)
  // the same zone asked about other days is answered anew, not from the last answer
  assert.equal(midnightsOnTheHour('2026-11-01', 30, 'Australia/Lord_Howe'), true)
  // back to +10:30 on 5 April 2026
  assert.equal(midnightsOnTheHour('2026-03-20', 30, 'Australia/Lord_Howe'), false)
})

test('a name without a slash may be an abbreviation to PostgreSQL: never taken for on the hour', () => {
  // Intl reads NST as Pacific/Auckland (whole hours), PostgreSQL as Newfoundland's -03:30
  assert.equal(midnightsOnTheHour('2026-10-29', 30, 'NST'), false)
  assert.equal(midnightsOnTheHour('2026-10-29', 30, 'EST'), false)
  assert.equal(midnightsOnTheHour('2026-10-29', 30, 'Etc/GMT+5'), true)
})
