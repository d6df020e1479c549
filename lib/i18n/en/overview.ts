// The words of the dashboard's overview in English (its first page): the charts' titles, what each counts, their
// summaries (the charts' accessible names) and their tables. `{…}` are filled by the page.
export const overview = {
  title: 'Overview',
  intro: 'The last {days} days on the site’s clock: {first} to {last}, days as in {zone}. Counted at {now}.',
  asTable: 'As a table',
  day: 'Day',
  count: 'Payments',
  share: 'Share',
  countTitle: 'Payments per day',
  countHelp: 'Every payment made that day, whatever its status.',
  countSummary: 'Bar chart: {total} payments in {days} days; the most on {day}: {max}.',
  countMax: 'Most in a day: {max}',
  allPayments: 'All payments',
  paidTitle: 'Authorised per day, {currency}',
  paidHelp:
    'The amounts of the payments made that day that succeeded, each in full, in {currency}: charged at once, or held (whether captured, released or still open: see a payment’s Captured and Refunded). Captures of less, releases and refunds are not taken off.',
  paidSummary: 'Bar chart: {total} authorised in {days} days; the most on {day}: {max}.',
  paidMax: 'Most in a day: {max}',
  paidColumn: 'Authorised, {currency}',
  paidPayments: 'Successful payments',
  noPayments: 'No payments in these days.',
  completedTitle: 'Successful among finished payments',
  completedHelp:
    'The payments made in these days that succeeded (charged, or authorised and held), among those that are finished: succeeded or declined. Payments still waiting are not counted.',
  completedSummary: '{share} of finished payments succeeded: {completed} succeeded, {declined} declined.',
  successful: 'Successful',
  completedNone: 'No payment made in these days has finished yet.',
  waiting: 'Still waiting, not counted: {n}',
  declinedPayments: 'Declined payments',
  reasonsTitle: 'Top decline reasons',
  reasonsHelp: 'Why the payments made in these days were declined, most frequent first ({top} at most).',
  reasonsSummary: 'Bar chart: {total} payments declined; the most frequent reason: {reason}, {count}.',
  reasonsNone: 'No payment made in these days was declined.',
  rank: 'No.',
  reason: 'Reason',
  otherReasons: 'Other reasons',
  deliveryTitle: 'Notification delivery',
  deliveryHelp:
    'The notifications made in these days, by how their delivery stands: delivered (answered with a 2xx), pending (its first attempt or a retry to come), failed (every attempt failed).',
  deliverySummary: 'Bar chart: {total} notifications: {delivered} delivered, {pending} pending, {failed} failed.',
  deliveryNone: 'No notifications were made in these days.',
  state: 'State',
  notifications: 'Notifications',
  showState: '{state}: the list',
}

export type OverviewMessages = typeof overview
