// The checkout popup library's answer (GET /popup/v2.js): the hand-written file lib/popup/v2.js as it is, read once.
// Merchants' pages of any origin load it (a classic script needs no CORS; Cross-Origin-Resource-Policy lets pages
// that require it embed it too); a browser keeps it for five minutes, so a new version reaches them soon.
import fs from 'node:fs'
import path from 'node:path'

export const POPUP_SCRIPT_FILE = path.join('lib', 'popup', 'v2.js')

let text: string | undefined

export function popupScript(): string {
  text ??= fs.readFileSync(path.join(process.cwd(), POPUP_SCRIPT_FILE), 'utf8')
  return text
}

export function GET(): Response {
  return new Response(popupScript(), {
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}
