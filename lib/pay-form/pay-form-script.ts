// The address of the payment page's browser script, as the last bundle wrote it (scripts/pay-form-bundle.ts).
import fs from 'node:fs'
import path from 'node:path'

export const PAY_FORM_OUT_DIR = 'public/_pay'
export const PAY_FORM_MANIFEST = 'manifest.json'

let cached: string | undefined

/** `/_pay/payment-form.<hash>.js`, read once */
export function payFormScript(): string {
  if (cached) return cached
  const file = path.join(process.cwd(), PAY_FORM_OUT_DIR, PAY_FORM_MANIFEST)
  let src: string
  try {
    src = JSON.parse(fs.readFileSync(file, 'utf8')).script
  } catch {
    throw new Error(`the payment page's script is not built (${file} is missing): npm run build, npm start or npm run dev build it`)
  }
  cached = src
  return src
}
