// Runs once when an instance starts: its scheduler and notification delivery worker (lib/instance-work.ts),
// and the server's error output as JSON lines (lib/http/page-errors.ts). onRequestError: a failure while a
// page renders (or the proxy runs) is logged as one JSON line under its request's ids.
import type { Instrumentation } from 'next'

export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { consoleErrorAsJson } = await import('./lib/http/page-errors')
  consoleErrorAsJson()
  const { startInstanceWork } = await import('./lib/instance-work')
  startInstanceWork()
}

export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { logRequestFailure } = await import('./lib/http/page-errors')
  logRequestFailure(error, request, context)
}
