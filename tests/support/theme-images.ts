// Logos for the payment page theme tests (lib/themes): a real PNG of one colour, made here (signature, IHDR, IDAT,
// IEND with their CRCs), and SVGs that pass or must be refused.
import zlib from 'node:zlib'

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(zlib.crc32(body) >>> 0, 8 + data.length)
  return out
}

/** a `width` × `height` PNG of one RGB colour (`#rrggbb`) */
export function solidPng(width: number, height: number, color = '#c2410c'): Buffer {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16))
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8 bits, truecolour, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())])
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** an SVG logo that passes: shapes, a gradient referenced by id, text */
export const GOOD_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 48" width="96" height="48">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#0f766e"/><stop offset="1" stop-color="#134e4a"/></linearGradient></defs>
  <!-- the shop's mark -->
  <rect width="96" height="48" rx="8" fill="url(#g)"/>
  <text x="48" y="31" font-size="18" text-anchor="middle" fill="#fff">Shop</text>
</svg>`

/** SVGs that must be refused, each with what makes it so */
export const BAD_SVGS: Record<string, string> = {
  script: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  onload: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>',
  'external href':
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">' +
    '<use xlink:href="https://evil.example/x.svg#a"/></svg>',
  'external url()': '<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(https://evil.example/p)"/></svg>',
  foreignObject:
    '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div>' +
    '</foreignObject></svg>',
  image: '<svg xmlns="http://www.w3.org/2000/svg"><image href="/icon.svg"/></svg>',
  'style element':
    '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/a.css);</style></svg>',
  doctype: '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>',
  'encoded javascript': '<svg xmlns="http://www.w3.org/2000/svg"><a href="&#106;avascript:alert(1)"><rect/></a></svg>',
  'not svg': '<html><body>hello</body></html>',
  // a review's bypasses: an encoding whose escapes hide a comment's start, a prefixed XLink reference, a CSS escape,
  // another vocabulary's namespace
  'ISO-2022-JP':
    '<?xml version="1.0" encoding="ISO-2022-JP"?><svg xmlns="http://www.w3.org/2000/svg">\x1b$Ba<!--\x1b(B' +
    '<script>alert(document.domain)</script>--></svg>',
  'prefixed href':
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink">' +
    '<use x:href="https://evil.example/a.svg#a"/></svg>',
  'CSS escape': '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:\\75rl(https://evil.example/x)"/></svg>',
  'XHTML namespace':
    '<svg xmlns="http://www.w3.org/2000/svg"><g xmlns="http://www.w3.org/1999/xhtml"><rect/></g></svg>',
}
