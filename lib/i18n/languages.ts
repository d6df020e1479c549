// The languages the service speaks, each with its Intl locale and its words. Adding one is its folder (a copy of
// en/, translated, its index annotated with `Texts`) and its line here, with the folder's import; its plural
// rules are its locale's (Intl.PluralRules, see locale-format.ts). Server side only: it holds every dictionary.
import { en, type Texts } from './en'
import { ru } from './ru'

interface Language {
  /** the Intl locale of the language's dates, amounts and plurals */
  locale: string
  /** the payment page's locale, where it is not `locale` */
  payPageLocale?: string
  texts: Texts
}

// English is written the British way on the dashboard (5 Jul 2026, 15:04:05; US$10.00) and, as it always
// was, the American way on the payment page (July 5, 2026 at 3:04 PM; $10.00). No Intl option turns one
// into the other (the order of day and month is the locale's own), so each surface keeps its own.
const LIST = {
  en: { locale: 'en-GB', payPageLocale: 'en-US', texts: en },
  ru: { locale: 'ru-RU', texts: ru },
} satisfies Record<string, Language>

export type Lang = keyof typeof LIST

export const LANGUAGES: Readonly<Record<Lang, Language>> = LIST

/** the language of a request that names none of the service's */
export const DEFAULT_LANG: Lang = 'en'

export const isLang = (tag: string): tag is Lang => Object.hasOwn(LANGUAGES, tag)

export const textsOf = (lang: Lang): Texts => LANGUAGES[lang].texts

export const localeOf = (lang: Lang): string => LANGUAGES[lang].locale

export const payPageLocaleOf = (lang: Lang): string => LANGUAGES[lang].payPageLocale ?? LANGUAGES[lang].locale
