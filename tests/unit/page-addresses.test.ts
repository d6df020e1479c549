// The check behind /docs' "nothing is loaded from elsewhere" (tests/support/page-addresses.ts): a path of
// the origin or a fragment passes; an address a browser reads as another host does not, however it is
// written (protocol-relative, a backslash, an entity, a tab inside it), nor CSS that loads from elsewhere.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { linkedStylesheets, pageAddresses } from '../support/page-addresses.ts'

test("the page's own addresses pass: paths of its origin, fragments, relative and data: references in its CSS", () => {
  const html = `<link rel="stylesheet" href="/_next/static/css/a.css"/><script src="/_next/static/chunks/x.js"></script><a href="#schema-Payment">P</a>
    <a href="/docs?x=1&amp;y=2">again</a><img srcset="/a.png 1x, /b.png 2x" src="/a.png"><form action="/dashboard/actions/sign-out"></form>
    <style>body{background:url(/own.png)} .a{background:url("../media/font.woff2")} .b{background:url(data:image/png;base64,AAAA)} @import "/more.css";</style>
    <div style="background:url(&quot;/x.png&quot;)"></div>`
  const { addresses, offSite } = pageAddresses(html)
  assert.deepEqual(offSite, [])
  assert.equal(addresses.length, 13)
  assert.deepEqual(linkedStylesheets(html), ['/_next/static/css/a.css'])
})

test('an address from elsewhere is found, however it is written, in an attribute or in CSS', () => {
  const cases: [string, string, string?][] = [
    ['a protocol-relative script', '<script src="//cdn.example.com/x.js"></script>'],
    ['an absolute one', '<script src="https://cdn.example.com/x.js"></script>'],
    ['a backslash the browser reads as a slash', '<img src="/\\evil.example/y.png">'],
    ['an entity for the second slash', '<link rel="icon" href="/&#47;cdn.example.com/z.svg">'],
    ['a tab between the slashes', '<img src="/\t/cdn.example.com/y.png">'],
    ['a srcset candidate', '<img srcset="/a.png 1x, //cdn.example.com/b.png 2x">'],
    ['a form posting elsewhere', '<form action="https://collect.example.com/"></form>'],
    ['a relative link (not a path of the origin)', '<a href="other/page">x</a>'],
    ['CSS url() in a <style>', '<style>body{background:url("https://cdn.example.com/bg.png")}</style>'],
    ['CSS url() protocol-relative, unquoted', '<style>body{background:url(//cdn.example.com/bg.png)}</style>'],
    ['CSS @import url()', '<style>@import url(//fonts.example.com/f.css);</style>'],
    ['CSS @import of a string', "<style>@import 'https://fonts.example.com/f.css';</style>"],
    ['CSS escapes', '<style>body{background:url(\\2f\\2f cdn.example.com/bg.png)}</style>'],
    ['CSS in a style attribute', '<div style="background:url(&quot;https://x.example/a.png&quot;)"></div>'],
    [
      'a linked stylesheet',
      '<link rel="stylesheet" href="/_next/static/css/a.css">',
      '.x{background:url(https://cdn.example.com/bg.png)}',
    ],
  ]
  for (const [what, html, stylesheet] of cases)
    assert.equal(pageAddresses(html, stylesheet ? [stylesheet] : []).offSite.length, 1, what)
})
