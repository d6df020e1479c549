// The payment page's per-client attempt windows: the one module of the PageAttemptWindow table
// (lib/pay-form/attempt-limits.ts keeps the limits).
import { db } from '../db/client'

/**
 * counts an attempt of the client (its keyed hash) in the window of `windowSeconds` now; the window's count and the
 * seconds to its end
 */
export async function countClientAttemptRow(clientHash: string, windowSeconds: number) {
  const rows = await db().$queryRaw<{ count: number; retryAfter: number }[]>`
    WITH w AS (SELECT to_timestamp(floor(extract(epoch FROM now()) / ${windowSeconds}::int) * ${windowSeconds}::int) AS start)
    INSERT INTO "PageAttemptWindow" ("clientHash", "windowStart", count)
    SELECT ${clientHash}, w.start, 1 FROM w
    ON CONFLICT ("clientHash", "windowStart") DO UPDATE SET count = "PageAttemptWindow".count + 1
    RETURNING count, extract(epoch FROM "windowStart" + make_interval(secs => ${windowSeconds}::int) - now())::float8 AS "retryAfter"`
  return rows[0]
}

/** forgets the windows long past */
export async function forgetOldClientWindows(windowSeconds: number): Promise<void> {
  await db()
    .$executeRaw`DELETE FROM "PageAttemptWindow" WHERE "windowStart" < now() - make_interval(secs => ${2 * windowSeconds}::int)`
}
