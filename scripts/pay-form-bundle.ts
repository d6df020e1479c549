// The payment page's browser script: components/pay/payment-form-island.tsx and what it imports (React,
// react-dom, react-hook-form, zod/mini, the form and its schema) in one minified ES module,
// public/_pay/payment-form.<hash>.js, whose address public/_pay/manifest.json gives the page
// (lib/pay-form/pay-form-script.ts). Next.js serves it from public/. Built by `npm run build`, `npm start`
// and the tests before `next build`. Not used by `npm run dev`, where Next.js's own development runtime
// takes over the page (with hot reload).
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import * as esbuild from 'esbuild'
import { PAY_FORM_MANIFEST, PAY_FORM_OUT_DIR } from '../lib/pay-form/pay-form-script.ts'

const ENTRY = 'components/pay/payment-form-island.tsx'
const KEEP_OLDER = 4

function options(): esbuild.BuildOptions {
  return {
    entryPoints: [ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // the browsers that run ES modules without polyfills, as Next.js targets
    target: ['chrome111', 'edge111', 'firefox111', 'safari16.4'],
    jsx: 'automatic',
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    tsconfig: 'tsconfig.json',
    write: false,
    logLevel: 'silent',
  }
}

/**
 * writes the bundle under its content hash and points the manifest at it. The last few older bundles
 * stay: a page served by an instance still running the previous build keeps loading its own script.
 */
function emit(result: esbuild.BuildResult): string {
  const code = result.outputFiles?.[0]?.contents
  if (!code) throw new Error('esbuild wrote nothing')
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16)
  const name = `payment-form.${hash}.js`
  fs.mkdirSync(PAY_FORM_OUT_DIR, { recursive: true })
  fs.writeFileSync(path.join(PAY_FORM_OUT_DIR, name), code)
  const older = fs
    .readdirSync(PAY_FORM_OUT_DIR)
    .filter((f) => f !== name && /^payment-form\.[0-9a-f]+\.js$/.test(f))
    .map((f) => ({ f, at: fs.statSync(path.join(PAY_FORM_OUT_DIR, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at)
  for (const { f } of older.slice(KEEP_OLDER)) fs.rmSync(path.join(PAY_FORM_OUT_DIR, f))
  fs.writeFileSync(
    path.join(PAY_FORM_OUT_DIR, PAY_FORM_MANIFEST),
    JSON.stringify({ script: `/_pay/${name}`, bytes: code.byteLength }) + '\n',
  )
  return name
}

/** the production bundle, once */
export async function bundlePayForm(): Promise<string> {
  return emit(await esbuild.build({ ...options(), outfile: path.join(PAY_FORM_OUT_DIR, 'payment-form.js') }))
}

if (process.argv[1]?.endsWith('pay-form-bundle.ts')) {
  bundlePayForm().then((name) => console.log(`[payin] ${PAY_FORM_OUT_DIR}/${name}`))
}
