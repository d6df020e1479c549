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

/**
 * The client went away before its body was complete (the connection closed mid-body): no one is left
 * to answer, and nothing went wrong on the server. Logged as 499, not as an error.
 */
export class ClientAborted extends Error {
  constructor(cause: unknown) {
    super('the client closed the connection before the request body was complete', { cause })
  }
}

/** the body's bytes; BodyTooLarge past the limit, ClientAborted when the body stream breaks off */
export async function readBoundedBody(req: Request, max = MAX_BODY_BYTES): Promise<Buffer> {
  if (Number(req.headers.get('content-length') ?? 0) > max) throw new BodyTooLarge()
  if (!req.body) return Buffer.alloc(0)
  const reader = req.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    // a request body's stream fails only when its connection does (Node's "aborted", ECONNRESET)
    const { done, value } = await reader.read().catch((e: unknown) => {
      throw new ClientAborted(e)
    })
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

/** a form post that is no form: another content type, or a multipart body that does not parse */
export class NotAForm extends Error {
  constructor(cause: unknown) {
    super('the request body is not a form (urlencoded or multipart)', { cause })
  }
}

/** the fields of a form post (urlencoded or multipart), read within the limit; NotAForm when it is none */
export async function readFormFields(req: Request): Promise<FormData> {
  const bytes = await readBoundedBody(req)
  const type = req.headers.get('content-type') ?? 'application/x-www-form-urlencoded'
  // parsed from the bounded copy: the request's own stream is never read past the limit
  try {
    return await new Request('http://form.invalid/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(bytes),
    }).formData()
  } catch (e) {
    throw new NotAForm(e)
  }
}
