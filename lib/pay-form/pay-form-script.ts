// The address of the payment page's browser script, as the last bundle wrote it (scripts/pay-form-bundle.ts).
import fs from 'node:fs'
import path from 'node:path'

export const PAY_FORM_OUT_DIR = 'public/_pay'
export const PAY_FORM_MANIFEST = 'manifest.json'

let cached: string | undefined

/**
 * `/_pay/payment-form.<hash>.js`, read once: the production server reads it as it starts
 * (scripts/http-server.ts), when Next.js also takes its list of public files, so the two agree.
 */
export function payFormScript(): string {
  // the server fixed it as it started (this module is also bundled into Next.js's page code: a copy of its own)
  if (process.env.PAY_FORM_SCRIPT) return process.env.PAY_FORM_SCRIPT
  if (cached) return cached
  const file = path.join(process.cwd(), PAY_FORM_OUT_DIR, PAY_FORM_MANIFEST)
  let src: string
  try {
    src = JSON.parse(fs.readFileSync(file, 'utf8')).script
  } catch {
    throw new Error(`the payment page's script is not built (${file} is missing): npm run build or npm start build it`)
  }
  if (!fs.existsSync(path.join(process.cwd(), 'public', src))) throw new Error(`the payment page's script ${src} (named by ${file}) is missing: npm run build builds it again`)
  cached = src
  return src
}

/** whether the last bundle is there: its manifest and the file it names */
export function payFormScriptBuilt(): boolean {
  try {
    const src = JSON.parse(fs.readFileSync(path.join(process.cwd(), PAY_FORM_OUT_DIR, PAY_FORM_MANIFEST), 'utf8')).script
    return typeof src === 'string' && fs.existsSync(path.join(process.cwd(), 'public', src))
  } catch {
    return false
  }
}
