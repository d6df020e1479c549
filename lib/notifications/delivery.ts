// Delivering notifications. Workers in every instance claim due rows from the outbox with a lease (a
// row is posted by one worker at a time; a worker that dies mid-way leaves a lease that expires, and
// the row is posted again), post each one signed, and record each attempt. Retries until a 2xx: after
// 5 s, 1 min, then 5 min three times; then FAILED.
// Isolation: a site has at most NOTIFY_SITE_CONCURRENCY deliveries under way across all instances
// (claims are serialised by an advisory lock, so the count is exact), and each delivery runs on its
// own — a worker never waits for a batch — so a slow or failing receiver delays only its own site.
// Due times are on the site's sandbox clock (lib/sandbox/site-clock.ts): advancing it makes retries due.
// Outgoing requests follow outgoing-policy.ts (refused addresses, timeout, no redirects, size limit).
import type { LookupFunction } from 'node:net'
import { positive, settings } from '../config'
import { clockOf } from '../sandbox/site-clock'
import { siteWrite } from '../sandbox/site-write'
import { processPolicy } from './callback-url'
import { postNotification, type PostOutcome } from './outgoing-policy'
import { signatureHeaders, siteSecrets } from './signing'
import { claimDue, recordAttempt, type Claimed, type Notification, type NotificationChange } from './notification-store'

export { claimStatement } from './notification-store'

export interface DeliverySettings {
  /** the waits before the 2nd, 3rd, … attempt; after the last, FAILED */
  retryDelaysMs: number[]
  timeoutMs: number
  leaseMs: number
  pollMs: number
  /** deliveries under way in this instance */
  concurrency: number
  /** deliveries under way for one site, across instances */
  perSite: number
  /** DNS lookup of receivers' host names (tests stub it) */
  lookup?: LookupFunction
}

export function deliverySettings(env: NodeJS.ProcessEnv = process.env): DeliverySettings {
  const delays = (env.NOTIFY_RETRY_DELAYS_MS ?? '5000,60000,300000,300000,300000')
    .split(',')
    .map(Number)
    .filter((n) => n >= 0)
  const timeoutMs = positive(env.NOTIFY_TIMEOUT_MS, 10_000, true)
  return {
    retryDelaysMs: delays,
    timeoutMs,
    // a lease outlives the attempt it covers
    leaseMs: Math.max(positive(env.NOTIFY_LEASE_MS, 60_000, true), timeoutMs + 5_000),
    pollMs: positive(env.NOTIFY_POLL_MS, 500, true),
    concurrency: positive(env.NOTIFY_CONCURRENCY, 32, true),
    perSite: positive(env.NOTIFY_SITE_CONCURRENCY, 4, true),
  }
}

/**
 * The body as posted, from the one stored: its resource fills in what is never stored (a payment's token:
 * lib/payments/notification-body.ts withPaymentToken). Given to the worker by what starts it (lib/instance-work.ts).
 */
export type BodyAsSent = (n: Pick<Notification, 'type' | 'body' | 'resourceRef'>) => string

const MAX_ANSWER_BYTES = 64 * 1024
/** Leases due notifications (the store's claimStatement), claims serialised across instances. */
const claim = (s: DeliverySettings, free: number): Promise<Claimed[]> => claimDue(s, free)

/** posts one claimed notification, signed for this sending */
async function post(n: Claimed, s: DeliverySettings, asSent: BodyAsSent): Promise<PostOutcome> {
  const secrets = siteSecrets(
    { id: n.siteId, notifySecretVersion: n.notifySecretVersion, notifySecretRotatedAt: n.notifySecretRotatedAt },
    settings().notifySecretGraceMs,
  )
  const body = asSent(n)
  return postNotification(
    n.url,
    body,
    // production's headers (Accept beside the Content-Type the transport sets), then the sender's name
    { ...signatureHeaders(secrets, body), Accept: 'application/json', 'User-Agent': 'payin-sandbox-notifications/1' },
    { timeoutMs: s.timeoutMs, maxAnswerBytes: MAX_ANSWER_BYTES, policy: processPolicy(), lookup: s.lookup },
  )
}

/**
 * What an attempt leaves: when it was made — on the notification's site's sandbox clock, as it was when
 * claimed — and the notification's new state: DELIVERED after a 2xx, else due again after the next delay
 * of `retryDelaysMs` on that clock, or FAILED after the last.
 */
export function afterAttempt(n: Pick<Claimed, 'attempts' | 'clockOffsetMs'>, o: PostOutcome, retryDelaysMs: number[]) {
  const ok = o.httpStatus !== null && o.httpStatus >= 200 && o.httpStatus < 300
  const attempts = n.attempts + 1
  const delay = retryDelaysMs[attempts - 1]
  const at = clockOf(n.clockOffsetMs).now()
  const next: NotificationChange = {
    attempts,
    leaseUntil: null,
    ...(ok
      ? { state: 'DELIVERED', deliveredAt: at }
      : delay === undefined
        ? { state: 'FAILED' }
        : { nextAttemptAt: new Date(at.getTime() + delay) }),
  }
  return { at, next }
}

async function record(n: Claimed, o: PostOutcome, s: DeliverySettings): Promise<void> {
  const { at, next } = afterAttempt(n, o, s.retryDelaysMs)
  // a write of the site (lib/sandbox/site-write.ts siteWrite), dated on the clock of the claim: a sandbox
  // reset under way is waited for, and a notification it deleted while this attempt was posted has nothing
  // to record
  await siteWrite(n.siteId, (tx) =>
    recordAttempt(
      tx,
      n.id,
      n.leaseUntil,
      { at, httpStatus: o.httpStatus, durationMs: o.durationMs, error: o.error },
      next,
    ),
  )
}

const logError = (e: unknown) => process.stderr.write(`notification delivery: ${(e as Error)?.message ?? e}\n`)

/** one attempt, recorded whatever happens (a fault of ours is an attempt that failed, retried as any other) */
async function deliver(n: Claimed, s: DeliverySettings, asSent: BodyAsSent): Promise<void> {
  let outcome: PostOutcome
  try {
    outcome = await post(n, s, asSent)
  } catch (e) {
    logError(e)
    outcome = { httpStatus: null, error: 'not sent: internal error', durationMs: 0 }
  }
  await record(n, outcome, s)
}

/**
 * The worker of this instance: claims as many due notifications as it has free places, delivers each
 * on its own, and claims again as soon as a place frees up or, when nothing was due, after pollMs.
 * The returned function stops it claiming (deliveries under way finish). `asSent`: each body as posted.
 */
export function startDeliveryWorker(asSent: BodyAsSent, s = deliverySettings()): () => void {
  let stopped = false
  let underWay = 0
  let wake: (() => void) | null = null
  const nudge = () => {
    wake?.()
    wake = null
  }
  ;(async () => {
    while (!stopped) {
      const free = s.concurrency - underWay
      let claimed: Claimed[] = []
      if (free > 0) {
        try {
          claimed = await claim(s, free)
        } catch (e) {
          logError(e)
        }
        for (const n of claimed) {
          underWay++
          deliver(n, s, asSent)
            .catch(logError)
            .finally(() => {
              underWay--
              nudge()
            })
        }
      }
      // all places taken: wait for one to free up; nothing (more) due: wait for the next poll
      if (free <= 0 || claimed.length < free)
        await new Promise<void>((r) => {
          wake = r
          setTimeout(nudge, s.pollMs).unref?.()
        })
    }
  })()
  return () => {
    stopped = true
    nudge()
  }
}
