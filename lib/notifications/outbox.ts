// Writing notifications, in the transaction (or the statement) of the status change they tell of:
// at most once per change (a unique key), to exactly one URL — the one the resource names (its
// operation's callbackUrl, say), else the site's notification URL; none when there is none of these.
// Its times (created, due) are on the site's sandbox clock. The body comes rendered by its resource
// (lib/payments/payment-notify.ts): the outbox knows no resource.
import { Prisma } from '../generated/prisma/client'
import { offsetInterval, siteOffset } from '../sandbox/site-clock'
import type { NotificationType } from './notification-envelope'

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
  // offset that gate was judged on (the CTE `gate`: lib/sites/site-tokens.ts writeWithTokenCheck)
  const at = gated ? Prisma.sql`now() + ${offsetInterval('gate.off')}` : Prisma.sql`u.at`
  return Prisma.sql`
    INSERT INTO "Notification" (id, "siteId", type, "resourceRef", "resourceId", status, url, body, state, "nextAttemptAt", "createdAt")
    SELECT gen_random_uuid(), ${n.siteId}, ${n.type}, ${n.resourceRef}::uuid, ${n.resourceId}, ${n.status}, u.url, ${n.body}, 'PENDING', ${at}, ${at}
    FROM (SELECT coalesce(${n.target}::text, s."notifyUrl") AS url, now() + ${siteOffset('s')} AS at
          FROM (SELECT 1) one LEFT JOIN "Site" s ON s.id = ${n.siteId}) u${gated ? Prisma.sql`, gate` : Prisma.empty}
    WHERE u.url IS NOT NULL
    ON CONFLICT ("resourceRef", status, url) DO NOTHING`
}
