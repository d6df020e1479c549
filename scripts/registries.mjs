// Writes the registries' lists of modules, so that a new payment method, flow or language's words add files and
// edit no list: each folder below gets a `registered.generated.ts` importing every module in it (a module is a
// file whose default export is its definition). Run by scripts/bootstrap.mjs, i.e. before every npm script; a file
// is rewritten only when its text changes (a watching dev server or tsc sees no change otherwise). Git ignores them.
import fs from 'node:fs'
import path from 'node:path'

const HEADER =
  '// Written by scripts/registries.mjs (run by every npm script) from the modules beside it: do not edit; add a\n' +
  '// module (a file whose default export is its definition) and run any npm script.\n'

/** the folders whose modules are listed, each by its registry (the folder's index.ts) */
const MODULE_FOLDERS = ['lib/payments/methods', 'lib/payments/flows', 'lib/pay-form/methods']

/** each language's words of the page's methods: lib/i18n/<lang>/pay-methods/<method>.ts; English is the shape */
const WORDS_FOLDER = 'pay-methods'
const REFERENCE_LANGUAGE = 'en'

/** the module's name in the generated file: its file name in camelCase, `_`-prefixed where that is no identifier */
const identifier = (name) => {
  const camel = name.replace(/[-.]([a-zA-Z0-9])/g, (_, c) => c.toUpperCase())
  return /^[A-Za-z_$][\w$]*$/.test(camel) ? camel : `_${camel.replace(/[^\w$]/g, '_')}`
}
const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`)

/** a default export, in either form: `export default x`, `export { x as default }` */
const DEFAULT_EXPORT = /^export\s+default\b|^export\s*\{[^}]*\bas\s+default\b/m

/** the modules of a folder: its .ts/.tsx files with a default export, by file name (no extension) */
export function modulesIn(folder) {
  return fs
    .readdirSync(folder)
    .filter((f) => /\.tsx?$/.test(f) && f !== 'index.ts' && !f.endsWith('.generated.ts'))
    .filter((f) => DEFAULT_EXPORT.test(fs.readFileSync(path.join(folder, f), 'utf8')))
    .map((f) => f.replace(/\.tsx?$/, ''))
    .sort()
}

const imports = (names) => names.map((n) => `import ${identifier(n)} from './${n}'\n`).join('')

function write(file, text) {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null
  if (current !== text) fs.writeFileSync(file, text)
}

export function writeRegistries(root) {
  for (const folder of MODULE_FOLDERS) {
    const dir = path.join(root, folder)
    const names = modulesIn(dir)
    write(
      path.join(dir, 'registered.generated.ts'),
      `${HEADER}${imports(names)}\nexport const modules = [${names.map(identifier).join(', ')}] as const\n`,
    )
  }
  const i18n = path.join(root, 'lib/i18n')
  for (const lang of fs.readdirSync(i18n).sort()) {
    const dir = path.join(i18n, lang, WORDS_FOLDER)
    if (!fs.existsSync(dir)) continue
    const names = modulesIn(dir)
    const object = `{ ${names.map((n) => (key(n) === identifier(n) ? key(n) : `${key(n)}: ${identifier(n)}`)).join(', ')} }`
    const text =
      lang === REFERENCE_LANGUAGE
        ? `${HEADER}${imports(names)}\nexport const payMethods = ${object}\n\nexport type PayMethodsMessages = typeof payMethods\n`
        : `${HEADER}import type { PayMethodsMessages } from '../../${REFERENCE_LANGUAGE}/${WORDS_FOLDER}/registered.generated'\n` +
          `${imports(names)}\nexport const payMethods: PayMethodsMessages = ${object}\n`
    write(path.join(dir, 'registered.generated.ts'), text)
  }
}
