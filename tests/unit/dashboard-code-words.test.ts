// The dashboard's code words (lib/i18n/<lang>/codes.ts): every code of every table the service defines (statuses,
// methods, flags, decline reasons, notifications' types and states) has words in every language, so a new code
// without them fails here; the service's messages are put into the page's words, numbers and details kept; amount
// fields hold amounts in the language's format and take either decimal sign back.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CODE_TABLES } from '../../lib/dashboard/dashboard-codes.ts'
import { codeWord, serviceMessage } from '../../lib/i18n/code-words.ts'
import { LANGUAGES, localeOf, textsOf, type Lang } from '../../lib/i18n/languages.ts'
import { amountFieldValue, amountFromField, isAmountField } from '../../lib/i18n/locale-format.ts'
import { parseAmountValue } from '../../lib/money/amount-value.ts'

const LANGS = Object.keys(LANGUAGES) as Lang[]

test('every code of every table has words in every language, and only codes of the table have words', () => {
  assert.ok(LANGS.length >= 2)
  for (const [table, codes] of Object.entries(CODE_TABLES)) {
    assert.ok(codes.length > 0, `${table}: no codes`)
    for (const lang of LANGS) {
      const words = textsOf(lang).codes[table as keyof typeof CODE_TABLES]
      for (const code of codes) assert.ok(words[code]?.trim(), `${lang}: ${table}.${code} has no words`)
      assert.deepEqual(Object.keys(words).sort(), [...codes].sort(), `${lang}: ${table} has words for other codes`)
    }
  }
})

test('the words of a code are not the code itself, and Russian words are not English ones', () => {
  for (const [table, codes] of Object.entries(CODE_TABLES))
    for (const code of codes) {
      const ru = codeWord(textsOf('ru').codes[table as keyof typeof CODE_TABLES], code)
      const en = codeWord(textsOf('en').codes[table as keyof typeof CODE_TABLES], code)
      assert.notEqual(ru, code, `ru: ${table}.${code}`)
      // brand names are written alike (Apple Pay); everything else is in Cyrillic
      if (ru !== en) assert.match(ru, /[а-яё]/i, `ru: ${table}.${code} is not Russian`)
    }
})

test('a code without words is shown as it is; no inherited property is a word', () => {
  const { codes } = textsOf('ru')
  assert.equal(codeWord(codes.paymentStatus, 'COMPLETED'), 'Оплачен')
  assert.equal(codeWord(codes.method, 'CARD'), 'Карта')
  assert.equal(codeWord(codes.paymentStatus, 'NEW_STATUS'), 'NEW_STATUS')
  assert.equal(codeWord(codes.paymentStatus, 'constructor'), 'constructor')
})

test("the service's messages in the page's words: exact, with a number, with a detail; unknown ones as they are", () => {
  const { codes } = textsOf('ru')
  assert.equal(serviceMessage(codes, 'Successful capture already done for this payment'), 'Платёж уже успешно списан')
  assert.equal(serviceMessage(codes, 'no answer within 10000 ms'), 'нет ответа за 10000 мс')
  assert.equal(
    serviceMessage(codes, 'could not connect: connect ECONNREFUSED'),
    'не удалось подключиться: connect ECONNREFUSED',
  )
  assert.equal(serviceMessage(codes, "must be the payment's currency RUB"), 'должна быть валютой платежа, RUB')
  // Node's codes of a failed connection in words, the address kept
  assert.equal(
    serviceMessage(codes, 'could not connect: connect ECONNREFUSED 127.0.0.1:4999'),
    'не удалось подключиться: соединение отклонено (127.0.0.1:4999)',
  )
  assert.equal(
    serviceMessage(textsOf('en').codes, 'could not connect: getaddrinfo ENOTFOUND shop.example'),
    'could not connect: no such host (shop.example)',
  )
  // the limits of what a form sends, whatever the number (the bill's comment is 1024 characters at most)
  assert.equal(serviceMessage(codes, 'must be at most 1024 characters'), 'должно быть не длиннее 1024 символов')
  assert.equal(serviceMessage(codes, 'must be at most 120 (5 days)'), 'должно быть не больше 120 (5 дней)')
  assert.equal(serviceMessage(codes, 'must be at most 45 days ahead'), 'должен быть не дальше 45 дней вперёд')
  assert.equal(serviceMessage(codes, 'something new'), 'something new')
  // English shows them as they come (but Node's words for a failed connection)
  for (const text of Object.keys(textsOf('en').codes.messages).filter((k) => !k.includes('{')))
    if (text !== 'must be a decimal number in plain notation, e.g. "100.00"' && !text.startsWith('could not connect:'))
      assert.equal(serviceMessage(textsOf('en').codes, text), text)
})

test("amount fields: the language's decimal sign, no grouping; either sign is taken back", () => {
  assert.equal(amountFieldValue(123450n, localeOf('ru')), '1234,50')
  assert.equal(amountFieldValue(123450n, localeOf('en')), '1234.50')
  assert.equal(amountFieldValue(123456789n, localeOf('ru')), '1234567,89')
  assert.equal(amountFieldValue(5, localeOf('ru')), '0,05')
  for (const lang of LANGS)
    for (const minor of [1, 99, 100, 123450, 100_000_000_000])
      assert.deepEqual(parseAmountValue(amountFromField(amountFieldValue(minor, localeOf(lang)))), { ok: true, minor })
  assert.equal(amountFromField(' 1234,50 '), '1234.50')
  // what the forms send: above zero, at most two decimals (the API would round 12,345 down without a word)
  for (const text of ['10', '10,5', ' 1234.50 ', '0,01']) assert.ok(isAmountField(text), text)
  for (const text of ['0', '0,00', '00.0', '12,345', '1 234,50', '-1', '', '10.']) assert.ok(!isAmountField(text), text)
  assert.equal(amountFromField('1234.50'), '1234.50')
})
