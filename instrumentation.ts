// Runs once when an instance starts: the notification delivery worker of this instance.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NOTIFICATIONS_WORKER === 'off') return
  const { startInstanceWorker } = await import('./lib/notifications/delivery')
  startInstanceWorker()
}
