// Reading a request body, at most 64 KiB of it, whatever the transfer encoding: a declared
// Content-Length over the limit is refused before reading, a chunked body is read until the limit is
// passed and then dropped. Every endpoint (API, payment page, emulated 3-D Secure pages) reads its body
// through here, once.

export const MAX_BODY_BYTES = 64 * 1024

export class BodyTooLarge extends Error {
  constructor() {
    super(`request body exceeds ${MAX_BODY_BYTES} bytes`)
  }
}

/** the body's bytes, or BodyTooLarge past the limit */
export async function readBoundedBody(req: Request, max = MAX_BODY_BYTES): Promise<Buffer> {
  if (Number(req.headers.get('content-length') ?? 0) > max) throw new BodyTooLarge()
  if (!req.body) return Buffer.alloc(0)
  const reader = req.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      throw new BodyTooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

/** the fields of a form post (urlencoded or multipart), read within the limit */
export async function readFormFields(req: Request): Promise<FormData> {
  const bytes = await readBoundedBody(req)
  const type = req.headers.get('content-type') ?? 'application/x-www-form-urlencoded'
  // parsed from the bounded copy: the request's own stream is never read past the limit
  return new Request('http://form.invalid/', { method: 'POST', headers: { 'content-type': type }, body: new Uint8Array(bytes) }).formData()
}
