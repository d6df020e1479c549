// Whether this instance is shutting down: set by the server (scripts/http-server.ts) when SIGTERM or
// SIGINT comes, read by readiness. On globalThis, because Next.js bundles the route handlers with their
// own copy of this module.
const DRAINING = Symbol.for('payin.draining')

export function markDraining(): void {
  ;(globalThis as Record<symbol, unknown>)[DRAINING] = true
}

export const isDraining = (): boolean => (globalThis as Record<symbol, unknown>)[DRAINING] === true
