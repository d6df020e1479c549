// The rules of a payment page theme (lib/themes/theme-rules.ts), pure: WCAG contrast as the standard computes it,
// colours written one way, a PNG's size read from its header, an SVG's from its attributes, and refusals by field.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { checkedColor, checkedColors, checkedLogo, contrastRatio, ThemeRefused } from '../../lib/themes/theme-rules.ts'
import { BAD_SVGS, GOOD_SVG, solidPng } from '../support/theme-images.ts'

const refusedOn = (field: string, f: () => unknown) =>
  assert.throws(f, (e) => e instanceof ThemeRefused && e.field === field)

test('contrast: the WCAG ratios of known pairs', () => {
  assert.equal(contrastRatio('#000000', '#ffffff'), 21)
  assert.equal(contrastRatio('#ffffff', '#ffffff'), 1)
  // #767676 on white is the lightest grey that passes AA (4.54:1); #777777 fails (4.48:1)
  assert.ok(contrastRatio('#767676', '#ffffff') >= 4.5)
  assert.ok(contrastRatio('#777777', '#ffffff') < 4.5)
  assert.equal(contrastRatio('#1d4ed8', '#ffffff'), contrastRatio('#ffffff', '#1d4ed8'))
})

test('colours: #rgb and #rrggbb in any case, written #rrggbb; low contrast refused on its field', () => {
  assert.equal(checkedColor('x', ' #1D4ED8 '), '#1d4ed8')
  assert.equal(checkedColor('x', '#18F'), '#1188ff')
  for (const bad of ['1d4ed8', '#1d4ed', 'blue', '#gggggg', 'rgb(0,0,0)']) refusedOn('x', () => checkedColor('x', bad))
  assert.deepEqual(checkedColors({ backgroundColor: '#fff', buttonColor: '#1d4ed8' }), {
    backgroundColor: '#ffffff',
    buttonColor: '#1d4ed8',
    buttonTextColor: '#ffffff',
  })
  refusedOn('backgroundColor', () => checkedColors({ backgroundColor: '#555555', buttonColor: '#1d4ed8' }))
  refusedOn('buttonColor', () => checkedColors({ backgroundColor: '#ffffff', buttonColor: '#777777' }))
  // a light button passes with dark text
  assert.equal(
    checkedColors({ backgroundColor: '#ffffff', buttonColor: '#fde047', buttonTextColor: '#1d2330' }).buttonColor,
    '#fde047',
  )
})

test('logos: a PNG by its bytes with its size, an allowed SVG with its size, the rest refused', () => {
  const png = checkedLogo(solidPng(120, 60), 'image/png')
  assert.deepEqual([png.type, png.width, png.height], ['image/png', 120, 60])
  const svg = checkedLogo(Buffer.from(GOOD_SVG), 'image/svg+xml')
  assert.deepEqual([svg.type, svg.width, svg.height], ['image/svg+xml', 96, 48])
  const boxed = checkedLogo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 20"/>'))
  assert.deepEqual([boxed.width, boxed.height], [10, 20])
  // a PNG cut short, or with its end chunk's CRC wrong
  const cut = solidPng(4, 4)
  refusedOn('logo', () => checkedLogo(cut.subarray(0, cut.length - 1), 'image/png'))
  refusedOn('logo', () => checkedLogo(Buffer.concat([cut.subarray(0, cut.length - 1), Buffer.from([0])]), 'image/png'))
  refusedOn('logo', () => checkedLogo(cut, 'image/svg+xml'))
  for (const [what, text] of Object.entries(BAD_SVGS))
    assert.throws(() => checkedLogo(Buffer.from(text), 'image/svg+xml'), ThemeRefused, what)
  refusedOn('logo', () => checkedLogo(Buffer.alloc(64 * 1024 + 1, 0x20), 'image/svg+xml'))
})
