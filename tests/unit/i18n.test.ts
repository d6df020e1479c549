// The languages (lib/i18n): every language has every text of English in every dictionary, with the same
// placeholders; its duration words cover its plural rules; and the list, the choice of language and the locales
// agree, each surface writing dates and amounts as it always has.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { chooseLanguage } from '../../lib/i18n/choose-language.ts'
import { payPageAmount, payPageDeadline, shownAmount, shownDuration, shownTime } from '../../lib/i18n/format.ts'
import { DEFAULT_LANG, LANGUAGES, localeOf, payPageLocaleOf, textsOf, type Lang } from '../../lib/i18n/languages.ts'
import { localTime, timeInZone } from '../../lib/i18n/locale-format.ts'

// the formats below are read in UTC (settings() is read at its first use, after this line)
process.env.SERVICE_TIME_ZONE = 'UTC'

const LANGS = Object.keys(LANGUAGES) as Lang[]
const OTHERS = LANGS.filter((l) => l !== 'en')

// maps whose English is empty on purpose: they put the service's own English messages into another language
const TRANSLATIONS_OF_ENGLISH = new Set(['settings.urlReasons', 'settings.clockReasons'])

type Tree = { [key: string]: string | Tree }

/** every text of a dictionary by its path (`payForm.errors.required`) */
function texts(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(path, value)
    else if (!TRANSLATIONS_OF_ENGLISH.has(path)) for (const [p, v] of texts(value, path)) out.set(p, v)
  }
  return out
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

test('every language has exactly the texts of English, in every dictionary, with the same placeholders', () => {
  assert.ok(OTHERS.length > 0)
  const { duration: _enDuration, ...english } = textsOf('en')
  const en = texts(english)
  assert.ok(en.size > 250, `only ${en.size} English texts found`)
  for (const lang of OTHERS) {
    const { duration: _duration, ...dictionaries } = textsOf(lang)
    assert.deepEqual(Object.keys(dictionaries).sort(), Object.keys(english).sort(), `${lang}: its dictionaries`)
    const other = texts(dictionaries)
    assert.deepEqual([...other.keys()].sort(), [...en.keys()].sort(), `${lang}: its texts`)
    for (const [path, text] of en) {
      assert.ok(other.get(path), `${lang}: ${path} is empty`)
      assert.deepEqual(placeholders(other.get(path)!), placeholders(text), `${lang}: the placeholders of ${path}`)
    }
  }
})

test("the service's English messages translated keep their {n}; English shows them as they come", () => {
  for (const lang of LANGS) {
    const { urlReasons, clockReasons } = textsOf(lang).settings
    if (lang === 'en') assert.deepEqual({ ...urlReasons, ...clockReasons }, {})
    for (const [english, translated] of Object.entries(clockReasons))
      assert.deepEqual(placeholders(translated), placeholders(english), `${lang}: ${english}`)
  }
})

test("every language's duration words have a form for each plural category of its locale", () => {
  for (const lang of LANGS) {
    const categories = new Intl.PluralRules(localeOf(lang)).resolvedOptions().pluralCategories
    for (const [unit, forms] of Object.entries(textsOf(lang).duration))
      assert.deepEqual(Object.keys(forms).sort(), [...categories].sort(), `${lang}: ${unit}`)
  }
  assert.equal(shownDuration(2 * 86_400_000 + 3_600_000, 'en'), '2 days 1 hour')
  assert.equal(shownDuration(21 * 86_400_000 + 5 * 3_600_000, 'ru'), '21 день 5 часов')
})

test('the list, the choice and the locales agree', () => {
  assert.ok(LANGS.includes(DEFAULT_LANG))
  for (const lang of LANGS) {
    // a language's locales are of that language, and choosing by either of them (or the bare tag) finds it
    for (const locale of [localeOf(lang), payPageLocaleOf(lang)]) {
      assert.equal(new Intl.Locale(locale).language, lang, locale)
      assert.equal(Intl.DateTimeFormat.supportedLocalesOf(locale)[0], locale, `${locale}: not in this ICU`)
      assert.equal(chooseLanguage(`${locale},fr;q=0.9`), lang)
    }
    assert.equal(chooseLanguage(`xx, ${lang.toUpperCase()};q=0.5`), lang)
  }
  // nothing the service speaks, or only prototype keys: the default
  for (const header of [undefined, null, '', 'fr', 'constructor, __proto__;q=0.9, hasOwnProperty', 'ru;q=0'])
    assert.equal(chooseLanguage(header), DEFAULT_LANG, String(header))
  assert.equal(chooseLanguage('en;q=0.5, ru-RU;q=0.9'), 'ru')
  assert.equal(chooseLanguage('ru;q=0.9, en;q=0.9'), 'ru')
})

test('each surface writes dates and amounts as it always has', () => {
  const at = new Date('2026-07-05T15:04:05Z')
  // the dashboard: English the British way
  assert.equal(shownTime(at, 'en'), '5 Jul 2026, 15:04:05')
  assert.equal(shownTime(at, 'ru'), '5 июл. 2026 г., 15:04:05')
  assert.equal(shownAmount(149_000, 'USD', 'en'), 'US$1,490.00')
  assert.equal(shownAmount(149_000, 'RUB', 'en'), 'RUB\u00a01,490.00')
  assert.equal(shownAmount(149_000, 'RUB', 'ru'), '1\u00a0490,00\u00a0₽')
  // what the dashboard's browser components write with the locale their page hands them
  assert.equal(timeInZone(at, localeOf('en'), 'UTC'), shownTime(at, 'en'))
  assert.equal(timeInZone(at, localeOf('ru'), 'UTC'), shownTime(at, 'ru'))
  assert.match(localTime(at.toISOString(), localeOf('en')), /^\d{1,2} Jul 2026, \d\d:\d\d$/)
  // the payment page: English the American way
  assert.equal(payPageDeadline(at, 'en'), 'July 5, 2026 at 3:04 PM')
  assert.equal(payPageDeadline(at, 'ru'), '5 июля 2026 г. в 15:04')
  assert.equal(payPageAmount(149_000, 'USD', 'en'), '$1,490.00')
  assert.equal(payPageAmount(1_000, 'RUB', 'ru'), '10,00\u00a0₽')
})

test("each payment-page method's words are the page's as given (no key shared), its tab and refusal named", async () => {
  const { payFormMethods } = await import('../../lib/pay-form/methods/index.ts')
  for (const lang of LANGS) {
    const { payMethods } = (await import(`../../lib/i18n/${lang}/pay-methods/registered.generated.ts`)) as {
      payMethods: Record<string, Record<string, Record<string, string>>>
    }
    const t = textsOf(lang).payForm as unknown as Record<string, string> & { errors: Record<string, string> }
    const seen = new Set<string>()
    for (const [method, parts] of Object.entries(payMethods))
      for (const [part, words] of Object.entries(parts)) {
        const inErrors = part === 'errors' || part === 'refusals'
        for (const [key, text] of Object.entries(words)) {
          const where = `${inErrors ? 'errors.' : ''}${key}`
          assert.ok(!seen.has(where), `${lang}: ${method}'s ${where} is another method's too`)
          seen.add(where)
          assert.equal((inErrors ? t.errors : t)[key], text, `${lang}: ${method}'s ${where} is another text's key`)
        }
      }
    for (const m of payFormMethods) assert.ok(t[m.label], `${lang}: ${m.method}'s tab`)
    // every method but the default (offered on every bill) may be refused on a bill
    for (const m of payFormMethods.slice(1))
      assert.ok(t.errors[`${m.method}.unavailable`], `${lang}: ${m.method}.unavailable`)
  }
})
