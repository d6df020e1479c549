// Codes and the service's English field messages put into a page's words, given that page's dictionary (so the
// browser's components use them without any other language's words).
import type { PayFormMessages } from './en/pay-form'
import type { SettingsMessages } from './en/settings'

/** the payment page: a field error code (`pan.invalid`, `code.wrong:2`, `bill.paused:<seconds>`) in words */
export function errorText(t: PayFormMessages, code: string | undefined): string {
  if (!code) return ''
  const [key, n] = code.split(':')
  const text = (t.errors as Record<string, string>)[key] ?? t.somethingWrong
  // the attempt limits tell seconds; the payer reads minutes
  const shown =
    n && (key === 'bill.paused' || key === 'client.slowed') ? String(Math.max(1, Math.ceil(Number(n) / 60))) : n
  return shown ? text.replace('{n}', shown) : text
}

/** settings: a field message of the service's (or of the form's own check) in the page's words */
export const urlReason = (t: SettingsMessages, reason: string) => t.urlReasons[reason] ?? reason

/** settings: a refusal of the clock's advance (a field message of the service's, in English) in the page's words */
export function clockReason(t: SettingsMessages, reason: string): string {
  const n = /\d+/.exec(reason)?.[0] ?? ''
  const shown = t.clockReasons[reason.replace(/\d+/, '{n}')]
  return shown ? shown.replace('{n}', n) : reason
}

/** settings: an audit entry's outcome in the page's words ("refused: <the service's reason>" included) */
export function shownOutcome(t: SettingsMessages, outcome: string): string {
  if (t.outcomes[outcome]) return t.outcomes[outcome]
  const refused = /^refused: (.*)$/.exec(outcome)
  return refused ? t.refused.replace('{reason}', urlReason(t, refused[1])) : outcome
}
