// Every byte the server process writes to stdout and stderr passes the log lines' masking
// (lib/log/log-line.ts redact): not only our own log lines but Next.js's console output (it prints
// an unknown Server Action id, a failed render's message, a header it could not parse, as it received
// them), a dependency's warning, a stack trace. Installed by the server's first import, before
// Next.js is loaded.
import { redact } from '../log/log-line'

const MASKED = Symbol.for('payin.masked-output')

type Write = typeof process.stdout.write

/**
 * masks card-like digit runs (and payment page attempt keys) in a chunk; a Buffer's bytes are kept as they are but for
 * those
 */
export function maskChunk(chunk: string | Uint8Array): string | Uint8Array {
  if (typeof chunk === 'string') return redact(chunk)
  // read as latin1: every byte one character, so the bytes of UTF-8 text around a digit run come back unchanged
  const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1')
  const masked = redact(text)
  return masked === text ? chunk : Buffer.from(masked, 'latin1')
}

/** puts the masking in front of process.stdout and process.stderr (once) */
export function maskProcessOutput(): void {
  const flagged = process as unknown as Record<symbol, boolean>
  if (flagged[MASKED]) return
  flagged[MASKED] = true
  for (const stream of [process.stdout, process.stderr]) {
    const write: Write = stream.write.bind(stream)
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) =>
      (write as (...args: unknown[]) => boolean)(maskChunk(chunk), ...rest)) as Write
  }
}

maskProcessOutput()
