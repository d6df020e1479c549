// Runs once when an instance starts: its scheduler and notification delivery worker (lib/instance-work.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { startInstanceWork } = await import('./lib/instance-work')
  startInstanceWork()
}
