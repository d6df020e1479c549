// An SBP QR code's image (lib/sbp/qr-image.ts): exactly the requested size, and a QR reader (jsQR, an
// independent decoder) reads the payload back from the PNG's pixels and from the SVG's path rasterised here.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { QR_IMAGE_MEDIA_TYPES, QR_IMAGE_SIZE, qrImageContent } from '../../lib/sbp/qr-image.ts'

const payload = 'http://127.0.0.1:3000/sbp/AbCdEfGhIjKlMnOpQrStUv'
// a long PUBLIC_BASE_URL: the longest payload the contract expects
const longBase = 'https://sandbox-payments.example.test/'
const longPayload = `${longBase}${'p'.repeat(120 - longBase.length - 27)}/sbp/AbCdEfGhIjKlMnOpQrStUv`
const sizes: [number, number][] = [
  [100, 100],
  [300, 300],
  [1000, 1000],
  [300, 150],
  [150, 1000],
]

type Raster = { width: number; height: number; rgba: Uint8ClampedArray }

function readPng(base64: string): Raster {
  const bytes = Buffer.from(base64, 'base64')
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature')
  const image = PNG.sync.read(bytes)
  return { width: image.width, height: image.height, rgba: new Uint8ClampedArray(image.data) }
}

// Reads the SVG the module emits: its size attributes, the white background and the one path of dark
// rectangles, each `M<x> <y>h<w>v<h>h-<w>z` in pixels; anything else in the path fails the test.
function readSvg(base64: string): Raster {
  const text = Buffer.from(base64, 'base64').toString('utf8')
  const svg = text.match(/^<svg ([^>]*)>/)
  assert.ok(svg, text.slice(0, 200))
  const attribute = (name: string) => svg[1].match(new RegExp(`(?:^| )${name}="([^"]*)"`))?.[1]
  assert.equal(attribute('xmlns'), 'http://www.w3.org/2000/svg')
  assert.equal(attribute('shape-rendering'), 'crispEdges')
  const width = Number(attribute('width'))
  const height = Number(attribute('height'))
  assert.equal(attribute('viewBox'), `0 0 ${width} ${height}`)
  assert.ok(text.includes(`<rect width="${width}" height="${height}" fill="#ffffff"/>`), 'white background')
  const paths = [...text.matchAll(/<path fill="#000000" d="([^"]*)"\/>/g)]
  assert.equal(paths.length, 1, 'one path of dark modules')
  assert.ok(text.endsWith('</svg>'))
  const d = paths[0][1]
  const rgba = new Uint8ClampedArray(width * height * 4).fill(255)
  let read = 0
  for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)v(\d+)h-(\d+)z/g)) {
    assert.equal(m.index, read, `path command at ${read}: ${d.slice(read, read + 40)}`)
    read += m[0].length
    const [x, y, w, h, back] = m.slice(1).map(Number)
    assert.equal(back, w, 'each rectangle closes where it started')
    assert.ok(x + w <= width && y + h <= height, 'inside the canvas')
    for (let row = y; row < y + h; row++) rgba.fill(0, (row * width + x) * 4, (row * width + x + w) * 4)
  }
  assert.equal(read, d.length, 'the whole path is rectangles')
  for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255
  return { width, height, rgba }
}

function decode({ width, height, rgba }: Raster): string | undefined {
  return jsQR(rgba, width, height, { inversionAttempts: 'dontInvert' })?.data
}

// The dark pixels' bounding box: the symbol without its quiet zone.
function darkBox({ width, height, rgba }: Raster) {
  let left = width,
    right = -1,
    top = height,
    bottom = -1
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const v = rgba[(y * width + x) * 4]
      assert.ok(v === 0 || v === 255, 'only black and white pixels')
      if (v === 0) {
        left = Math.min(left, x)
        right = Math.max(right, x)
        top = Math.min(top, y)
        bottom = Math.max(bottom, y)
      }
    }
  return { left, right, top, bottom }
}

// The symbol is square and centred (within a pixel), with at least its 4-module quiet zone around it.
function assertCentred(image: Raster) {
  const box = darkBox(image)
  const side = box.right - box.left + 1
  assert.equal(box.bottom - box.top + 1, side, 'square symbol')
  const marginX = [box.left, image.width - 1 - box.right]
  const marginY = [box.top, image.height - 1 - box.bottom]
  assert.ok(Math.abs(marginX[0] - marginX[1]) <= 1, `centred across: ${marginX}`)
  assert.ok(Math.abs(marginY[0] - marginY[1]) <= 1, `centred down: ${marginY}`)
  // the pixels per module, from the top-left finder pattern: the symbol's first dark run, 7 modules wide
  const row = box.top * image.width
  let finder = 0
  while (image.rgba[(row + box.left + finder) * 4] === 0) finder++
  const module = finder / 7
  assert.ok(Number.isInteger(module) && module >= 1, `whole pixels per module: ${finder} / 7`)
  assert.ok(Math.min(...marginX, ...marginY) >= 4 * module, 'quiet zone of 4 modules')
  return module
}

test('the media types and sizes the schemas use', () => {
  assert.deepEqual(QR_IMAGE_MEDIA_TYPES, ['image/png', 'image/svg+xml'])
  assert.deepEqual(QR_IMAGE_SIZE, { min: 100, max: 1000 })
  assert.ok(longPayload.length === 120 && longPayload.includes('/sbp/'), longPayload)
})

for (const [width, height] of sizes) {
  test(`PNG ${width}×${height} decodes to the payload, at exactly that size`, async () => {
    const content = await qrImageContent(payload, { mediaType: 'image/png', width, height })
    const image = readPng(content)
    assert.deepEqual([image.width, image.height], [width, height])
    assert.equal(decode(image), payload)
    assertCentred(image)
  })

  test(`SVG ${width}×${height} decodes to the payload, at exactly that size`, async () => {
    const content = await qrImageContent(payload, { mediaType: 'image/svg+xml', width, height })
    const image = readSvg(content)
    assert.deepEqual([image.width, image.height], [width, height])
    assert.equal(decode(image), payload)
    assertCentred(image)
  })
}

test('the largest whole number of pixels per module that fits the shorter side', async () => {
  // the payload is version 4 (33 modules) + 2 × 4 of quiet zone = 41; 150 / 41 = 3.7, 100 / 41 = 2.4
  const at = async (width: number, height: number) =>
    assertCentred(readPng(await qrImageContent(payload, { mediaType: 'image/png', width, height })))
  assert.equal(await at(300, 150), 3)
  assert.equal(await at(100, 100), 2)
  assert.equal(await at(1000, 1000), 24)
  assert.equal(await at(150, 1000), 3)
})

test('a 120-character payload at 100×100 (1 px per module) decodes, as PNG and as SVG', async () => {
  const size = { width: 100, height: 100 }
  const png = readPng(await qrImageContent(longPayload, { mediaType: 'image/png', ...size }))
  assert.deepEqual([png.width, png.height], [100, 100])
  assert.equal(decode(png), longPayload)
  assert.equal(assertCentred(png), 1)
  const svg = readSvg(await qrImageContent(longPayload, { mediaType: 'image/svg+xml', ...size }))
  assert.equal(decode(svg), longPayload)
})

test('the same input gives the same bytes', async () => {
  for (const mediaType of QR_IMAGE_MEDIA_TYPES)
    for (const p of [payload, longPayload]) {
      const image = { mediaType, width: 300, height: 150 }
      assert.equal(await qrImageContent(p, image), await qrImageContent(p, image), `${mediaType} ${p}`)
    }
  const other = await qrImageContent(`${payload.slice(0, -1)}w`, { mediaType: 'image/png', width: 300, height: 150 })
  assert.notEqual(other, await qrImageContent(payload, { mediaType: 'image/png', width: 300, height: 150 }))
})

test('100 px holds any ASCII payload up to 561 bytes; a longer one throws there and fits a larger image', async () => {
  // 561 bytes is version 18 at level M: 89 modules + 8 of quiet zone = 97 px; 562 needs version 19 (101 px)
  const fits = `http://127.0.0.1:3000/sbp/${'a'.repeat(561 - 26)}`
  const tooLong = `${fits}a`
  const small = { mediaType: 'image/png', width: 100, height: 100 } as const
  const png = readPng(await qrImageContent(fits, small))
  assert.equal(decode(png), fits)
  for (const mediaType of QR_IMAGE_MEDIA_TYPES) {
    await assert.rejects(qrImageContent(tooLong, { ...small, mediaType }), /101 modules does not fit 100×100 px/)
    await assert.rejects(qrImageContent(tooLong, { mediaType, width: 100, height: 1000 }), /does not fit/)
  }
  assert.equal(decode(readPng(await qrImageContent(tooLong, { ...small, width: 101, height: 101 }))), tooLong)
})

test('sizes outside 100–1000 or not whole pixels and unknown media types throw', async () => {
  const png = 'image/png' as const
  for (const [width, height] of [
    [99, 300],
    [300, 1001],
    [100.5, 300],
    [Number.NaN, 300],
  ])
    await assert.rejects(qrImageContent(payload, { mediaType: png, width, height }), /integer from 100 to 1000/)
  const gif = 'image/gif' as unknown as typeof png
  await assert.rejects(qrImageContent(payload, { mediaType: gif, width: 100, height: 100 }), /media type/)
})
