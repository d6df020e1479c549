// `npm run openapi`: writes the API's OpenAPI document (lib/openapi/api-document.ts) to openapi.json at
// the repository's root, where it is committed; tests/unit/openapi-document.test.ts fails while the
// committed file differs from what the code generates. `--check` only compares (exit 1 when it differs).
import fs from 'node:fs'
import path from 'node:path'
import { apiDocumentText } from '../lib/openapi/api-document.ts'

const file = path.resolve('openapi.json')
const text = apiDocumentText()
const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
if (process.argv.includes('--check')) {
  if (current !== text) {
    console.error('openapi.json is not current: run `npm run openapi` and commit it')
    process.exit(1)
  }
  console.log('openapi.json is current')
} else if (current === text) {
  console.log('openapi.json is current')
} else {
  fs.writeFileSync(file, text)
  console.log(`openapi.json written (${Object.keys(JSON.parse(text).paths).length} paths)`)
}
process.exit(0)
