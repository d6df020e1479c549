// Delivering notifications: workers in every instance claim due rows with FOR UPDATE SKIP LOCKED and a
// lease (a row is posted by one worker at a time; a worker that dies mid-way leaves a lease that
// expires, and the row is posted again), post them signed, and record each attempt. Retries until a
// 2xx: after 5 s, 1 min, then 5 min three times; then FAILED. Outgoing requests: http(s) only, a
// timeout, no redirects followed, the answer read up to 64 KiB.
import { db } from '../db/client'
import type { Notification } from '../generated/prisma/client'
import { siteSecret, signatureOf } from './signing'

export interface DeliverySettings {
  /** the waits before the 2nd, 3rd, … attempt; after the last, FAILED */
  retryDelaysMs: number[]
  timeoutMs: number
  leaseMs: number
  pollMs: number
}

export function deliverySettings(env: NodeJS.ProcessEnv = process.env): DeliverySettings {
  const delays = (env.NOTIFY_RETRY_DELAYS_MS ?? '5000,60000,300000,300000,300000').split(',').map(Number).filter((n) => n >= 0)
  return {
    retryDelaysMs: delays,
    timeoutMs: Number(env.NOTIFY_TIMEOUT_MS ?? 10_000),
    leaseMs: Number(env.NOTIFY_LEASE_MS ?? 60_000),
    pollMs: Number(env.NOTIFY_POLL_MS ?? 1000),
  }
}

const MAX_ANSWER_BYTES = 64 * 1024

async function claim(s: DeliverySettings, limit = 10): Promise<Notification[]> {
  return db().$queryRaw<Notification[]>`
    UPDATE "Notification" SET "leaseUntil" = now() + ${s.leaseMs}::float8 * interval '1 millisecond'
    WHERE id IN (
      SELECT id FROM "Notification"
      WHERE state = 'PENDING' AND "nextAttemptAt" <= now() AND ("leaseUntil" IS NULL OR "leaseUntil" < now())
      ORDER BY "nextAttemptAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING *`
}

interface Outcome {
  httpStatus: number | null
  error: string | null
  durationMs: number
}

async function post(n: Notification, s: DeliverySettings): Promise<Outcome> {
  const started = performance.now()
  const done = (httpStatus: number | null, error: string | null): Outcome => ({ httpStatus, error, durationMs: Math.round(performance.now() - started) })
  let url: URL
  try {
    url = new URL(n.url)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return done(null, 'only http(s) URLs are called')
  } catch {
    return done(null, 'not a URL')
  }
  const site = await db().site.findUnique({ where: { id: n.siteId }, select: { notifySecretVersion: true } })
  const signature = signatureOf(siteSecret(n.siteId, site?.notifySecretVersion ?? 0), n.body)
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Signature: signature, 'User-Agent': 'payin-sandbox-notifications/1' },
      body: n.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(s.timeoutMs),
    })
    // read (and drop) at most 64 KiB of the answer
    const reader = res.body?.getReader()
    for (let read = 0; reader && read < MAX_ANSWER_BYTES; ) {
      const chunk = await reader.read()
      if (chunk.done) break
      read += chunk.value.byteLength
    }
    await reader?.cancel().catch(() => {})
    return done(res.status, res.status >= 300 && res.status < 400 ? 'redirects are not followed' : null)
  } catch (e) {
    const name = (e as Error)?.name
    return done(null, name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${s.timeoutMs} ms` : `could not connect: ${(e as Error)?.message ?? e}`)
  }
}

async function record(n: Notification, o: Outcome, s: DeliverySettings): Promise<void> {
  const ok = o.httpStatus !== null && o.httpStatus >= 200 && o.httpStatus < 300
  const attempts = n.attempts + 1
  const delay = s.retryDelaysMs[attempts - 1]
  const now = new Date()
  await db().$transaction([
    db().notificationAttempt.create({ data: { notificationRef: n.id, at: now, httpStatus: o.httpStatus, durationMs: o.durationMs, error: o.error } }),
    // only while this claim still holds the row: a re-send, or another worker after the lease ran
    // out, has taken it over otherwise, and its state is theirs to write
    db().notification.updateMany({
      where: { id: n.id, leaseUntil: n.leaseUntil },
      data: {
        attempts,
        leaseUntil: null,
        ...(ok
          ? { state: 'DELIVERED', deliveredAt: now }
          : delay === undefined
            ? { state: 'FAILED' }
            : { nextAttemptAt: new Date(now.getTime() + delay) }),
      },
    }),
  ])
}

/** one pass: claims what is due and posts it; the number posted */
export async function deliverDue(s = deliverySettings()): Promise<number> {
  const batch = await claim(s)
  await Promise.all(batch.map(async (n) => record(n, await post(n, s), s)))
  return batch.length
}

/** the worker of this instance: passes one after another, pausing when nothing is due */
export function startDeliveryWorker(s = deliverySettings()): () => void {
  let stopped = false
  ;(async () => {
    while (!stopped) {
      let posted = 0
      try {
        posted = await deliverDue(s)
      } catch (e) {
        process.stderr.write(`notification delivery: ${(e as Error)?.message ?? e}\n`)
      }
      if (!posted) await new Promise((r) => setTimeout(r, s.pollMs).unref?.())
    }
  })()
  return () => {
    stopped = true
  }
}

/** this instance's worker, which claims nothing new once SIGTERM comes (Next.js then stops accepting, finishes the requests in flight and exits) */
export function startInstanceWorker(): void {
  process.once('SIGTERM', startDeliveryWorker())
}
