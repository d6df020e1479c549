// The picture of an SBP QR code's payload: a PNG or SVG of exactly the requested size, as base64.
// Modules are drawn here rather than by qrcode's renderers, which size the image by module count and margin
// and so cannot give an exact width × height.
import { PNG } from 'pngjs'
import QRCode, { type BitMatrix } from 'qrcode'

export const QR_IMAGE_MEDIA_TYPES = ['image/png', 'image/svg+xml'] as const
export type QrImageMediaType = (typeof QR_IMAGE_MEDIA_TYPES)[number]
export const QR_IMAGE_SIZE = { min: 100, max: 1000 } as const

export type QrImageRequest = { mediaType: QrImageMediaType; width: number; height: number }

// The blank border readers need around the symbol, in modules (ISO/IEC 18004 asks for 4).
const QUIET_ZONE = 4
const WHITE = 0xff

// Where the symbol sits on the canvas: the largest whole number of pixels per module that fits the shorter side,
// centred. At 1 px per module, 100 px holds versions up to 18 (89 modules + 8 of quiet zone = 97), i.e. any
// ASCII payload up to 561 bytes at level M; a 120-character URL is version 7 (53 px with its quiet zone).
type Layout = { modules: BitMatrix; scale: number; left: number; top: number }

function layout(payload: string, width: number, height: number): Layout {
  for (const [name, value] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(value) || value < QR_IMAGE_SIZE.min || value > QR_IMAGE_SIZE.max)
      throw new Error(`QR image ${name} must be an integer from ${QR_IMAGE_SIZE.min} to ${QR_IMAGE_SIZE.max}`)
  }
  const modules = QRCode.create(payload, { errorCorrectionLevel: 'M' }).modules
  const span = modules.size + 2 * QUIET_ZONE
  const scale = Math.floor(Math.min(width, height) / span)
  if (scale < 1) throw new Error(`QR code of ${span} modules does not fit ${width}×${height} px`)
  const side = scale * span
  return {
    modules,
    scale,
    left: Math.floor((width - side) / 2) + QUIET_ZONE * scale,
    top: Math.floor((height - side) / 2) + QUIET_ZONE * scale,
  }
}

// Runs of dark modules in one row as [first column, length]: both encoders draw runs, not single modules.
function darkRuns(modules: BitMatrix, row: number): [number, number][] {
  const runs: [number, number][] = []
  const { size, data } = modules
  for (let col = 0; col < size;) {
    if (!data[row * size + col]) {
      col++
      continue
    }
    const start = col
    while (col < size && data[row * size + col]) col++
    runs.push([start, col - start])
  }
  return runs
}

// 8-bit greyscale: one byte a pixel, no alpha; each module row's scanline is drawn once and copied.
function png(width: number, height: number, { modules, scale, left, top }: Layout): Buffer {
  const pixels = Buffer.alloc(width * height, WHITE)
  for (let row = 0; row < modules.size; row++) {
    const y = top + row * scale
    const line = pixels.subarray(y * width, (y + 1) * width)
    for (const [col, length] of darkRuns(modules, row)) {
      const x = left + col * scale
      line.fill(0, x, x + length * scale)
    }
    for (let copy = 1; copy < scale; copy++) line.copy(pixels, (y + copy) * width)
  }
  // An empty PNG allocates nothing; its packer reads only width, height and data.
  const image = Object.assign(new PNG(), { width, height, data: pixels })
  return PNG.sync.write(image, { colorType: 0, inputColorType: 0, inputHasAlpha: false, bitDepth: 8 })
}

// One path of rectangles in pixel coordinates (the viewBox is the canvas), one per run of dark modules.
function svg(width: number, height: number, { modules, scale, left, top }: Layout): Buffer {
  const path: string[] = []
  for (let row = 0; row < modules.size; row++) {
    const y = top + row * scale
    for (const [col, length] of darkRuns(modules, row))
      path.push(`M${left + col * scale} ${y}h${length * scale}v${scale}h-${length * scale}z`)
  }
  const text =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"` +
    ` shape-rendering="crispEdges"><rect width="${width}" height="${height}" fill="#ffffff"/>` +
    `<path fill="#000000" d="${path.join('')}"/></svg>`
  return Buffer.from(text, 'utf8')
}

/** Base64 of a `mediaType` image, exactly `width` × `height` px, that a QR reader decodes to `payload`. */
export async function qrImageContent(payload: string, image: QrImageRequest): Promise<string> {
  const placed = layout(payload, image.width, image.height)
  switch (image.mediaType) {
    case 'image/png':
      return png(image.width, image.height, placed).toString('base64')
    case 'image/svg+xml':
      return svg(image.width, image.height, placed).toString('base64')
    default:
      throw new Error(`QR image media type must be one of ${QR_IMAGE_MEDIA_TYPES.join(', ')}`)
  }
}
