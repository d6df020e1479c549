// Codes and the service's English messages put into a page's words, given that page's dictionary (so the
// browser's components use them without any other language's words): the payment page's error codes, the settings'
// refusals, and the dashboard's statuses, methods, reasons, flags and service messages (en/codes.ts).
import type { CodeWords } from './en/codes'
import type { PayFormMessages } from './en/pay-form'
import type { SettingsMessages } from './en/settings'
import { fill } from './fill'

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

/** a code of one of the tables (a status, a method, a flag, a reason) in words, or the code itself */
export const codeWord = (table: Record<string, string>, code: string): string =>
  Object.hasOwn(table, code) ? table[code] : code

// each dictionary's messages with placeholders, as patterns, made once
const patterns = new WeakMap<Record<string, string>, { re: RegExp; key: string; names: string[] }[]>()

function patternsOf(messages: Record<string, string>) {
  let list = patterns.get(messages)
  if (!list) {
    list = Object.keys(messages)
      .filter((key) => /\{\w+\}/.test(key))
      .map((key) => {
        const names = [...key.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
        const source = key
          .split(/\{\w+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('(.+?)')
        return { re: new RegExp(`^${source}$`), key, names }
      })
    patterns.set(messages, list)
  }
  return list
}

/**
 * a message of the service's (an answer's description, a field message, a delivery attempt's error) in the page's
 * words: a known message, or one with a number or a detail in it (`no answer within 10000 ms`); else as it is
 */
export function serviceMessage(words: CodeWords, text: string): string {
  if (Object.hasOwn(words.messages, text)) return words.messages[text]
  for (const { re, key, names } of patternsOf(words.messages)) {
    const m = re.exec(text)
    if (m) return fill(words.messages[key], Object.fromEntries(names.map((name, i) => [name, m[i + 1]])))
  }
  return text
}

/** several messages of a field (an answer's `cause`), each in the page's words, joined */
export const serviceMessages = (words: CodeWords, texts: string[]) =>
  texts.map((text) => serviceMessage(words, text)).join('; ')
