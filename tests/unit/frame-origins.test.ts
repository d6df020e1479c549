// The rule of a site's allowed frame origins (lib/sites/frame-origins.ts): exact origins, https or loopback http.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  checkedFrameOrigin,
  checkedFrameOrigins,
  FrameOriginRefused,
  frameAncestors,
  MAX_FRAME_ORIGINS,
} from '../../lib/sites/frame-origins.ts'

test('an origin is taken as browsers write it: https anywhere, http on loopback, a trailing slash dropped', () => {
  for (const [input, origin] of [
    ['https://shop.example', 'https://shop.example'],
    ['https://shop.example/', 'https://shop.example'],
    ['  https://shop.example:8443 ', 'https://shop.example:8443'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.0.0.2:3000/', 'http://127.0.0.2:3000'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['https://[2001:db8::1]', 'https://[2001:db8::1]'],
    ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
  ])
    assert.equal(checkedFrameOrigin(input), origin, input)
})

test('anything but an exact origin is refused, with the reason', () => {
  for (const input of [
    '',
    'shop.example',
    'null',
    "'self'",
    '*',
    'https://*.shop.example',
    'http://shop.example',
    'http://10.0.0.1',
    'ftp://shop.example',
    'javascript:alert(1)',
    'https://shop.example/pay',
    'https://shop.example?x=1',
    'https://shop.example/#top',
    'https://user:pass@shop.example',
    'https://SHOP.example',
    'https://shop.example:443',
    `https://${'a'.repeat(200)}.example`,
    'https://shop.example https://evil.example',
    'https://shop.example;script-src *',
    // characters the URL parser keeps in a name, which would end or extend the CSP directive
    'https://a;sandbox',
    "https://x$'.example",
    'https://x$`.example',
    'https://a,b.example',
    "https://a'b.example",
    'https://a_b.example',
  ])
    assert.throws(
      () => checkedFrameOrigin(input),
      (e) => e instanceof FrameOriginRefused && e.reason.length > 0,
      input,
    )
})

test('a list: blanks skipped, each origin once, at most ten; its frame-ancestors', () => {
  assert.deepEqual(checkedFrameOrigins(['https://a.example', ' ', 'https://a.example/', 'http://127.0.0.1:1']), [
    'https://a.example',
    'http://127.0.0.1:1',
  ])
  const many = Array.from({ length: MAX_FRAME_ORIGINS + 1 }, (_, i) => `https://s${i}.example`)
  assert.throws(() => checkedFrameOrigins(many), FrameOriginRefused)
  assert.equal(checkedFrameOrigins(many.slice(1)).length, MAX_FRAME_ORIGINS)
  assert.equal(frameAncestors([]), "frame-ancestors 'none'")
  assert.equal(
    frameAncestors(['https://a.example', 'http://127.0.0.1:1']),
    'frame-ancestors https://a.example http://127.0.0.1:1',
  )
})
