// The address of the payment page's browser script, as the last bundle wrote it (scripts/pay-form-bundle.ts).
import fs from 'node:fs'
import path from 'node:path'

export const PAY_FORM_OUT_DIR = 'public/_pay'
export const PAY_FORM_MANIFEST = 'manifest.json'

let cached: string | undefined

/** the last bundle's address, when its manifest and the file it names are there; else what is missing */
function lastBundle(): { src: string } | { missing: string } {
  const file = path.join(process.cwd(), PAY_FORM_OUT_DIR, PAY_FORM_MANIFEST)
  let src: unknown
  try {
    src = JSON.parse(fs.readFileSync(file, 'utf8')).script
  } catch {
    return {
      missing: `the payment page's script is not built (${file} is missing): npm run build or npm start build it`,
    }
  }
  if (typeof src !== 'string' || !fs.existsSync(path.join(process.cwd(), 'public', src)))
    return {
      missing: `the payment page's script ${String(src)} (named by ${file}) is missing: npm run build builds it again`,
    }
  return { src }
}

/**
 * `/_pay/payment-form.<hash>.js`, read once: the production server reads it as it starts
 * (scripts/http-server.ts), when Next.js also takes its list of public files, so the two agree.
 */
export function payFormScript(): string {
  // the server fixed it as it started (this module is also bundled into Next.js's page code: a copy of its own)
  if (process.env.PAY_FORM_SCRIPT) return process.env.PAY_FORM_SCRIPT
  if (cached) return cached
  const bundle = lastBundle()
  if ('missing' in bundle) throw new Error(bundle.missing)
  cached = bundle.src
  return cached
}

/** whether the last bundle is there: its manifest and the file it names */
export function payFormScriptBuilt(): boolean {
  return 'src' in lastBundle()
}
