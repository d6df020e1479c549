// The outbox's tables: the one module of Notification and NotificationAttempt. Written in the transaction
// (or the statement) of the change a notification tells of (notificationInsert), leased and recorded by the
// delivery workers, queued again by a re-send, read by the API's list and the dashboard, deleted with a
// sandbox reset. The rules (when, where to, how often) are the callers'.
import { db, type Tx } from '../db/client'
import { localMidnight } from '../db/hour-stats'
import { Prisma, type Notification, type NotificationAttempt } from '../generated/prisma/client'
import { dueOnSiteClock, offsetInterval, siteOffset } from '../sandbox/site-clock'
import type { NotificationType } from './notification-envelope'

export type { Notification, NotificationAttempt }
export type NotificationWithAttempts = Notification & { attemptLog: NotificationAttempt[] }
/** what an attempt changes on its notification: its count and lease always, then DELIVERED, FAILED or due again */
export interface NotificationChange {
  attempts: number
  leaseUntil: null
  state?: 'DELIVERED' | 'FAILED'
  deliveredAt?: Date
  nextAttemptAt?: Date
}

/** a notification's attempts, oldest first */
const withAttempts = { attemptLog: { orderBy: { at: 'asc' as const } } }

export interface NewNotification {
  type: NotificationType
  siteId: string
  resourceRef: string
  resourceId: string
  status: string
  /** where it goes instead of the site's URL, if anywhere */
  target: string | null
  body: string
}

/**
 * The INSERT of a change's notification (none when no URL is known), alone or in a larger statement;
 * with `gated`, a part that writes only through the CTE `gate` (see DeferredAuth in lib/http/api-route.ts).
 */
export function notificationInsert(n: NewNotification, gated = false): Prisma.Sql {
  // dated on the site's clock: in a write of the site (lib/sandbox/site-write.ts siteWrite) the site's row
  // holds the clock the write has, kept still by the site's gate; through the gate of a statement, on the
  // offset that gate was judged on (the CTE `gate`: lib/sites/site-store.ts writeWithTokenHashCheck)
  const at = gated ? Prisma.sql`now() + ${offsetInterval('gate.off')}` : Prisma.sql`u.at`
  return Prisma.sql`
    INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt", "createdAt")
    SELECT gen_random_uuid(), ${n.siteId}, ${n.type}, ${n.resourceRef}::uuid, ${n.resourceId}, ${n.status}, u.url, ${n.body}, 'PENDING', ${at}, ${at}
    FROM (SELECT coalesce(${n.target}::text, s."notifyUrl") AS url, now() + ${siteOffset('s')} AS at
          FROM (SELECT 1) one LEFT JOIN "Site" s ON s.id = ${n.siteId}) u${gated ? Prisma.sql`, gate` : Prisma.empty}
    WHERE u.url IS NOT NULL
    ON CONFLICT ("resourceRef", status, url) DO NOTHING`
}

/**
 * The INSERT of several changes' notifications in one statement (the scheduler's batch of declines: one statement,
 * and one run of the stats trigger, for all), each as notificationInsert writes it alone.
 */
export function notificationsInsert(list: NewNotification[]): Prisma.Sql {
  const of = <K extends keyof NewNotification>(k: K) => list.map((n) => n[k])
  return Prisma.sql`
    INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt", "createdAt")
    SELECT gen_random_uuid(), v."siteId", v.type, v."resourceRef", v."resourceId", v.status, u.url, v.body, 'PENDING', u.at, u.at
    FROM unnest(${of('siteId')}::text[], ${of('type')}::text[], ${of('resourceRef')}::uuid[], ${of('resourceId')}::text[],
                ${of('status')}::text[], ${of('target')}::text[], ${of('body')}::text[])
         v ("siteId", type, "resourceRef", "resourceId", status, target, body)
    CROSS JOIN LATERAL (
      SELECT coalesce(v.target, s."notifyUrl") AS url, now() + ${siteOffset('s')} AS at
      FROM (SELECT 1) one LEFT JOIN "Site" s ON s.id = v."siteId") u
    WHERE u.url IS NOT NULL
    ON CONFLICT ("resourceRef", status, url) DO NOTHING`
}

/** a change's notification written in the change's transaction (none when no URL is known) */
export async function insertNotification(tx: Tx, insert: Prisma.Sql): Promise<void> {
  await tx.$executeRaw(insert)
}

// ---- delivery

/** serialises claims across instances (pg_advisory_xact_lock key: "notify" in ASCII) */
const CLAIM_LOCK = 0x6e6f74696679n

/** a leased notification, with its site's secret version and clock offset */
export type Claimed = Notification & {
  notifySecretVersion: number
  notifySecretRotatedAt: Date | null
  clockOffsetMs: bigint
}

/**
 * At least this many notifications due: a backlog, claimed site by site; fewer: all of them read and ranked (both in
 * claimStatement, which says why).
 */
export const BACKLOG_FROM = 64

/** a due notification not under way (its lease, if any, ran out: the worker that took it is gone) */
const UNLEASED = Prisma.sql`x.state = 'PENDING' AND (x."leaseUntil" IS NULL OR x."leaseUntil" < now())`

/** the CTE `backlog`: whether at least BACKLOG_FROM notifications are due now (read up to that many) */
const backlogCount = () => Prisma.sql`backlog AS MATERIALIZED (
        SELECT count(*) >= ${BACKLOG_FROM} AS yes FROM (
          ${dueOnSiteClock('Notification', 'nextAttemptAt', Prisma.sql`now()`, UNLEASED)} LIMIT ${BACKLOG_FROM}) d)`

/** the CTEs of a backlog's claim, `due_by_site` (see claimStatement) */
const bySite = (s: { perSite: number }) => Prisma.sql`
      pending AS (
        (SELECT x."siteId", x."nextAttemptAt" AS first FROM "Notification" x WHERE x.state = 'PENDING'
         ORDER BY x."siteId", x."nextAttemptAt" LIMIT 1)
        UNION ALL
        SELECT n."siteId", n.first FROM pending p, LATERAL (
          SELECT x."siteId", x."nextAttemptAt" AS first FROM "Notification" x WHERE x.state = 'PENDING' AND x."siteId" > p."siteId"
          ORDER BY x."siteId", x."nextAttemptAt" LIMIT 1) n),
      due_by_site AS (
        SELECT d.id, d."nextAttemptAt"
        FROM pending p LEFT JOIN "Site" s ON s.id = p."siteId",
        LATERAL (SELECT count(*)::int AS n FROM "Notification" x
                 WHERE x."siteId" = p."siteId" AND x.state = 'PENDING' AND x."leaseUntil" >= now()) busy,
        LATERAL (SELECT x.id, x."nextAttemptAt" FROM "Notification" x
                 WHERE x."siteId" = p."siteId" AND x."nextAttemptAt" <= now() + ${siteOffset('s')} AND ${UNLEASED}
                 ORDER BY x."nextAttemptAt", x.id LIMIT greatest(${s.perSite} - busy.n, 0)) d
        WHERE p.first <= now() + ${siteOffset('s')})`

/** the CTEs of a claim of few due, `due_ranked` with each row's place among its site's (see claimStatement) */
const ranked = () => Prisma.sql`
      busy AS (
        SELECT "siteId", count(*)::int AS n FROM "Notification"
        WHERE state = 'PENDING' AND "leaseUntil" >= now() GROUP BY "siteId"),
      due_ranked AS (
        SELECT d.id, d."nextAttemptAt",
               row_number() OVER (PARTITION BY d."siteId" ORDER BY d."nextAttemptAt", d.id) + coalesce(b.n, 0) AS place
        FROM (${dueOnSiteClock('Notification', 'nextAttemptAt', Prisma.sql`now()`, UNLEASED, Prisma.sql`x.id, x."siteId", x."nextAttemptAt"`)}) d
        LEFT JOIN busy b ON b."siteId" = d."siteId" LEFT JOIN "Site" s ON s.id = d."siteId"
        WHERE d."nextAttemptAt" <= now() + ${siteOffset('s')})`

/**
 * The statement that leases up to `free` due notifications, oldest first, none of a site that already has
 * `perSite` deliveries under way; with each, its site's secret version and clock offset. A notification is
 * due once its site's time (real time plus the site's clock offset) has reached its nextAttemptAt.
 *
 * Few due: every due row is read and ranked per site, from the index ranges of the due times (the rows whole: not
 * their ids, then the rows again by `id IN (…)`, which the planner nested with a backlog its statistics predate: a
 * claim took 40 s at 19,000 pending). That costs the number due, paid at each claim: with a backlog (10,000 due of
 * one site, 20 ms a claim) a site's drain cost its square, ~160/s at 4 of a site at a time. So with a backlog the
 * sites with notifications pending are found by a skip scan of a partial index of the pending rows (one descent
 * each, which also gives the site's first due time), and of each site whose first is due, only its first due rows,
 * up to what its deliveries under way (a partial index of the leased rows) leave of `perSite`. That costs a descent
 * per site with any pending, due or not (thousands of sites whose receivers are down, their retries backed off).
 *
 * So the statement first counts the due rows, up to BACKLOG_FROM (`backlog`), and runs the one way that count
 * chooses: the other's part is behind a condition on it that PostgreSQL evaluates once, before reading any of that
 * part's rows (a one-time filter), so it is never run. In the statement, not a statement before it: a delivery's
 * round trips bound a site's drain. `backlog` given: that way alone (the tests compare the two).
 */
export function claimStatement(s: { perSite: number; leaseMs: number }, free: number, backlog?: boolean): Prisma.Sql {
  const pickBySite = (when: Prisma.Sql) =>
    Prisma.sql`SELECT id, "nextAttemptAt" FROM due_by_site WHERE ${when} ORDER BY "nextAttemptAt" LIMIT ${free}`
  const pickRanked = (when: Prisma.Sql) =>
    Prisma.sql`SELECT id, "nextAttemptAt" FROM due_ranked WHERE ${when} AND place <= ${s.perSite} ORDER BY "nextAttemptAt" LIMIT ${free}`
  const due =
    backlog === true
      ? Prisma.sql`WITH RECURSIVE ${bySite(s)}, picked AS (${pickBySite(Prisma.sql`true`)})`
      : backlog === false
        ? Prisma.sql`WITH ${ranked()}, picked AS (${pickRanked(Prisma.sql`true`)})`
        : Prisma.sql`WITH RECURSIVE ${backlogCount()}, ${bySite(s)}, ${ranked()}, picked AS (
      (${pickBySite(Prisma.sql`(SELECT yes FROM backlog)`)})
      UNION ALL
      (${pickRanked(Prisma.sql`NOT (SELECT yes FROM backlog)`)}))`
  return Prisma.sql`${due}
      UPDATE "Notification" n SET "leaseUntil" = now() + ${s.leaseMs}::float8 * interval '1 millisecond'
      FROM "Site" site
      WHERE n.id IN (SELECT id FROM picked) AND site.id = n."siteId"
        AND n.state = 'PENDING' AND (n."leaseUntil" IS NULL OR n."leaseUntil" < now())
      RETURNING n.*, site."notifySecretVersion", site."notifySecretRotatedAt", site."clockOffsetMs"`
}

/** Leases due notifications (claimStatement), claims serialised across instances. */
export async function claimDue(s: { perSite: number; leaseMs: number }, free: number): Promise<Claimed[]> {
  return db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})::text`
    return tx.$queryRaw<Claimed[]>(claimStatement(s, free))
  })
}

/**
 * An attempt recorded, in one statement (a delivery's round trips bound a site's drain): the attempt, kept only while
 * its notification is (a sandbox reset deletes it), and the notification's change, written only while the lease
 * `leaseUntil` of the claim still holds the row (a re-send, or another worker after the lease ran out, has taken it
 * over otherwise, and its state is theirs to write). The attempt is kept even then: it was made.
 */
export async function recordAttempt(
  tx: Tx,
  id: string,
  leaseUntil: Date | null,
  a: { at: Date; httpStatus: number | null; durationMs: number; error: string | null },
  next: NotificationChange,
): Promise<void> {
  await tx.$executeRaw`
      WITH kept AS (SELECT id FROM "Notification" WHERE id = ${id}::uuid),
      attempt AS (
        INSERT INTO "NotificationAttempt" (id, "notificationRef", at, "httpStatus", "durationMs", error)
        SELECT gen_random_uuid(), kept.id, ${a.at}, ${a.httpStatus}::int, ${a.durationMs}::int, ${a.error}::text FROM kept)
      UPDATE "Notification" SET attempts = ${next.attempts}::int, "leaseUntil" = NULL,
        state = coalesce(${next.state ?? null}::text, state),
        "deliveredAt" = coalesce(${next.deliveredAt ?? null}::timestamptz, "deliveredAt"),
        "nextAttemptAt" = coalesce(${next.nextAttemptAt ?? null}::timestamptz, "nextAttemptAt")
      WHERE id = ${id}::uuid AND "leaseUntil" IS NOT DISTINCT FROM ${leaseUntil}::timestamptz`
}

// ---- re-send

/**
 * queues the site's notification again, due at the site's time (`offsetMs` ahead), unless a lease holds it; the row
 * with its attempts as that left it, or null when nothing was queued
 */
export async function requeue(
  tx: Tx,
  siteId: string,
  notificationId: string,
  offsetMs: number,
): Promise<NotificationWithAttempts | null> {
  const count = await tx.$executeRaw`
      UPDATE "Notification" n SET state = 'PENDING', "leaseUntil" = NULL,
        "nextAttemptAt" = now() + ${offsetMs}::bigint * interval '1 millisecond'
      WHERE n.id = ${notificationId}::uuid AND n."siteId" = ${siteId} AND (n."leaseUntil" IS NULL OR n."leaseUntil" < now())`
  return count ? tx.notification.findUniqueOrThrow({ where: { id: notificationId }, include: withAttempts }) : null
}

/** whether the site has the notification */
export async function siteHasNotification(siteId: string, notificationId: string): Promise<boolean> {
  return (await db().notification.count({ where: { id: notificationId, siteId } })) > 0
}

// ---- reads

/**
 * The site's `take` latest notifications, newest first (by creation time, then id), each with its attempts: the
 * first of them, or those after `cursor` (a row's creation time and id: the API's next page). The page is one range
 * of the index on ("siteId", "createdAt", id), however deep.
 */
export async function latestNotifications(
  siteId: string,
  take: number,
  cursor: { createdAt: Date; id: string } | null = null,
): Promise<NotificationWithAttempts[]> {
  const after = cursor
    ? Prisma.sql` AND (n."createdAt", n.id) < (${cursor.createdAt}, ${cursor.id}::uuid)`
    : Prisma.empty
  // ordered by the columns (n.id, a uuid), not the text the statement answers: the index's own order, and the cursor's
  const page = await db().$queryRaw<{ id: string }[]>`
    SELECT n.id::text AS id FROM "Notification" n WHERE n."siteId" = ${siteId}${after}
    ORDER BY n."createdAt" DESC, n.id DESC LIMIT ${take}`
  if (!page.length) return []
  const rows = await db().notification.findMany({ where: { id: { in: page.map((r) => r.id) } }, include: withAttempts })
  const byId = new Map(rows.map((r) => [r.id, r]))
  // a row deleted between the two statements (a sandbox reset) is left out
  return page.flatMap((r) => byId.get(r.id) ?? [])
}

/** the site's notifications of the resources `refs` (a payment, its captures, its refunds), oldest first */
export async function notificationsOfResources(siteId: string, refs: string[]): Promise<NotificationWithAttempts[]> {
  return db().notification.findMany({
    where: { siteId, resourceRef: { in: refs } },
    include: { attemptLog: { orderBy: { at: 'asc' } } },
    orderBy: { createdAt: 'asc' },
  })
}

/** the site's notification with its attempts; null when the site has none by that id */
export async function siteNotification(siteId: string, notificationId: string) {
  return db().notification.findFirst({ where: { id: notificationId, siteId }, include: withAttempts })
}

/**
 * how many of the site's delivery attempts to `url` were recorded with `error` (the local listener's look for the
 * service refusing to call it); by url and error, not by time, which on a site's clock may be anything
 */
export async function attemptsWithError(siteId: string, url: string, error: string): Promise<number> {
  return db().notificationAttempt.count({ where: { error, notification: { siteId, url } } })
}

/**
 * the payment (its row) a notification's resource belongs to: its own row for PAYMENT, the capture's or refund's
 * payment otherwise
 */
const paymentJoin = Prisma.sql`
  LEFT JOIN "Capture" c ON n.type = 'CAPTURE' AND c.id = n."resourceRef"
  LEFT JOIN "Refund" r ON n.type = 'REFUND' AND r.id = n."resourceRef"
  LEFT JOIN "Payment" p ON p.id = CASE n.type WHEN 'PAYMENT' THEN n."resourceRef" WHEN 'CAPTURE' THEN c."paymentRef" ELSE r."paymentRef" END`

export interface NotificationListSqlRow {
  id: string
  type: string
  resourceId: string
  /** the site's id of the payment the notification tells of (itself, or the capture's or refund's) */
  paymentId: string | null
  status: string
  url: string
  state: string
  attempts: number
  createdAt: Date
  lastAt: Date | null
  lastHttpStatus: number | null
  lastDurationMs: number | null
  lastError: string | null
}

/**
 * The site's notifications with their last attempts, newest first, `limit` of them after `cursor` (a row's creation
 * time and id, newest first: the dashboard's list); with `state`, only those in that state
 */
export async function listSiteNotifications(
  siteId: string,
  cursor: { createdAt: Date; id: string } | null,
  limit: number,
  state?: string,
  since?: { day: string; timeZone: string },
): Promise<NotificationListSqlRow[]> {
  const after = cursor ? Prisma.sql`(n."createdAt", n."id") < (${cursor.createdAt}, ${cursor.id}::uuid)` : null
  // made on a local day or after (the overview's days): from that day's midnight in the time zone
  const from = since ? Prisma.sql` AND n."createdAt" >= ${localMidnight(since.day, since.timeZone)}` : Prisma.empty
  return db().$queryRaw<NotificationListSqlRow[]>`
    SELECT n.id::text AS id, n.type, n."resourceId", p."paymentId", n.status, n.url, n.state, n.attempts, n."createdAt",
           la.at AS "lastAt", la."httpStatus" AS "lastHttpStatus", la."durationMs" AS "lastDurationMs", la.error AS "lastError"
    FROM "Notification" n
    ${paymentJoin}
    LEFT JOIN LATERAL (
      SELECT a.at, a."httpStatus", a."durationMs", a.error FROM "NotificationAttempt" a
      WHERE a."notificationRef" = n.id ORDER BY a.at DESC LIMIT 1) la ON true
    WHERE n."siteId" = ${siteId}${after ? Prisma.sql` AND ${after}` : Prisma.empty}${state ? Prisma.sql` AND n.state = ${state}` : Prisma.empty}${from}
    ORDER BY n."createdAt" DESC, n.id DESC
    LIMIT ${limit}`
}

/** the site's id of the payment a notification tells of, and that payment's row */
export async function notificationPayment(
  notificationId: string,
): Promise<{ paymentId: string; paymentRef: string } | null> {
  const rows = await db().$queryRaw<{ paymentId: string; paymentRef: string }[]>`
    SELECT p."paymentId", p.id::text AS "paymentRef" FROM "Notification" n ${paymentJoin}
    WHERE n.id = ${notificationId}::uuid AND p.id IS NOT NULL`
  return rows[0] ?? null
}

// ---- sandbox reset

/** a sandbox reset's part here (the statements the reset makes, in its order); how many notifications went */
export async function deleteSiteData(tx: Tx, siteId: string): Promise<number> {
  await tx.$executeRaw`DELETE FROM "NotificationAttempt" a USING "Notification" n WHERE a."notificationRef" = n.id AND n."siteId" = ${siteId}`
  return tx.$executeRaw`DELETE FROM "Notification" WHERE "siteId" = ${siteId}`
}
