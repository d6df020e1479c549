// The registries list their folders' modules (scripts/registries.mjs, run by every npm script): a new payment
// method, flow or page method is a file beside the others, and a language's words of a page method a file in its
// pay-methods/ folder; no list is edited by hand. Each registry orders its modules by their declared `position`.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
// @ts-expect-error: a plain .mjs module (it runs before node_modules exists)
import { modulesIn, writeRegistries } from '../../scripts/registries.mjs'

process.env.SECRET_KEY = 'registries-unit-test-key'

const { inPositionOrder } = await import('../../lib/registered.ts')
const { PAYMENT_METHODS } = await import('../../lib/payments/methods/index.ts')
const { PAYMENT_FLOWS } = await import('../../lib/payments/flows/index.ts')
const { PAY_FORM_METHODS } = await import('../../lib/pay-form/methods/index.ts')

test('every file that defines a method, flow or page method is registered (a definition without its export is not)', () => {
  for (const [folder, define, list] of [
    ['lib/payments/methods', 'definePaymentMethod(', PAYMENT_METHODS],
    ['lib/payments/flows', 'definePaymentFlow(', PAYMENT_FLOWS],
    ['lib/pay-form/methods', 'definePayFormMethod(', PAY_FORM_METHODS],
  ] as const) {
    const defining = fs
      .readdirSync(folder)
      .filter((f) => /\.tsx?$/.test(f) && fs.readFileSync(path.join(folder, f), 'utf8').includes(`= ${define}`))
    assert.equal(list.length, defining.length, `${folder}: ${defining.join(', ')} define ${list.length} registered`)
  }
})

test("every module in a registry's folder is registered, in the order of its position", () => {
  for (const [folder, list] of [
    ['lib/payments/methods', PAYMENT_METHODS],
    ['lib/payments/flows', PAYMENT_FLOWS],
    ['lib/pay-form/methods', PAY_FORM_METHODS],
  ] as const) {
    assert.equal(list.length, modulesIn(folder).length, `${folder}: a module is not registered`)
    const positions = list.map((m) => m.position)
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
      `${folder}: not in position order`,
    )
  }
  // the order the API has always listed (its "must be one of" message) and the page's tabs, the card first; a
  // method added later finds its place by its position
  const known = (names: string[], of: string[]) => names.filter((n) => of.includes(n))
  const types = PAYMENT_METHODS.map((m) => m.type)
  assert.deepEqual(known(types, ['CARD', 'TOKEN', 'RECURRENT', 'MOBILE']), ['CARD', 'TOKEN', 'RECURRENT', 'MOBILE'])
  const tabs = PAY_FORM_METHODS.map((m) => m.method)
  assert.deepEqual(known(tabs, ['card', 'mobile']), ['card', 'mobile'])
  assert.equal(tabs[0], 'card')
})

test('each page method has its words in every language, in a file named by its method', () => {
  const languages = fs.readdirSync('lib/i18n').filter((d) => fs.existsSync(`lib/i18n/${d}/pay-methods`))
  assert.ok(languages.includes('en') && languages.includes('ru'), `pay-methods/ of ${languages.join(', ')}`)
  for (const lang of languages)
    assert.deepEqual(
      modulesIn(`lib/i18n/${lang}/pay-methods`),
      PAY_FORM_METHODS.map((m) => m.method).sort(),
      `${lang}: the page methods' words`,
    )
})

test('inPositionOrder sorts by position and refuses two modules at one position', () => {
  const a = { position: 20, name: 'a' }
  const b = { position: 10, name: 'b' }
  assert.deepEqual(
    inPositionOrder('things', [a, b]).map((m) => m.name),
    ['b', 'a'],
  )
  assert.throws(() => inPositionOrder('things', [a, { position: 20 }]), /things: two at position 20/)
})

test('a module added to a folder is listed by the next run; a file without a default export is not', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'registries-'))
  try {
    const put = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
      fs.writeFileSync(path.join(root, file), text)
    }
    for (const folder of ['lib/payments/methods', 'lib/payments/flows', 'lib/pay-form/methods']) {
      put(`${folder}/index.ts`, 'export default 1\n')
      put(`${folder}/helper.ts`, 'export const helper = 1\n')
    }
    put('lib/payments/methods/card.ts', 'export default {}\n')
    put('lib/payments/methods/faster-payments.ts', 'const m = {}\n\nexport default m\n')
    put('lib/payments/methods/named.ts', 'const m = {}\nexport { m as default }\n')
    put('lib/payments/methods/3ds-only.ts', 'export default\n  {}\n')
    put('lib/pay-form/methods/card.tsx', 'export default {}\n')
    put('lib/i18n/en/pay-methods/card.ts', 'export default {}\n')
    put('lib/i18n/ru/pay-methods/card.ts', 'export default {}\n')
    put('lib/i18n/en/dashboard.ts', 'export const dashboard = {}\n')

    writeRegistries(root)
    const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8')
    assert.match(
      read('lib/payments/methods/registered.generated.ts'),
      /import fasterPayments from '.\/faster-payments'\nimport named from '.\/named'/,
    )
    assert.match(
      read('lib/payments/methods/registered.generated.ts'),
      /export const modules = \[_3dsOnly, card, fasterPayments, named\]/,
    )
    assert.match(read('lib/payments/flows/registered.generated.ts'), /export const modules = \[\] as const/)
    assert.match(read('lib/pay-form/methods/registered.generated.ts'), /export const modules = \[card\] as const/)
    assert.match(read('lib/i18n/en/pay-methods/registered.generated.ts'), /export const payMethods = \{ card \}/)
    // every other language is typed against English's words
    assert.match(
      read('lib/i18n/ru/pay-methods/registered.generated.ts'),
      /import type \{ PayMethodsMessages \} from '..\/..\/en\/pay-methods\/registered.generated'[^]*payMethods: PayMethodsMessages = \{ card \}/,
    )

    // unchanged text is not rewritten (a watching dev server sees nothing), a new module is
    const file = path.join(root, 'lib/payments/methods/registered.generated.ts')
    fs.utimesSync(file, new Date(0), new Date(0))
    writeRegistries(root)
    assert.equal(fs.statSync(file).mtimeMs, 0)
    put('lib/payments/methods/voucher.ts', 'export default {}\n')
    writeRegistries(root)
    assert.match(
      read('lib/payments/methods/registered.generated.ts'),
      /\[_3dsOnly, card, fasterPayments, named, voucher\]/,
    )
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})
