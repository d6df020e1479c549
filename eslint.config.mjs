// ESLint: typescript-eslint's recommended rules, React's hook rules and Next.js's (recommended and Core Web
// Vitals) for the pages and components; eslint-config-prettier turns off every rule Prettier owns, and only
// max-len comes back after it, for what Prettier does not wrap (comments, long names).
import js from '@eslint/js'
import nextPlugin from '@next/eslint-plugin-next'
import prettier from 'eslint-config-prettier'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig, globalIgnores } from 'eslint/config'
import * as espree from 'espree'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default defineConfig(
  // generated, built or data (the same as .prettierignore)
  globalIgnores([
    'node_modules/',
    '.next*/',
    'data/',
    'lib/generated/',
    '**/*.generated.ts',
    'public/_pay/',
    'test-results/',
    'playwright-report/',
    'tests/fixtures/',
    'next-env.d.ts',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // the server, scripts and tests run on Node.js; pages and components also run in the browser
    languageOptions: { globals: globals.node },
  },
  {
    // (lib/pay-form/methods: the payment page's methods, with their fields)
    files: ['app/**', 'components/**', 'pages/**', 'lib/pay-form/methods/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    extends: [
      reactHooks.configs.flat.recommended,
      nextPlugin.configs.recommended,
      nextPlugin.configs['core-web-vitals'],
    ],
  },
  {
    rules: {
      // a leading underscore marks a value kept for its position (a destructured field left out, an unused
      // parameter of a callback); a caught error needs no name when the catch only recovers
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // the checkout popup library (GET /popup/v2.js) runs as it is written in merchants' pages, old browsers' too:
    // parsed as ES5, a classic script with the browser's globals (and Promise)
    files: ['lib/popup/*.js'],
    languageOptions: {
      parser: espree,
      ecmaVersion: 5,
      sourceType: 'script',
      globals: { ...globals.browser, Promise: 'readonly' },
    },
  },
  {
    // CommonJS files (the dependency-cruiser configurations) load their modules with require()
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // tests read the service's answers as parsed JSON and assert on whichever fields they check: `any`,
    // what JSON.parse gives, is the honest type there (and an unexpected shape fails the test anyway)
    files: ['tests/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
  {
    // after eslint-config-prettier, which turns max-len off: Prettier wraps code at 120 columns but leaves
    // comments and unbreakable lines alone; strings, template literals, regular expressions and URLs may run on
    rules: {
      'max-len': [
        'error',
        {
          code: 120,
          tabWidth: 2,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignoreUrls: true,
          ignoreComments: false,
        },
      ],
    },
  },
)
