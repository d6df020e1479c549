// What the dashboard's notification tests share: an instance's settings with a delivery worker that may
// post to a receiver on loopback, and a site's notification URL set the way a merchant sets it
// (`npm run site -- notify <siteId> <url>`), run without blocking the test's event loop.
import { lastLine, siteOk } from './site-command.ts'

/**
 * A worker that delivers to 127.0.0.0/8 at once, and retries quickly. Every test instance with a worker delivers any
 * site's notifications (as production's instances do), so they all wait as long for an answer: a test's receiver may
 * be called by another file's instance, on a machine busy with the whole suite.
 */
export const WORKER_ENV = {
  NOTIFICATIONS_WORKER: 'on',
  NOTIFY_ALLOW_NETWORKS: '127.0.0.0/8',
  NOTIFY_RETRY_DELAYS_MS: '300,300,300,300,300',
  NOTIFY_TIMEOUT_MS: '2500',
  NOTIFY_POLL_MS: '100',
}

/** sets the site's notification URL (the `site` command, allowing loopback); answers its signing secret */
export async function notifyTo(siteId: string, url: string): Promise<string> {
  return lastLine(await siteOk(['notify', siteId, url], { ...process.env, NOTIFY_ALLOW_NETWORKS: '127.0.0.0/8' }))
}

/** the claim lock every delivery worker takes (lib/notifications/delivery.ts CLAIM_LOCK: "notify" in ASCII) */
export const CLAIM_LOCK = 0x6e6f74696679n
